import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('configuration', () => {
  it('has working defaults for a single machine', () => {
    const config = loadConfig({});
    assert.equal(config.port, 8080);
    assert.equal(config.baseUrl, 'http://localhost:8080');
    assert.equal(config.databaseUrl, 'sqlite:./data/booklink.db');
    assert.deepEqual(config.providers, ['local', 'openlibrary', 'googlebooks', 'itunes']);
    assert.equal(config.rateLimitAnon, 20);
    assert.equal(config.rateLimitKeyed, 120);
    assert.equal(config.cookieSecret, '', 'no built-in secret: the server makes and keeps its own');
    assert.ok(Object.isFrozen(config));
  });

  it('reads affiliate tags and trims trailing slashes from origins', () => {
    const config = loadConfig({
      AFFILIATE_TAGS: 'amazon=tag-20, bookshop=4242',
      BASE_URL: 'https://books.example/',
    });
    assert.deepEqual({ ...config.affiliateTags }, { amazon: 'tag-20', bookshop: '4242' });
    assert.equal(config.baseUrl, 'https://books.example');
  });

  it('stops with a clear message on bad values', () => {
    const bad: Array<[Record<string, string>, RegExp]> = [
      [{ PORT: 'eighty' }, /PORT must be an integer/],
      [{ BASE_URL: 'ftp://x' }, /BASE_URL must use http or https/],
      [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must be sqlite/],
      [{ PROVIDERS: 'local,amazon' }, /unknown provider "amazon"/],
      [{ TRUST_PROXY: 'maybe' }, /TRUST_PROXY must be true or false/],
      [{ AFFILIATE_TAGS: 'amazon' }, /AFFILIATE_TAGS/],
      [{ COOKIE_SECRET: 'short' }, /COOKIE_SECRET must be at least 32 characters/],
    ];
    for (const [env, message] of bad) {
      assert.throws(
        () => loadConfig(env),
        (error: unknown) => error instanceof ConfigError && message.test(error.message),
      );
    }
  });

  it('takes TRUST_PROXY as false, true (private networks), a hop count or proxy addresses', () => {
    assert.equal(loadConfig({}).trustProxy, false);
    assert.equal(loadConfig({ TRUST_PROXY: 'false' }).trustProxy, false);
    assert.deepEqual(loadConfig({ TRUST_PROXY: 'true' }).trustProxy, [
      'loopback',
      'linklocal',
      'uniquelocal',
    ]);
    assert.equal(loadConfig({ TRUST_PROXY: '2' }).trustProxy, 2);
    assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.1, ::1' }).trustProxy, [
      '10.0.0.0/8',
      '192.0.2.1',
      '::1',
    ]);
    for (const bad of ['10.0.0.0/33', '999.1.1.1', 'proxy.example', '10.0.0.1/8/2', '::1/129', '21']) {
      assert.throws(() => loadConfig({ TRUST_PROXY: bad }), ConfigError, bad);
    }
  });

  it('puts the click journal next to the SQLite file, under ./data on PostgreSQL, nowhere for :memory:', () => {
    assert.equal(loadConfig({}).clickWalDir, './data/click-wal');
    assert.equal(
      loadConfig({ DATABASE_URL: 'sqlite:/var/lib/booklink/b.db' }).clickWalDir,
      '/var/lib/booklink/click-wal',
    );
    assert.equal(loadConfig({ DATABASE_URL: 'sqlite:b.db' }).clickWalDir, './click-wal');
    assert.equal(loadConfig({ DATABASE_URL: 'postgres://db/booklink' }).clickWalDir, './data/click-wal');
    assert.equal(loadConfig({ DATABASE_URL: 'sqlite::memory:' }).clickWalDir, null);
    assert.equal(loadConfig({ CLICK_WAL_DIR: '/wal' }).clickWalDir, '/wal');
    assert.equal(loadConfig({ CLICK_WAL_DIR: 'off' }).clickWalDir, null);
    assert.equal(loadConfig({}).clickWalFsync, 'interval');
    assert.equal(loadConfig({ CLICK_WAL_FSYNC: 'always' }).clickWalFsync, 'always');
    assert.throws(() => loadConfig({ CLICK_WAL_FSYNC: 'sometimes' }), ConfigError);
  });

  it('prepares PostgreSQL statements unless DATABASE_PREPARED_STATEMENTS is off', () => {
    assert.equal(loadConfig({}).databasePreparedStatements, true);
    assert.equal(loadConfig({ DATABASE_PREPARED_STATEMENTS: 'off' }).databasePreparedStatements, false);
    assert.equal(loadConfig({ DATABASE_PREPARED_STATEMENTS: ' on ' }).databasePreparedStatements, true);
    assert.throws(() => loadConfig({ DATABASE_PREPARED_STATEMENTS: 'false' }), ConfigError);
  });

  it('reads provider budgets as requests per window, below the public APIs own limits by default', () => {
    const defaults = loadConfig({});
    assert.deepEqual(defaults.providerBudgets.googlebooks, [
      { max: 30, windowMs: 60_000 },
      { max: 1000, windowMs: 86_400_000 },
    ]);
    assert.deepEqual(defaults.providerBudgets.itunes, [{ max: 20, windowMs: 60_000 }]);
    assert.deepEqual(defaults.providerBudgets['openlibrary-covers'], [{ max: 100, windowMs: 300_000 }]);
    assert.equal(defaults.providerBudgetShare, 0.25);
    const set = loadConfig({
      PROVIDER_BUDGET_OPENLIBRARY: '2/s, 100/hour',
      PROVIDER_BUDGET_ITUNES: 'off',
      PROVIDER_BUDGET_OPENLIBRARY_COVERS: '50 / 10 minutes',
      PROVIDER_BUDGET_ADDRESS_SHARE: '0.1',
    });
    assert.deepEqual(set.providerBudgets.openlibrary, [
      { max: 2, windowMs: 1000 },
      { max: 100, windowMs: 3_600_000 },
    ]);
    assert.deepEqual(set.providerBudgets.itunes, []);
    assert.deepEqual(set.providerBudgets['openlibrary-covers'], [{ max: 50, windowMs: 600_000 }]);
    assert.equal(set.providerBudgetShare, 0.1);
    for (const bad of ['lots', '20', '20/fortnight', '0/min', '20/0min', '5/30d']) {
      assert.throws(
        () => loadConfig({ PROVIDER_BUDGET_GOOGLEBOOKS: bad }),
        /PROVIDER_BUDGET_GOOGLEBOOKS must be/,
      );
    }
    for (const bad of ['0', '1.5', 'half']) {
      assert.throws(
        () => loadConfig({ PROVIDER_BUDGET_ADDRESS_SHARE: bad }),
        /PROVIDER_BUDGET_ADDRESS_SHARE/,
      );
    }
  });
});
