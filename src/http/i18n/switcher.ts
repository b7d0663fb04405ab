import { READER_LANGUAGES, type ReaderLanguage } from '../../domain/reader-languages.js';

/** Each language's own name for itself: what the switcher shows, the same in every language. */
export const LANGUAGE_NAMES: Readonly<Record<ReaderLanguage, string>> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  it: 'Italiano',
  nl: 'Nederlands',
  pt: 'Português',
  ja: '日本語',
};

/**
 * A path on this site, fit to redirect to: it starts with one `/` (not `//host` or `/\host`, which a
 * browser reads as another host) and has no control character; anything else is `/`. A `lang=`
 * parameter is dropped, so it cannot outvote the choice just made.
 */
export function sameOriginPath(back: string | undefined): string {
  if (!back?.startsWith('/') || back.startsWith('//') || back.startsWith('/\\')) return '/';
  // A backslash or a control character (a tab, a newline) can make a browser read another host.
  if ([...back].some((char) => char === '\\' || char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f))
    return '/';
  const url = new URL(back, 'http://booklink.invalid');
  if (url.origin !== 'http://booklink.invalid') return '/';
  url.searchParams.delete('lang');
  return `${url.pathname}${url.search}`;
}

/** `?lang=xx` added to (or replacing the one in) a URL: the hreflang alternates. */
export function withLanguage(url: string, language: ReaderLanguage): string {
  const parsed = new URL(url, 'http://booklink.invalid');
  parsed.searchParams.set('lang', language);
  return url.startsWith('/') ? `${parsed.pathname}${parsed.search}` : parsed.href;
}

export { READER_LANGUAGES };
