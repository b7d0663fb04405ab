/** A token group: the word as typed, plus corrections found in the index vocabulary. */
export type Alternatives = string[];

/** How the groups of a full-text query join: every group (`and`) or any (`or`). */
export type MatchMode = 'and' | 'or';

/** FTS5 query text: every token quoted (so no word is read as an operator), groups joined by AND or OR. */
export function ftsQuery(groups: Alternatives[], mode: MatchMode, prefixLast: boolean): string {
  const quote = (word: string) => `"${word.replace(/"/g, '""')}"`;
  const parts = groups.map((alternatives, i) => {
    const prefix = prefixLast && i === groups.length - 1 && alternatives[0]!.length >= 3 ? '*' : '';
    const quoted = alternatives.map((word, j) => quote(word) + (j === 0 ? prefix : ''));
    return quoted.length > 1 ? `(${quoted.join(' OR ')})` : (quoted[0] ?? '');
  });
  return parts.join(mode === 'and' ? ' AND ' : ' OR ');
}

/** tsquery text: tokens hold letters and digits only (indexTokens), so none can be an operator. */
export function tsQuery(groups: Alternatives[], mode: MatchMode, prefixLast: boolean): string {
  const clean = (word: string) => word.replace(/[^\p{L}\p{N}]/gu, '');
  const parts = groups.map((alternatives, i) => {
    const prefix = prefixLast && i === groups.length - 1 && alternatives[0]!.length >= 3 ? ':*' : '';
    const words = alternatives.map(clean).filter(Boolean);
    return words.length > 1 ? `(${words.join(' | ')})` : `${words[0] ?? ''}${prefix}`;
  });
  return parts.filter(Boolean).join(mode === 'and' ? ' & ' : ' | ');
}

/** The upper bound of the words starting with `prefix`: its last character moved one up. */
export function prefixEnd(prefix: string): string {
  return `${prefix.slice(0, -1)}${String.fromCodePoint((prefix.codePointAt(prefix.length - 1) ?? 0) + 1)}`;
}
