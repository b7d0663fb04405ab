import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import {
  createHttpClient,
  type HttpClient,
  OutboundError,
  type ProviderLog,
} from '../../src/catalog/http-client.js';
import { GoogleBooksProvider } from '../../src/catalog/providers/googlebooks.js';
import { OpenLibraryProvider } from '../../src/catalog/providers/openlibrary.js';
import { parseIsbn } from '../../src/domain/isbn.js';
import { type FakeProviders, startFakeProviders } from '../support/fake-providers.js';

/**
 * Providers that say "too many requests" are left alone for the time they ask, and every failure
 * leaves one trace in the log per episode. The bodies are shaped as the real services send them.
 */
const ISBN = parseIsbn('9780316030571') ?? assert.fail('valid ISBN');

/** Google Books' answer once a project's daily quota is spent (HTTP 429, no Retry-After header). */
const GOOGLE_QUOTA_BODY = {
  error: {
    code: 429,
    message:
      "Quota exceeded for quota metric 'Queries' and limit 'Queries per day' of service 'books.googleapis.com' for consumer 'project_number:624717413613'.",
    errors: [
      {
        message:
          "Quota exceeded for quota metric 'Queries' and limit 'Queries per day' of service 'books.googleapis.com' for consumer 'project_number:624717413613'.",
        domain: 'global',
        reason: 'rateLimitExceeded',
      },
    ],
    status: 'RESOURCE_EXHAUSTED',
    details: [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'RATE_LIMIT_EXCEEDED',
        domain: 'googleapis.com',
        metadata: {
          quota_metric: 'books.googleapis.com/default',
          quota_limit: 'defaultPerDayPerProject',
          service: 'books.googleapis.com',
          consumer: 'projects/624717413613',
        },
      },
    ],
  },
};

interface Line {
  level: 'warn' | 'info';
  details: Record<string, unknown>;
  message: string;
}

let fake: FakeProviders;
let clients: HttpClient[] = [];
let clock = 1_000_000;
let lines: Line[] = [];
const log: ProviderLog = {
  warn: (details, message) => void lines.push({ level: 'warn', details, message }),
  info: (details, message) => void lines.push({ level: 'info', details, message }),
};

function client(): HttpClient {
  const created = createHttpClient(
    { ...fake.urls, providerTimeoutMs: 1000 },
    { retries: 3, backoffMs: 1, breakerThreshold: 5, breakerCooldownMs: 30_000, log, now: () => clock },
  );
  clients.push(created);
  return created;
}

const google = (http: HttpClient) =>
  new GoogleBooksProvider({ baseUrl: fake.urls.googleBooksUrl, client: http });
const openLibrary = (http: HttpClient) =>
  new OpenLibraryProvider({
    baseUrl: fake.urls.openLibraryUrl,
    coversUrl: fake.urls.openLibraryCoversUrl,
    client: http,
  });

async function failure(call: Promise<unknown>): Promise<OutboundError> {
  const error = await call.then(
    () => assert.fail('expected the call to fail'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof OutboundError, String(error));
  return error;
}

before(async () => {
  fake = await startFakeProviders();
});
afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()));
  clients = [];
  lines = [];
  fake.reset();
});
after(() => fake.close());

