import { AsyncLocalStorage } from 'node:async_hooks';
import type { ReaderLanguage } from '../../domain/reader-languages.js';
import { html, SafeHtml } from '../views/html.js';
import { CATALOGUES, type MessageKey, messageFormat } from './catalogue.js';
import { sameOriginPath } from './switcher.js';

/**
 * The language a page is rendered in, for the request being answered. Set by plugins/language.ts
 * around every request (and by `inLanguage` wherever a page is rendered outside one), so views ask
 * for `t('key', values)` without each of thirty view functions passing a language along.
 */
const current = new AsyncLocalStorage<{ language: ReaderLanguage; url: string }>();

/** Renders in `language`; `url` (the request's) is where the language switcher comes back to. */
export function inLanguage<T>(language: ReaderLanguage, render: () => T, url = '/'): T {
  return current.run({ language, url }, render);
}

export function currentLanguage(): ReaderLanguage {
  return current.getStore()?.language ?? 'en';
}

/** The request's path and query, less any `lang=`: the page the language switcher returns to. */
export function currentPath(): string {
  return sameOriginPath(current.getStore()?.url);
}

export type MessageValues = Readonly<Record<string, string | number | Date>>;

/** A message as plain text (the html template escapes it where it is interpolated). */
export function t(key: MessageKey, values?: MessageValues): string {
  return String(messageFormat(currentLanguage(), key).format(values));
}

export type RichValue = SafeHtml | string | number | ((chunks: Array<string | SafeHtml>) => SafeHtml);

/**
 * A message with markup: `<link>…</link>` tags in the message become what the tag's function makes
 * of their text, values may be SafeHtml; every other piece of text is escaped.
 */
export function tHtml(key: MessageKey, values: Readonly<Record<string, RichValue>>): SafeHtml {
  const out = messageFormat(currentLanguage(), key).format<SafeHtml>(
    values as Record<string, SafeHtml | string | number>,
  );
  const parts = Array.isArray(out) ? out : [out];
  return html`${parts.map((part) => (part instanceof SafeHtml ? part : String(part)))}`;
}

const CLIENT_PREFIX = 'client.';
const clientTexts = new Map<ReaderLanguage, Readonly<Record<string, string>>>();

/**
 * The words web/ scripts show (`client.*` keys, without the prefix), for a page's
 * `#booklink-text` block: scripts read their text from the page, never hard-code it. Made once
 * per language.
 */
export function clientMessages(): Readonly<Record<string, string>> {
  const language = currentLanguage();
  let texts = clientTexts.get(language);
  if (!texts) {
    const keys = Object.keys(CATALOGUES.en).filter((key) => key.startsWith(CLIENT_PREFIX)) as MessageKey[];
    texts = Object.fromEntries(keys.map((key) => [key.slice(CLIENT_PREFIX.length), t(key)]));
    clientTexts.set(language, texts);
  }
  return texts;
}
