import type { Answer } from './search.js';

export interface KindScore {
  kind: string;
  total: number;
  /** Top-1 result is an edition of the expected work (negatives: nothing confident). */
  workHits: number;
  /** Top-1 result is exactly the expected edition (the trade edition, or the ISBN's). */
  editionHits: number;
  wrongRedirects: number;
}

/** Per query kind: top-1 accuracy by work and by edition, and confident redirects to a wrong book. */
export function score(answers: readonly Answer[]): KindScore[] {
  const byKind = new Map<string, KindScore>();
  for (const answer of answers) {
    const { kind, expect, isbn } = answer.query;
    const row = byKind.get(kind) ?? { kind, total: 0, workHits: 0, editionHits: 0, wrongRedirects: 0 };
    row.total++;
    if (expect === null) {
      if (!answer.confident) {
        row.workHits++;
        row.editionHits++;
      }
    } else {
      if (answer.topWork === expect) row.workHits++;
      if (answer.topIsbn === isbn) row.editionHits++;
    }
    if (answer.confident && answer.topWork !== expect) row.wrongRedirects++;
    byKind.set(kind, row);
  }
  return [...byKind.values()].sort((a, b) => a.kind.localeCompare(b.kind));
}

const pct = (part: number, total: number) => (total ? `${((100 * part) / total).toFixed(1)}%` : '-');

export function totals(rows: readonly KindScore[]): KindScore {
  return rows.reduce(
    (sum, row) => ({
      kind: 'ALL',
      total: sum.total + row.total,
      workHits: sum.workHits + row.workHits,
      editionHits: sum.editionHits + row.editionHits,
      wrongRedirects: sum.wrongRedirects + row.wrongRedirects,
    }),
    { kind: 'ALL', total: 0, workHits: 0, editionHits: 0, wrongRedirects: 0 },
  );
}

/** A side-by-side table: each engine's work and edition accuracy per query kind. */
export function formatTable(engines: ReadonlyArray<[name: string, rows: KindScore[]]>): string {
  const kinds = engines[0]?.[1].map((row) => row.kind) ?? [];
  const header = ['kind', 'n', ...engines.flatMap(([name]) => [`${name} work`, `${name} edition`])];
  const lines = [...kinds, 'ALL'].map((kind) => {
    const cells = engines.map(([, rows]) =>
      kind === 'ALL' ? totals(rows) : rows.find((r) => r.kind === kind),
    );
    const first = cells[0];
    return [
      kind,
      String(first?.total ?? 0),
      ...cells.flatMap((c) => [
        pct(c?.workHits ?? 0, c?.total ?? 0),
        pct(c?.editionHits ?? 0, c?.total ?? 0),
      ]),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const row = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [row(header), row(widths.map((w) => '-'.repeat(w))), ...lines.map(row)].join('\n');
}
