/**
 * Remembers a pure function of a string for the strings seen most recently. Meant for request headers
 * that repeat across requests (a User-Agent, an Accept-Encoding) and cost a regular expression or a
 * parse each time: a page view then pays a Map lookup. Bounded both ways, since clients choose the
 * strings: at most `maxEntries` (the least recently used goes first), and a key longer than
 * `maxKeyLength` is computed every time and never stored.
 */
export function boundedMemo<Result>(
  compute: (key: string) => Result,
  { maxEntries = 500, maxKeyLength = 512 }: { maxEntries?: number; maxKeyLength?: number } = {},
): (key: string) => Result {
  // Boxed, so a result that is itself undefined is still a hit.
  const results = new Map<string, { result: Result }>();
  let newest: string | undefined;
  return (key) => {
    if (key.length > maxKeyLength) return compute(key);
    const hit = results.get(key);
    if (hit) {
      // A hit moves to the newest end, so the Map's order is least recently used first; a run of
      // one key (the common case) skips the move.
      if (key !== newest) {
        results.delete(key);
        results.set(key, hit);
        newest = key;
      }
      return hit.result;
    }
    const result = compute(key);
    results.set(key, { result });
    newest = key;
    if (results.size > maxEntries) {
      const oldest = results.keys().next().value;
      if (oldest !== undefined) results.delete(oldest);
    }
    return result;
  };
}
