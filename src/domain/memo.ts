/**
 * A pure function of one string, remembered for recent inputs: ranking folds the same catalog titles
 * and authors for every search that retrieves them. Two generations bound the memory: when the young
 * one is full it becomes the old one, and an input found only in the old one moves back to the young.
 * The values are shared between callers: they must never be changed.
 */
export function memoized<T>(compute: (input: string) => T, size = 5000): (input: string) => T {
  let young = new Map<string, T>();
  let old = new Map<string, T>();
  return (input) => {
    const known = young.get(input);
    if (known !== undefined) return known;
    const value = old.get(input) ?? compute(input);
    if (young.size >= size) {
      old = young;
      young = new Map();
    }
    young.set(input, value);
    return value;
  };
}

/** What `map` holds for `key`; the first time, what `make` answers, kept there. */
export function getOrAdd<K, V>(
  map: { get(key: K): V | undefined; set(key: K, value: V): unknown },
  key: K,
  make: () => V,
): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}
