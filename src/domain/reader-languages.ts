import { boundedMemo } from './bounded-memo.js';

/** The languages reader pages are written in (issue 44); English is the catalogues' source. */
export const READER_LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'ja'] as const;
export type ReaderLanguage = (typeof READER_LANGUAGES)[number];

/** The cookie the language switcher sets (`/language`). */
export const LANGUAGE_COOKIE = 'booklink_lang';

export function isReaderLanguage(value: unknown): value is ReaderLanguage {
  return typeof value === 'string' && (READER_LANGUAGES as readonly string[]).includes(value);
}

/** `de-AT`, `DE`, `pt_BR` → the reader language it names, or null: only the primary subtag counts. */
export function readerLanguageOf(tag: string | null | undefined): ReaderLanguage | null {
  if (!tag) return null;
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return isReaderLanguage(primary) ? primary : null;
}

/**
 * The best reader language an `Accept-Language` header asks for (RFC 9110 12.5.4): ranges by q-value,
 * ties in header order, `q=0` refused, a region falls back to its language (`de-AT` → `de`). Null
 * when it names none of ours (`*` included: the operator's default then decides). Browsers send a
 * few values, each parsed once.
 */
export const acceptedLanguage = boundedMemo((header: string): ReaderLanguage | null => {
  let best: { language: ReaderLanguage; q: number } | null = null;
  for (const part of header.split(',')) {
    const [range = '', ...params] = part.split(';').map((text) => text.trim());
    const language = readerLanguageOf(range);
    if (!language) continue;
    const qParam = params.find((param) => param.toLowerCase().startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!Number.isFinite(q) || q <= 0) continue;
    if (!best || q > best.q) best = { language, q };
  }
  return best?.language ?? null;
});

export interface LanguageSources {
  /** `?lang=` */
  query?: string | null;
  /** The switcher's cookie. */
  cookie?: string | null;
  acceptLanguage?: string | string[] | null;
  /** `DEFAULT_LANGUAGE` */
  fallback: ReaderLanguage;
}

/** `?lang=` → cookie → `Accept-Language` → the operator's default; an unknown value is skipped. */
export function negotiateLanguage(sources: LanguageSources): ReaderLanguage {
  const fromQuery = readerLanguageOf(sources.query);
  if (fromQuery) return fromQuery;
  const fromCookie = readerLanguageOf(sources.cookie);
  if (fromCookie) return fromCookie;
  const header = Array.isArray(sources.acceptLanguage)
    ? sources.acceptLanguage.join(',')
    : sources.acceptLanguage;
  return (header ? acceptedLanguage(header) : null) ?? sources.fallback;
}
