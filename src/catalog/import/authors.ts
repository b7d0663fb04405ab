import { cleanText } from './fields.js';

/** "Austen, Jane" → "Jane Austen"; "King, Martin Luther, Jr." → "Martin Luther King, Jr.". */
export function invertName(name: string): string {
  const parts = name.split(',').map((part) => part.trim());
  const [surname, given, ...suffixes] = parts;
  if (!surname || !given) return name.trim();
  const direct = `${given} ${surname}`;
  return suffixes.length > 0 ? `${direct}, ${suffixes.join(', ')}` : direct;
}

// "Austen, Jane" has one comma and a one-word first part: an inverted name, not a list of two people.
function looksInverted(parts: readonly string[]): boolean {
  return parts.length === 2 && !/\s/.test(parts[0] ?? '') && (parts[1] ?? '').length > 0;
}

/**
 * Splits an author cell into names. Semicolons always separate people; commas do unless the cell is
 * a single inverted name. Duplicates are dropped, keeping the first spelling.
 */
export function splitAuthors(value: unknown): string[] {
  if (Array.isArray(value)) return unique(value.map(cleanText));
  const text = cleanText(value);
  if (!text) return [];
  if (text.includes(';')) return unique(text.split(';').map((name) => cleanText(invertName(name))));
  const parts = text.split(',').map((part) => part.trim());
  if (looksInverted(parts)) return unique([cleanText(invertName(text))]);
  return unique(parts.map(cleanText));
}

function unique(names: ReadonlyArray<string | null>): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const name of names) {
    if (!name || seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    result.push(name);
  }
  return result;
}

/**
 * Names from an Open Library `by_statement` ("by Fyodor Dostoevsky ; translated by Constance Garnett.").
 * Only the part before the first ";" names the authors; later parts are translators and editors.
 * Statements that do not read like a list of names give nothing rather than a wrong author.
 */
export function namesFromByStatement(statement: unknown): string[] {
  const text = cleanText(statement);
  if (!text) return [];
  const lead = (text.split(/\s*;\s*/)[0] ?? '')
    .replace(/^\[?(?:by|par|von|de|door|di|por)\]?\s+/i, '')
    .replace(/[\s.,:-]+$/, '');
  if (!lead || lead.length > 120 || /[[\]()"]|\b(?:translated|edited|with|from|et al)\b/i.test(lead))
    return [];
  const names = lead.split(/\s*,\s*|\s+(?:and|&|und|et|y)\s+/i).map(cleanText);
  return unique(names.filter((name): name is string => !!name && /\p{Lu}/u.test(name)));
}