describe('quota answers', () => {
  it('opens the circuit for the Retry-After of a 429, without retrying it', async () => {
    const http = client();
    const openlibrary = openLibrary(http);
    fake.setFailure('openlibrary', {
      status: 429,
      headers: { 'retry-after': '120' },
      body: 'Too Many Requests',
    });
    const error = await failure(openlibrary.lookupIsbn(ISBN, AbortSignal.timeout(5000)));
    assert.equal(error.code, 'quota');
    assert.equal(error.retryAfterMs, 120_000);
    assert.equal(fake.requestCount('openlibrary'), 1, 'a quota answer is never retried');
    assert.equal(http.stats().openlibrary?.retries, 0);
    fake.setFailure('openlibrary', null);
    clock += 119_000;
    assert.equal(http.breakerState('openlibrary'), 'open', 'still within the time it asked for');
    assert.equal(
      (await failure(openlibrary.lookupIsbn(ISBN, AbortSignal.timeout(5000)))).code,
      'circuit_open',
    );
    assert.equal(fake.requestCount('openlibrary'), 1, 'nothing is sent while the circuit is open');
    clock += 2_000;
    assert.equal(http.breakerState('openlibrary'), 'half-open');
    assert.equal(await openlibrary.lookupIsbn(ISBN, AbortSignal.timeout(5000)), null);
    assert.equal(http.breakerState('openlibrary'), 'closed');
  });

  it("reads Google's RESOURCE_EXHAUSTED body as a quota answer and waits a minute when it names no time", async () => {
    const http = client();
    fake.setFailure('googlebooks', { status: 429, body: GOOGLE_QUOTA_BODY });
    const error = await failure(google(http).lookupIsbn(ISBN, AbortSignal.timeout(5000)));
    assert.equal(error.code, 'quota');
    assert.equal(error.status, 429);
    assert.equal(error.retryAfterMs, 60_000);
    assert.equal(fake.requestCount('googlebooks'), 1);
    assert.equal(http.stats().googlebooks?.quota, 1);
    clock += 59_000;
    assert.equal(http.breakerState('googlebooks'), 'open');
    clock += 2_000;
    assert.equal(http.breakerState('googlebooks'), 'half-open');
  });

  it("honours the delay of Google's RetryInfo, and reads the older 403 dailyLimitExceeded as a quota answer", async () => {
    const http = client();
    const retryInfo = {
      error: {
        ...GOOGLE_QUOTA_BODY.error,
        details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '38s' }],
      },
    };
    fake.setFailure('googlebooks', { status: 429, body: retryInfo, times: 1 });
    assert.equal(
      (await failure(google(http).lookupIsbn(ISBN, AbortSignal.timeout(5000)))).retryAfterMs,
      38_000,
    );
    const older = client();
    const daily = {
      error: {
        errors: [{ domain: 'usageLimits', reason: 'dailyLimitExceeded', message: 'Daily Limit Exceeded' }],
        code: 403,
        message: 'Daily Limit Exceeded',
      },
    };
    fake.setFailure('googlebooks', { status: 403, body: daily, times: 1 });
    const error = await failure(google(older).lookupIsbn(ISBN, AbortSignal.timeout(5000)));
    assert.equal(error.code, 'quota');
    assert.equal(older.breakerState('googlebooks'), 'open');
  });

  it('still retries a 5xx, and a plain 403 is an answer, not a quota', async () => {
    const http = client();
    fake.setFailure('openlibrary', { status: 503, times: 1 });
    assert.equal(await openLibrary(http).lookupIsbn(ISBN, AbortSignal.timeout(5000)), null);
    assert.equal(http.stats().openlibrary?.retries, 1);
    fake.setFailure('googlebooks', { status: 403, body: { error: { code: 403, message: 'Forbidden' } } });
    const error = await failure(google(http).lookupIsbn(ISBN, AbortSignal.timeout(5000)));
    assert.equal(error.code, 'http_status');
    assert.equal(http.breakerState('googlebooks'), 'closed');
  });
});

describe('provider failures in the log', () => {
  it('logs a failing provider once per episode, with its status, and once when it answers again', async () => {
    const http = client();
    const openlibrary = openLibrary(http);
    fake.setFailure('openlibrary', { status: 500 });
    for (let i = 0; i < 3; i++) await failure(openlibrary.lookupIsbn(ISBN, AbortSignal.timeout(5000)));
    assert.equal(fake.requestCount('openlibrary'), 12, 'three calls, each tried four times');
    assert.deepEqual(
      lines.map((line) => [line.level, line.details.provider, line.details.status]),
      [['warn', 'openlibrary', 500]],
    );
    fake.setFailure('openlibrary', null);
    assert.equal(await openlibrary.lookupIsbn(ISBN, AbortSignal.timeout(5000)), null);
    assert.equal(await openlibrary.lookupIsbn(ISBN, AbortSignal.timeout(5000)), null);
    assert.deepEqual(
      lines.map((line) => [line.level, line.details.provider]),
      [
        ['warn', 'openlibrary'],
        ['info', 'openlibrary'],
      ],
    );
    assert.equal(lines[1]?.details.failures, 3);
    fake.setFailure('googlebooks', { status: 429, body: GOOGLE_QUOTA_BODY });
    await failure(google(http).lookupIsbn(ISBN, AbortSignal.timeout(5000)));
    await failure(google(http).lookupIsbn(ISBN, AbortSignal.timeout(5000)));
    const googleLines = lines.filter((line) => line.details.provider === 'googlebooks');
    assert.equal(googleLines.length, 1, 'the refusals while the circuit is open are the same episode');
    assert.equal(googleLines[0]?.details.status, 429);
    assert.equal(googleLines[0]?.details.outcome, 'quota');
    assert.equal(googleLines[0]?.details.retryAfterSeconds, 60);
  });

  it('counts every call per provider and outcome', async () => {
    const http = client();
    fake.addBook({ isbn13: ISBN.isbn13, title: 'Use of Weapons', authors: ['Iain M. Banks'] });
    assert.ok(await openLibrary(http).lookupIsbn(ISBN, AbortSignal.timeout(5000)));
    fake.setFailure('googlebooks', { status: 429, body: GOOGLE_QUOTA_BODY });
    await failure(google(http).lookupIsbn(ISBN, AbortSignal.timeout(5000)));
    await failure(google(http).lookupIsbn(ISBN, AbortSignal.timeout(5000)));
    const stats = http.stats();
    assert.deepEqual(stats.openlibrary?.outcomes, { ok: 1 });
    assert.deepEqual(stats.googlebooks?.outcomes, { quota: 1, circuit_open: 1 });
  });
});
