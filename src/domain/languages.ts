// ISO 639-2 codes seen in Goodreads and Open Library data, mapped to the 639-1 codes the rest of the
// service uses; regional tags (en-US) keep only the language.
export const LANGUAGE_639_1: Readonly<Record<string, string>> = {
  eng: 'en',
  fre: 'fr',
  fra: 'fr',
  ger: 'de',
  deu: 'de',
  spa: 'es',
  ita: 'it',
  por: 'pt',
  jpn: 'ja',
  rus: 'ru',
  dut: 'nl',
  nld: 'nl',
  swe: 'sv',
  ara: 'ar',
  chi: 'zh',
  zho: 'zh',
  pol: 'pl',
  tur: 'tr',
  dan: 'da',
  fin: 'fi',
  nor: 'no',
  gre: 'el',
  ell: 'el',
  heb: 'he',
  hin: 'hi',
  kor: 'ko',
  lat: 'la',
  cze: 'cs',
  ces: 'cs',
  hun: 'hu',
  ind: 'id',
  per: 'fa',
  fas: 'fa',
  vie: 'vi',
  ukr: 'uk',
  cat: 'ca',
  rum: 'ro',
  ron: 'ro',
  bul: 'bg',
  srp: 'sr',
  hrv: 'hr',
  slv: 'sl',
  slo: 'sk',
  slk: 'sk',
  ice: 'is',
  isl: 'is',
  wel: 'cy',
  cym: 'cy',
  gle: 'ga',
  tha: 'th',
  mul: 'mul',
};

/** Scripts that name their language (first match wins: kana before Han, which Chinese shares). */
const SCRIPT_LANGUAGES: ReadonlyArray<[RegExp, string]> = [
  [/[\p{Script=Hiragana}\p{Script=Katakana}]/u, 'ja'],
  [/\p{Script=Hangul}/u, 'ko'],
  [/\p{Script=Han}/u, 'zh'],
  [/\p{Script=Thai}/u, 'th'],
  [/\p{Script=Greek}/u, 'el'],
  [/\p{Script=Hebrew}/u, 'he'],
  [/\p{Script=Arabic}/u, 'ar'],
  [/\p{Script=Devanagari}/u, 'hi'],
];

/**
 * The language a query's script names (Japanese for kana, Korean for Hangul…), or null for the
 * scripts many languages share (Latin, Cyrillic): the reader's or the site's language decides then.
 */
export function scriptLanguage(text: string): string | null {
  if (!/[^\x20-\x7e]/.test(text)) return null;
  return SCRIPT_LANGUAGES.find(([script]) => script.test(text))?.[1] ?? null;
}
