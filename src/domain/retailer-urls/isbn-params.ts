import { compactIsbn, type Isbn, parseIsbn } from '../isbn.js';

/** Parameter names stores use for an ISBN or EAN, on any page. */
export const ISBN_PARAMS = ['isbn', 'isbn13', 'isbn10', 'ean', 'ean13'] as const;

/** An ISBN-13 inside free text; ISBN-10s are not trusted here because ids of ten digits pass 1 in 11. */
export function findIsbn13(text: string): Isbn | null {
  for (const match of text.matchAll(/(?<!\d)97[89]\d{10}(?!\d)/g)) {
    const isbn = parseIsbn(match[0]);
    if (isbn) return isbn;
  }
  return null;
}

/** A value that is a barcode but not an ISBN (a DVD's or a toy's EAN): evidence the product is no book. */
export function isNonBookEan(value: string): boolean {
  const compact = compactIsbn(value);
  return /^\d{12,13}$/.test(compact) && !/^97[89]/.test(compact.padStart(13, '0'));
}
