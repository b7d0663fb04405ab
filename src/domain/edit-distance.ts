/** The three rows editDistance works in, kept between calls (it runs for every word pair ranked). */
let scratch = [new Int32Array(32), new Int32Array(32), new Int32Array(32)] as const;

/**
 * Optimal-string-alignment distance, giving up beyond `max` (typos are one or two edits). It runs
 * for every candidate word a search ranks or corrects, so it compares char codes in three reused
 * rows instead of building arrays per row.
 */
export function editDistance(a: string, b: string, max = 2): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = b.length;
  if (scratch[0].length <= n) {
    const size = 2 * (n + 1);
    scratch = [new Int32Array(size), new Int32Array(size), new Int32Array(size)];
  }
  let [beforePrevious, previous, row] = scratch;
  for (let j = 0; j <= n; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const here = a.charCodeAt(i - 1);
    const before = i > 1 ? a.charCodeAt(i - 2) : -1;
    row[0] = i;
    let best = i;
    for (let j = 1; j <= n; j++) {
      const there = b.charCodeAt(j - 1);
      let value = Math.min(
        (previous[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (previous[j - 1] as number) + (here === there ? 0 : 1),
      );
      // A swap of neighbours is one edit.
      if (j > 1 && before === there && here === b.charCodeAt(j - 2))
        value = Math.min(value, (beforePrevious[j - 2] as number) + 1);
      row[j] = value;
      if (value < best) best = value;
    }
    if (best > max) return max + 1;
    [beforePrevious, previous, row] = [previous, row, beforePrevious];
  }
  return previous[n] as number;
}
