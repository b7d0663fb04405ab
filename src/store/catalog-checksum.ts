import { createHash } from 'node:crypto';
import type { Db } from './schema.js';

/** Rows read per query: the catalog is streamed in keyset pages, never held whole. */
const PAGE = 10_000;

export interface CatalogChecksum {
  /** Catalog entries. */
  rows: number;
  /** Rows of the identifier index. */
  identifiers: number;
  /** SHA-256 of every entry (in `entry_key` order) and every indexed identifier (scheme, value, entry key). */
  hash: string;
}

/**
 * Row counts and a hash of the whole catalog that two databases holding the same catalog share: ids
 * and timestamps (`id`, `updated_at`, PostgreSQL's derived `search_tsv`) are left out, and the
 * identifier index names entries by key. For tests and benchmarks that compare imports (a resumed
 * import against an uninterrupted one); within one dialect, as the two order text differently.
 */
export async function catalogChecksum(db: Db): Promise<CatalogChecksum> {
  const hash = createHash('sha256');
  let rows = 0;
  let afterKey: string | null = null;
  for (;;) {
    let query = db.selectFrom('catalog_entries').selectAll().orderBy('entry_key').limit(PAGE);
    if (afterKey !== null) query = query.where('entry_key', '>', afterKey);
    const page = await query.execute();
    for (const { id: _id, updated_at: _updated, ...rest } of page) {
      const { search_tsv: _tsv, ...row } = rest as typeof rest & { search_tsv?: unknown };
      hash.update(JSON.stringify(row));
    }
    rows += page.length;
    const last = page.at(-1);
    if (page.length < PAGE || !last) break;
    afterKey = last.entry_key;
  }

  // The index is read in primary-key order (scheme, value, entry id); the entries of one (scheme,
  // value) are then ordered by key, since ids differ between databases holding the same catalog.
  let identifiers = 0;
  const group = { scheme: '', value: '', keys: [] as string[] };
  const flush = () => {
    for (const key of group.keys.sort()) hash.update(`${group.scheme}\0${group.value}\0${key}\n`);
    group.keys = [];
  };
  let after: readonly [string, string, number] | null = null;
  for (;;) {
    let query = db
      .selectFrom('catalog_identifiers as i')
      .innerJoin('catalog_entries as c', 'c.id', 'i.entry_id')
      .select(['i.scheme', 'i.value', 'i.entry_id', 'c.entry_key'])
      .orderBy('i.scheme')
      .orderBy('i.value')
      .orderBy('i.entry_id')
      .limit(PAGE);
    if (after !== null) {
      const [scheme, value, entryId] = after;
      query = query.where((eb) =>
        eb(eb.refTuple('i.scheme', 'i.value', 'i.entry_id'), '>', eb.tuple(scheme, value, entryId)),
      );
    }
    const page = await query.execute();
    for (const row of page) {
      if (group.scheme !== row.scheme || group.value !== row.value) {
        flush();
        group.scheme = row.scheme;
        group.value = row.value;
      }
      group.keys.push(row.entry_key);
    }
    identifiers += page.length;
    const last = page.at(-1);
    if (page.length < PAGE || !last) break;
    after = [last.scheme, last.value, Number(last.entry_id)];
  }
  flush();
  return { rows, identifiers, hash: hash.digest('hex') };
}
