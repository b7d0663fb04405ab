import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { Dialect, Store } from './db.js';
import { coreMigration } from './migrations/0001-core.js';
import { destinationsMigration } from './migrations/0002-destinations.js';
import { searchMigration } from './migrations/0003-search.js';
import { apiKeysMigration } from './migrations/0004-api-keys.js';
import { adminMigration } from './migrations/0005-admin.js';
import { readersMigration } from './migrations/0006-readers.js';
import { analyticsRollupMigration } from './migrations/0007-analytics-rollup.js';
import { searchSeriesMigration } from './migrations/0008-search-series.js';
import { settingsMigration } from './migrations/0009-settings.js';
import { loginThrottleMigration } from './migrations/0010-login-throttle.js';
import { identifierIndexMigration } from './migrations/0014-identifier-index.js';
import { partnersMigration } from './migrations/0015-partners.js';
import { searchByPopularityMigration } from './migrations/0016-search-by-popularity.js';
import { searchTermsPostgresMigration } from './migrations/0017-search-terms-postgres.js';
import { searchPopularPostgresMigration } from './migrations/0018-search-popular-postgres.js';
import { publicDomainPostgresMigration } from './migrations/0019-public-domain-postgres.js';
import { stagingWithoutRowidMigration } from './migrations/0020-staging-without-rowid.js';
import { cheaperFoldPostgresMigration } from './migrations/0021-cheaper-fold-postgres.js';
import { booksFtsDirectMigration } from './migrations/0022-books-fts-direct.js';
import { foldKeepsMarksMigration } from './migrations/0023-fold-keeps-marks.js';
import { foldMarksPostgresMigration } from './migrations/0024-fold-marks-postgres.js';
import { listPublicIdsMigration } from './migrations/0025-list-public-ids.js';
import { destinationCountriesMigration } from './migrations/0026-destination-countries.js';
import { affiliateTagsMigration } from './migrations/0029-affiliate-tags.js';
import { bookVisitsMigration } from './migrations/0030-book-visits.js';
import { brandLogosMigration } from './migrations/0031-brand-logos.js';
import { offersMigration } from './migrations/0032-offers.js';
import { storefrontTemplatesMigration } from './migrations/0033-storefront-templates.js';
import { appleAudiobooksMigration } from './migrations/0034-apple-audiobooks.js';
import { bookClicksMigration } from './migrations/0035-book-clicks.js';

export type DialectMigration = (db: Kysely<unknown>, dialect: Dialect) => Promise<void>;

/** Ordered, self-contained migrations; each receives the dialect for the few statements that differ. */
const MIGRATIONS: ReadonlyArray<[name: string, up: DialectMigration]> = [
  ['0001-core', coreMigration],
  ['0002-destinations', destinationsMigration],
  ['0003-search', searchMigration],
  ['0004-api-keys', apiKeysMigration],
  ['0005-admin', adminMigration],
  ['0006-readers', readersMigration],
  ['0007-analytics-rollup', analyticsRollupMigration],
  ['0008-search-series', searchSeriesMigration],
  ['0009-settings', settingsMigration],
  ['0010-login-throttle', loginThrottleMigration],
  ['0014-identifier-index', identifierIndexMigration],
  ['0015-partners', partnersMigration],
  ['0016-search-by-popularity', searchByPopularityMigration],
  ['0017-search-terms-postgres', searchTermsPostgresMigration],
  ['0018-search-popular-postgres', searchPopularPostgresMigration],
  ['0019-public-domain-postgres', publicDomainPostgresMigration],
  ['0020-staging-without-rowid', stagingWithoutRowidMigration],
  ['0021-cheaper-fold-postgres', cheaperFoldPostgresMigration],
  ['0022-books-fts-direct', booksFtsDirectMigration],
  ['0023-fold-keeps-marks', foldKeepsMarksMigration],
  ['0024-fold-marks-postgres', foldMarksPostgresMigration],
  ['0025-list-public-ids', listPublicIdsMigration],
  ['0026-destination-countries', destinationCountriesMigration],
  ['0029-affiliate-tags', affiliateTagsMigration],
  ['0030-book-visits', bookVisitsMigration],
  ['0031-brand-logos', brandLogosMigration],
  ['0032-offers', offersMigration],
  ['0033-storefront-templates', storefrontTemplatesMigration],
  ['0034-apple-audiobooks', appleAudiobooksMigration],
  ['0035-book-clicks', bookClicksMigration],
];

class InCodeProvider implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    const migrations: Record<string, Migration> = {};
    for (const [name, up] of MIGRATIONS) {
      migrations[name] = { up: (db) => up(db, this.dialect) };
    }
    return migrations;
  }
}

export async function migrateToLatest(store: Store): Promise<string[]> {
  const migrator = new Migrator({ db: store.db, provider: new InCodeProvider(store.dialect) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${String(error)}`, {
      cause: error,
    });
  }
  return (results ?? []).map((result) => result.migrationName);
}
