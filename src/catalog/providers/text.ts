import { Lexer, type Token, type Tokens } from 'marked';

/**
 * Windows-1252 punctuation read as Latin-1: the C1 code point Google's text sometimes carries where
 * the publisher's feed had a dash, a quote or an ellipsis (U+0096 for "–").
 */
const CP1252_PUNCTUATION: Readonly<Record<string, string>> = {
  '\u0085': '…',
  '\u0091': '‘',
  '\u0092': '’',
  '\u0093': '“',
  '\u0094': '”',
  '\u0096': '–',
  '\u0097': '—',
};

/**
 * Control characters no page may show: C0 but tab and line breaks, DEL, C1 (U+0080–U+009F), the byte
 * order mark and the bidirectional embeddings and overrides (U+202A–U+202E), which can turn a title's
 * words around on the page. Joiners (U+200C/U+200D) stay: scripts and emoji need them.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufeff\u202a-\u202e]/g;

/** Provider text without control characters (C1 punctuation mojibake read as what it meant). */
export function withoutControls(text: string): string {
  return text.replace(CONTROL, (char) => CP1252_PUNCTUATION[char] ?? '');
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  copy: '©',
  reg: '®',
  trade: '™',
  eacute: 'é',
  egrave: 'è',
  agrave: 'à',
  ccedil: 'ç',
  uuml: 'ü',
  ouml: 'ö',
  auml: 'ä',
  szlig: 'ß',
};

/** HTML character references decoded; unknown names stay as written, invalid numbers are dropped. */
export function decodeEntities(text: string): string {
  return text.replace(/&(?:#(\d{1,7})|#x([\da-f]{1,6})|([a-z][a-z\d]{1,31}));/gi, (whole, dec, hex, name) => {
    if (name) return NAMED_ENTITIES[String(name).toLowerCase()] ?? whole;
    const code = dec ? Number(dec) : Number.parseInt(String(hex), 16);
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '';
  });
}

/** Blank runs of a line made one space, three or more line breaks two, no blank line ends. */
function tidy(text: string): string | null {
  const tidied = withoutControls(text)
    .replace(/\r\n?/g, '\n')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return tidied === '' ? null : tidied;
}

/** Elements whose content is no text for a reader (a script's code, a style sheet). */
const HIDDEN = /<(script|style|template|iframe|object|noscript)\b[\s\S]*?(?:<\/\1\s*>|$)/gi;

const BLOCK = /<\/?(?:p|div|h[1-6]|ul|ol|blockquote|table|tr|section|article|pre|hr)\b[^>]*>/gi;

/**
 * Plain text from an HTML description (Google Books, iTunes): paragraphs and breaks as line breaks,
 * list items as "• ", every tag dropped, script and style with their content, entities decoded. The
 * result is text for a page to escape, never markup.
 */
export function htmlToText(html: string): string | null {
  const text = html
    .replace(/<!--[\s\S]*?(?:-->|$)/g, '')
    .replace(HIDDEN, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '\n• ')
    .replace(BLOCK, '\n\n')
    .replace(/<\/?[a-z][^>]*>/gi, '')
    .replace(/<\/?[a-z][^<]*$/i, '');
  return tidy(decodeEntities(text));
}

type Inline = Token[] | undefined;

/** A token's own text, for the kinds that carry one. */
const ownText = (token: Token): string =>
  'text' in token && typeof token.text === 'string' ? token.text : '';

function inlineText(tokens: Inline): string {
  return (tokens ?? []).map(inlineTokenText).join('');
}

function inlineTokenText(token: Token): string {
  switch (token.type) {
    case 'br':
      return '\n';
    case 'html':
      return htmlToText(token.text) ?? '';
    case 'image':
      return token.text;
    case 'codespan':
    case 'escape':
      return decodeEntities(token.text);
    default:
      return 'tokens' in token && token.tokens ? inlineText(token.tokens) : decodeEntities(ownText(token));
  }
}

function listText(list: Tokens.List): string {
  const start = typeof list.start === 'number' ? list.start : 1;
  return list.items
    .map(
      (item, i) => `${list.ordered ? `${start + i}. ` : '• '}${blocksText(item.tokens).replace(/\n+/g, ' ')}`,
    )
    .join('\n');
}

function blockText(token: Token): string {
  switch (token.type) {
    case 'space':
    case 'hr':
      return '';
    case 'list':
      return listText(token as Tokens.List);
    case 'code':
      return token.text;
    case 'html':
      return htmlToText(token.text) ?? '';
    case 'table': {
      const table = token as Tokens.Table;
      return [table.header, ...table.rows]
        .map((row) => row.map((cell) => inlineText(cell.tokens)).join(' · '))
        .join('\n');
    }
    case 'blockquote':
      return blocksText(token.tokens);
    default:
      return inlineText('tokens' in token ? token.tokens : undefined) || decodeEntities(ownText(token));
  }
}

function blocksText(tokens: Inline): string {
  return (tokens ?? [])
    .map(blockText)
    .filter((text) => text.trim() !== '')
    .join('\n\n');
}

/**
 * Plain text from a Markdown description (Open Library's descriptions and notes are Markdown, raw
 * HTML allowed): emphasis, links and headings become their words, lists "• " or numbered lines,
 * paragraphs line breaks; HTML inside is read as `htmlToText` reads it.
 */
export function markdownToText(markdown: string): string | null {
  const source = withoutControls(markdown)
    .replace(/<!--[\s\S]*?(?:-->|$)/g, '')
    .replace(HIDDEN, '');
  return tidy(blocksText(new Lexer({ gfm: true }).lex(source)));
}
