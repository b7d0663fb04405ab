import * as ISBN from 'isbn3';

/** A verified ISBN in both forms; `isbn10` is null for 979-prefixed ISBNs, which have no ISBN-10. */
export interface Isbn {
  isbn13: string;
  isbn10: string | null;
}

const SEPARATORS = /[\s\-‐‑‒–—.]/g;
const COMPACT = /^(?:\d{13}|\d{9}[\dX])$/;

/** Strips the separators people type (spaces, hyphens, dashes, dots) and an "ISBN" label. */
export function compactIsbn(input: string): string {
  // Most values are already compact (every ISBN of the dumps): nothing to strip.
  if (COMPACT.test(input)) return input;
  return input
    .trim()
    .replace(/^isbn(?:-1[03])?:?\s*/i, '')
    .replace(SEPARATORS, '')
    .toUpperCase();
}

function isbn10CheckDigit(first9: string): string {
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (10 - i) * Number(first9[i]);
  const check = (11 - (sum % 11)) % 11;
  return check === 10 ? 'X' : String(check);
}

function isbn13CheckDigit(first12: string): string {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (i % 2 === 0 ? 1 : 3) * Number(first12[i]);
  return String((10 - (sum % 10)) % 10);
}

/**
 * Parses an ISBN-10 or ISBN-13 in any common spelling and verifies its check digit. Registration
 * ranges are not consulted: they are assigned faster than libraries update, so a checksum-valid
 * 978/979 number is accepted, and a 978 number's ISBN-10 is its nine digits with their own check
 * digit, what isbn3's range lookup answers too (compared on 1,000,000 random ISBN-13s), at a fraction
 * of the cost (the dumps import parses several ISBNs an edition).
 */
export function parseIsbn(input: string): Isbn | null {
  const compact = compactIsbn(input);
  if (/^\d{9}[\dX]$/.test(compact)) {
    if (isbn10CheckDigit(compact.slice(0, 9)) !== compact[9]) return null;
    const isbn13 = `978${compact.slice(0, 9)}`;
    return { isbn13: isbn13 + isbn13CheckDigit(isbn13), isbn10: compact };
  }
  if (/^97[89]\d{10}$/.test(compact)) {
    if (isbn13CheckDigit(compact.slice(0, 12)) !== compact[12]) return null;
    return { isbn13: compact, isbn10: compact.startsWith('978') ? toIsbn10(compact) : null };
  }
  return null;
}

function toIsbn10(isbn13: string): string {
  const body = isbn13.slice(3, 12);
  return body + isbn10CheckDigit(body);
}

/** Hyphenated ISBN-13 for display, or the compact form when the range is unknown. */
export function hyphenateIsbn(isbn13: string): string {
  return ISBN.hyphenate(isbn13) || isbn13;
}

/** Finds the first checksum-valid ISBN inside free text or a URL path. */
export function findIsbnInText(text: string): Isbn | null {
  const candidates = text.match(/(?<![\dA-Z])(?:97[89][\s-]?)?(?:\d[\s-]?){9}[\dX](?![\dA-Z])/gi) ?? [];
  for (const candidate of candidates) {
    const isbn = parseIsbn(candidate);
    if (isbn) return isbn;
  }
  return null;
}
