import { IntlMessageFormat } from 'intl-messageformat';
import type { ReaderLanguage } from '../../domain/reader-languages.js';
import de from './messages/de.json' with { type: 'json' };
import en from './messages/en.json' with { type: 'json' };
import es from './messages/es.json' with { type: 'json' };
import fr from './messages/fr.json' with { type: 'json' };
import it from './messages/it.json' with { type: 'json' };
import ja from './messages/ja.json' with { type: 'json' };
import nl from './messages/nl.json' with { type: 'json' };
import pt from './messages/pt.json' with { type: 'json' };

/**
 * The reader pages' message catalogues: one ICU MessageFormat file per language in messages/,
 * English the source. intl-messageformat (FormatJS) parses them: ICU plurals and select, numbers and
 * dates through Intl. `npm run lint` (scripts/check-messages.mjs) checks every language has every
 * English key, with the same placeholders, and that every message parses.
 */
export type MessageKey = keyof typeof en;

type Catalogue = Readonly<Record<string, string>>;

export const CATALOGUES: Readonly<Record<ReaderLanguage, Catalogue>> = { en, de, fr, es, it, nl, pt, ja };

/** Each message is parsed once per language, when first shown, and kept: never per request. */
const compiled: Record<ReaderLanguage, Map<string, IntlMessageFormat>> = {
  en: new Map(),
  de: new Map(),
  fr: new Map(),
  es: new Map(),
  it: new Map(),
  nl: new Map(),
  pt: new Map(),
  ja: new Map(),
};

export function messageFormat(language: ReaderLanguage, key: MessageKey): IntlMessageFormat {
  const cache = compiled[language];
  let format = cache.get(key);
  if (!format) {
    // A key missing in a language (the lint refuses that) still shows the English text.
    const source = CATALOGUES[language][key] ?? en[key];
    format = new IntlMessageFormat(source, language);
    cache.set(key, format);
  }
  return format;
}

/** The English text of every key: what the browser test looks for on other languages' pages. */
export function englishMessages(): Catalogue {
  return en;
}
