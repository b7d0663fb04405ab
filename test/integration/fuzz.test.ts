import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { parseIsbn } from '../../src/domain/isbn.js';
import { isAutomatedClient } from '../../src/http/plugins/guards.js';
import { BOT_UA, HUMAN_UA, startTestApp, type TestApp } from '../support/app.js';
import { type DialectContext, describeEachDialect } from '../support/databases.js';
import { type FakeProviders, startFakeProviders } from '../support/fake-providers.js';
import {
  bodySchema,
  type Endpoint,
  effective,
  endpoints,
  fillPath,
  type JsonSchema,
  type Loc,
  type OpenApiDocument,
  operationKey,
  type SeededRecords,
  sampleValue,
  seedRecords,
  spec7Problems,
  tableCounts,
  withValueAt,
} from '../support/openapi-walk.js';

/**
 * Random and hostile requests to every route of /openapi.json and to the HTML routes: oversize strings,
 * wrong types, injection strings, broken UTF-8, odd encodings, malformed JSON, wrong content types,
 * oversize bodies, hostile headers, from bots and from people. No answer may be a 5xx or take longer
 * than REQUEST_TIMEOUT_MS, HTML must never echo a script, and the stored data may change only by what
 * the requests the service accepted are documented to do. Set FUZZ_SEED to replay a run.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const REQUEST_TIMEOUT_MS = 5000;
const CONCURRENCY = 8;
const SKIPPED_PREFIXES = ['/admin', '/docs', '/static'];
const XSS_MARKER = '<script>alert("bl-xss")</script>';

/** mulberry32: small, fast and reproducible. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HOSTILE_STRINGS = [
  "' OR '1'='1",
  "'; DROP TABLE books; --",
  '" OR 1=1 --',
  '1; SELECT pg_sleep(10)--',
  "' UNION SELECT key_hash FROM api_keys --",
  "%' AND 1=0 UNION SELECT sqlite_version() --",
  'hunger" games*',
  'NEAR(hunger games) OR title:x^2',
  XSS_MARKER,
  '"><img src=x onerror=alert(1)>',
  "javascript:alert('bl')",
  '{{7*7}}$' + '{7*7}<%= 7*7 %>',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '/%2e%2e/%2e%2e/etc/passwd',
  'a\r\nSet-Cookie: evil=1',
  'nul\u0000byte',
  '\u202eevil\u200b',
  '🙂📚'.repeat(40),
  'ＡＢＣ e\u0301 ß İ',
  '\ud800 lone surrogate',
  '',
  ' ',
  'null',
  'NaN',
  'Infinity',
  '-Infinity',
  '+Infinity',
  '1e999',
  '\u0000',
  '[]',
  '{}',
  '-1',
  '1e309',
  '9'.repeat(400),
  'https://www.amazon.com/dp/0439023483?tag=evil',
  'http://169.254.169.254/latest/meta-data/',
  'file:///etc/passwd',
  'https://evil.example/dp/0439023483',
  '978-0-439-02348-1',
  '9780439023482',
  '0-00-000000-0',
  'the hunger games',
  'saved_add',
  'positive',
  'list',
];

/** Valid-looking ISBNs no source knows: the only ISBNs a negative-cache row may name. */
const UNKNOWN_ISBNS = ['9780000000002', '9781234567897', '9790000000001', '0306406152', '9780306406157'];

const BROKEN_ENCODINGS = [
  '%C3%28',
  '%FF',
  '%',
  '%G1',
  '%E0%80%AF',
  '%ED%A0%80',
  '%C0%AF',
  '%00',
  '%0D%0A',
  '%252e%252e%252f',
  '%u0041',
  '%F4%90%80%80',
];

const HUMAN_AGENTS = [
  HUMAN_UA,
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0',
];
const BOT_AGENTS = [
  BOT_UA,
  'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  'GPTBot/1.1 (+https://openai.com/gptbot)',
  'my-little-scraper/0.1',
  'curl/8.5.0',
  'python-requests/2.31',
];

interface FuzzRequest {
  /** `METHOD /openapi/path` of the operation, or `raw` for hand-made targets. */
  op: string;
  method: string;
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** The JSON body as sent, for the accounting of accepted requests. */
  json?: unknown;
}

interface FuzzResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  ms: number;
}

/** One request on its own connection, bytes as given (no client-side URL normalisation). */
function sendRaw(port: number, request: FuzzRequest): Promise<FuzzResponse> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`));
    }, REQUEST_TIMEOUT_MS);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const raw = Buffer.concat(chunks).toString('latin1');
      const split = raw.indexOf('\r\n\r\n');
      const head = split >= 0 ? raw.slice(0, split) : raw;
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const body = split >= 0 ? Buffer.from(raw.slice(split + 4), 'latin1').toString('utf8') : '';
      resolve({
        status: Number(statusLine.split(' ')[1] ?? 0),
        headers,
        body,
        ms: performance.now() - started,
      });
    });
    const lines = [`${request.method} ${request.target} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close'];
    for (const [name, value] of Object.entries(request.headers)) lines.push(`${name}: ${value}`);
    if (request.body) lines.push(`Content-Length: ${request.body.length}`);
    socket.write(Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'));
    if (request.body) socket.write(request.body);
  });
}

/** Builds random hostile requests from the document and the seeded records. */
class Generator {
  readonly random: () => number;
  constructor(
    seed: number,
    private readonly operations: Endpoint[],
    private readonly seeded: SeededRecords,
  ) {
    this.random = prng(seed);
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.random() * items.length)];
    if (item === undefined) throw new Error('empty choice');
    return item;
  }

  chance(p: number): boolean {
    return this.random() < p;
  }

  hostileString(): string {
    const roll = this.random();
    if (roll < 0.55) return this.pick(HOSTILE_STRINGS);
    if (roll < 0.7) return 'x'.repeat(this.pick([51, 81, 101, 201, 301, 501, 2001, 3000]));
    if (roll < 0.8) return this.pick(UNKNOWN_ISBNS);
    if (roll < 0.9)
      return this.pick([
        this.seeded.bookSlug,
        this.seeded.destination,
        this.seeded.isbn,
        String(this.seeded.listId),
      ]);
    return Array.from({ length: 1 + Math.floor(this.random() * 40) }, () =>
      String.fromCharCode(Math.floor(this.random() * 0xffff)),
    ).join('');
  }

  hostileValue(): unknown {
    const roll = this.random();
    if (roll < 0.45) return this.hostileString();
    if (roll < 0.7)
      return this.pick([
        0,
        -1,
        1,
        2,
        20,
        21,
        500,
        -2147483649,
        2 ** 53 + 1,
        1e308,
        -1e308,
        1.5,
        this.seeded.sfid,
      ]);
    if (roll < 0.8) return this.pick([null, true, false]);
    if (roll < 0.9) return [this.hostileString(), this.pick([1, 'a'])];
    return this.pick<unknown>([{ $gt: '' }, { a: [1, { b: null }] }, { toString: 'x' }]);
  }

  /** A query or path value, encoded one of several ways, sometimes with broken percent sequences. */
  encoded(value: unknown): string {
    const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
    const roll = this.random();
    if (roll < 0.6) return encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '?'));
    if (roll < 0.75)
      return (
        encodeURIComponent(text.slice(0, 20).replace(/[\ud800-\udfff]/g, '?')) + this.pick(BROKEN_ENCODINGS)
      );
    if (roll < 0.85) return this.pick(BROKEN_ENCODINGS) + this.pick(BROKEN_ENCODINGS);
    if (roll < 0.95)
      return encodeURIComponent(encodeURIComponent(text.slice(0, 60).replace(/[\ud800-\udfff]/g, '?')));
    // Printable ASCII sent as is, percent-encoding only what would break the request line.
    return text.replace(/[^\x21-\x7e]/g, (char) => encodeURIComponent(char.replace(/[\ud800-\udfff]/g, '?')));
  }

  agent(): Record<string, string> {
    const roll = this.random();
    if (roll < 0.55) return { 'User-Agent': this.pick(HUMAN_AGENTS) };
    if (roll < 0.85) return { 'User-Agent': this.pick(BOT_AGENTS) };
    if (roll < 0.92) return {};
    return { 'User-Agent': this.encoded(this.hostileString()).slice(0, 4000) };
  }

  /** Hostile extra headers: keys, cookies, referers, proxies, languages. */
  extraHeaders(): Record<string, string> {
    const headers: Record<string, string> = {};
    if (this.chance(0.15))
      headers['X-API-Key'] = this.pick([`bl_${'A'.repeat(32)}`, 'bl_x', "' OR 1=1 --", 'x'.repeat(5000), '']);
    if (this.chance(0.1))
      headers.Cookie = this.pick([
        'bl_access=garbage',
        `bl_access=${'A'.repeat(3000)}.${'B'.repeat(50)}`,
        'bl_access=1.2.3; bl_access=%FF%FE',
        'a=b; =; ;;; c',
        `bl_fav=${encodeURIComponent(XSS_MARKER)}`,
      ]);
    if (this.chance(0.05))
      headers.Referer = this.pick(['http://booklink.test', 'javascript:alert(1)', '%%%']);
    if (this.chance(0.08))
      headers['X-Forwarded-For'] = this.pick(['1.2.3.4, , garbage', '::1', '999.999.999.999']);
    if (this.chance(0.08))
      headers['Accept-Language'] = this.pick(['xx-YY;q=abc', 'de-DE,de;q=0.9', '*;q=-1', 'a'.repeat(500)]);
    if (this.chance(0.05)) headers['CF-IPCountry'] = this.pick(['ZZ', '<b>', 'usa']);
    return headers;
  }

  /** A request to a documented operation with one to three inputs made hostile. */
  schemaRequest(): FuzzRequest {
    const endpoint = this.pick(this.operations);
    const path = endpoint.path.replace(/\{([^}]+)\}/g, (_match, name: string) =>
      this.chance(0.5)
        ? this.encoded(this.realValue(name) ?? this.hostileValue())
        : this.encoded(this.hostileValue()),
    );
    const query: string[] = [];
    for (const parameter of endpoint.operation.parameters ?? []) {
      if (parameter.in !== 'query') continue;
      if (this.chance(0.4)) continue;
      const value = this.chance(0.4)
        ? (this.realValue(parameter.name) ?? this.hostileValue())
        : this.hostileValue();
      const values = Array.isArray(value) ? value : [value];
      for (const item of values) query.push(`${parameter.name}=${this.encoded(item)}`);
    }
    if (this.chance(0.1))
      query.push(`${this.encoded(this.hostileString())}=${this.encoded(this.hostileValue())}`);
    const headers: Record<string, string> = { ...this.agent(), ...this.extraHeaders() };
    if (endpoint.operation.responses?.['401'] && this.chance(0.7))
      headers['X-API-Key'] = this.seeded.ingestKey;
    if (this.chance(0.3)) headers['X-Edit-Token'] = this.encoded(this.hostileString()).slice(0, 100);
    const request: FuzzRequest = {
      op: operationKey(endpoint),
      method: endpoint.method,
      target: `${path}${query.length > 0 ? `?${query.join('&')}` : ''}`,
      headers,
    };
    const schema = bodySchema(endpoint.operation);
    if (schema) this.attachBody(request, schema.properties ?? {}, schema.required ?? []);
    return request;
  }

  private realValue(name: string): unknown {
    const values: Record<string, unknown> = {
      isbn: this.seeded.isbn,
      slug: this.seeded.bookSlug,
      destination: this.seeded.destination,
      id: this.seeded.listId,
      book_id: this.seeded.bookId,
      sfid: this.seeded.sfid,
      ref: this.seeded.listId,
      code: this.seeded.accessCode,
      q: 'hunger games',
      url: 'https://www.amazon.com/dp/0439023483',
      books: this.seeded.bookSlug,
    };
    return values[name];
  }

  private attachBody(request: FuzzRequest, properties: Record<string, unknown>, required: string[]): void {
    const roll = this.random();
    const type = this.chance(0.85)
      ? 'application/json'
      : this.pick([
          'text/plain',
          'application/xml',
          'multipart/form-data',
          'application/x-www-form-urlencoded',
          'application/json; charset=latin-1',
          'application/json; charset=utf-8; boundary=--x',
          '',
        ]);
    if (type) request.headers['Content-Type'] = type;
    if (roll < 0.15) {
      request.body = Buffer.from(
        this.pick([
          '{',
          '{"a":',
          '[',
          'nul',
          '{"query": "x",}',
          "{'a': 1}",
          '\u0000',
          '{"a":1}{"b":2}',
          '',
          '"str"',
          '42',
        ]),
        'utf8',
      );
      return;
    }
    if (roll < 0.2) {
      // Oversize (above the 1 MiB body limit) or deeply nested.
      request.body = this.chance(0.5)
        ? Buffer.alloc(1024 * 1024 + 10, 'a')
        : Buffer.from(`${'['.repeat(5000)}${']'.repeat(5000)}`);
      return;
    }
    if (roll < 0.25) {
      request.body = Buffer.from([0x7b, 0x22, 0x71, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0xff, 0x22, 0x7d]);
      return;
    }
    const body: Record<string, unknown> = {};
    for (const name of Object.keys(properties)) {
      if (this.chance(required.includes(name) ? 0.8 : 0.4)) body[name] = this.hostileValue();
    }
    if (this.chance(0.1))
      Object.assign(
        body,
        JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}'),
      );
    request.json = body;
    request.body = Buffer.from(JSON.stringify(body), 'utf8');
  }

  /** Hand-made targets under the HTML routes: traversal, broken UTF-8, oversize segments. */
  rawRequest(): FuzzRequest {
    const prefix = this.pick([
      '/isbn/',
      '/book/',
      '/b/',
      '/go/',
      '/list/',
      '/access/',
      '/saved?books=',
      '/saved?view=',
      '/search?q=',
      '/search?pick=',
      '/resolve?url=',
      '/api/v1/',
      '/static/',
      '/',
    ]);
    const segment = this.pick([
      () => this.encoded(this.hostileString()),
      () => this.pick(BROKEN_ENCODINGS).repeat(1 + Math.floor(this.random() * 4)),
      () => `${'../'.repeat(1 + Math.floor(this.random() * 6))}etc/passwd`,
      () => `${'%2e%2e%2f'.repeat(4)}etc%2fpasswd`,
      () => `${this.seeded.bookSlug}/${this.encoded(this.hostileString())}`,
      () => 'a'.repeat(this.pick([81, 2101, 5000, 9000])),
      () =>
        `${this.encoded(this.hostileString())}?${this.pick(BROKEN_ENCODINGS)}=${this.pick(BROKEN_ENCODINGS)}`,
      () => '//evil.example/%2f..',
      () => `${this.seeded.isbn}%00.html`,
    ])();
    // HEAD is left to the other prefixes: a HEAD /search logs a search the ledger could not see.
    const methods = prefix.startsWith('/search')
      ? ['POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE']
      : ['HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE'];
    const method = this.chance(0.85) ? 'GET' : this.pick(methods);
    return {
      op: 'raw',
      method,
      target: `${prefix}${segment}`,
      headers: { ...this.agent(), ...this.extraHeaders() },
    };
  }

  next(): FuzzRequest {
    return this.chance(0.75) ? this.schemaRequest() : this.rawRequest();
  }
}

/** What accepted requests are documented to store, counted from their answers. */
class Ledger {
  readonly expected: Record<string, number> = {};
  readonly newSfids = new Set<number>();
  add(table: string, n = 1): void {
    this.expected[table] = (this.expected[table] ?? 0) + n;
  }

  record(request: FuzzRequest, response: FuzzResponse, maxSfidBefore: number): void {
    const ok = response.status >= 200 && response.status < 300;
    const path = request.target.split('?')[0] ?? '';
    switch (request.op) {
      case 'POST /api/v1/lists':
        if (response.status === 201) {
          // The new list answers with its books: a book_id that coerced to a real book (1, "1", true) added one.
          this.add('lists');
          const created = parseJson(response.body) as { books?: unknown[] } | null;
          this.add('list_items', created?.books?.length ?? 0);
        }
        break;
      case 'POST /api/v1/search/feedback':
        if (ok) this.add('search_feedback');
        break;
      case 'POST /api/v1/search/miss':
      case 'POST /search/miss':
        if (ok) this.add('search_misses');
        break;
      case 'POST /api/v1/search/{sfid}/vote':
        if (ok) this.add('search_votes');
        break;
      case 'POST /api/v1/events/saved':
        if (ok) this.add('saved_events');
        break;
      case 'GET /api/v1/search':
        if (response.status === 200 && request.method === 'GET') this.add('searches');
        break;
    }
    if (
      path.startsWith('/go/') &&
      response.status === 302 &&
      !isAutomatedClient(request.headers['User-Agent'])
    )
      this.add('clicks');
    // Search pages and picks log a search; its id shows in the redirect or the page.
    if (path === '/search' || request.op === 'GET /search') {
      for (const text of [response.headers.location ?? '', response.body]) {
        for (const match of text.matchAll(/(?:sfid=|data-sfid=")(\d+)/g)) {
          const id = Number(match[1]);
          if (id > maxSfidBefore) this.newSfids.add(id);
        }
      }
    }
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Tables whose rows only operators create; hostile requests must never add or remove one. */
const LOG_TABLES = new Set([
  'lists',
  'list_items',
  'search_feedback',
  'search_misses',
  'search_votes',
  'saved_events',
  'searches',
  'clicks',
  'click_daily',
  'api_usage',
  'provider_misses',
]);

/** The log tables whose repeated writes are merged, and their kind in `services.writes`. */
const MERGED_KINDS = [
  ['search_misses', 'miss'],
  ['search_feedback', 'feedback'],
  ['search_votes', 'vote'],
  ['saved_events', 'saved_event'],
] as const;

/** Values an integer must refuse: not finite, not a number, or beyond 32 bits (URL text). */
const NON_FINITE_IN_URL = ['Infinity', '-Infinity', '%2BInfinity', 'NaN', '1e309', '-1e309', '99999999999'];
/** The same in a JSON body, where only an overflowing literal can be non-finite. */
const NON_FINITE_IN_JSON = ['1e309', '-1e309', '99999999999'];
const schemaType = (schema: JsonSchema) => {
  const own = effective(schema);
  return Array.isArray(own.type) ? own.type.find((type) => type !== 'null') : own.type;
};

/** Every integer and string leaf of a body schema, with its location (arrays at their first item). */
function leaves(schema: JsonSchema, loc: Loc): Array<{ loc: Loc; type: string }> {
  const own = effective(schema);
  const type = schemaType(own);
  if (type === 'object')
    return Object.entries(own.properties ?? {}).flatMap(([name, child]) => leaves(child, [...loc, name]));
  if (type === 'array') return own.items ? leaves(own.items, [...loc, 0]) : [];
  if (type === 'integer' || (type === 'string' && !own.enum && own.const === undefined && !own.pattern))
    return [{ loc, type }];
  return [];
}

interface SweepCase {
  label: string;
  loc: Loc;
  method: string;
  target: string;
  body?: string;
}

/** Each non-finite value in each integer, and a NUL in each free string, of every operation. */
function hostileNumberCases(endpoint: Endpoint): SweepCase[] {
  const parameters = (endpoint.operation.parameters ?? []).filter(
    (parameter) => parameter.in === 'query' || parameter.in === 'path',
  );
  const pathValues = Object.fromEntries(
    parameters.filter((p) => p.in === 'path').map((p) => [p.name, sampleValue(p.schema)]),
  );
  const schema = bodySchema(endpoint.operation);
  const baseBody = schema ? sampleValue(schema) : undefined;
  const bodyText = baseBody === undefined ? undefined : JSON.stringify(baseBody);
  const cases: SweepCase[] = [];
  const urlWith = (name: string, where: 'query' | 'path', raw: string) => {
    const path = fillPath(endpoint.path, where === 'path' ? { ...pathValues, [name]: '\u0001' } : pathValues);
    const target = where === 'path' ? path.replace('%01', raw) : `${path}?${name}=${raw}`;
    return target;
  };
  for (const parameter of parameters) {
    const type = schemaType(parameter.schema);
    const where = parameter.in as 'query' | 'path';
    const values = type === 'integer' ? NON_FINITE_IN_URL : type === 'string' ? ['a%00b'] : [];
    for (const raw of values) {
      cases.push({
        label: `${operationKey(endpoint)} ${where}.${parameter.name}=${raw}`,
        loc: [where, parameter.name],
        method: endpoint.method,
        target: urlWith(parameter.name, where, raw),
        body: bodyText,
      });
    }
  }
  if (schema && baseBody !== undefined) {
    const target = fillPath(endpoint.path, pathValues);
    for (const leaf of leaves(schema, [])) {
      const marked = JSON.stringify(withValueAt(baseBody, leaf.loc, '__HOSTILE__'));
      const values = leaf.type === 'integer' ? NON_FINITE_IN_JSON : ['"a\\u0000b"'];
      for (const raw of values) {
        cases.push({
          label: `${operationKey(endpoint)} body.${leaf.loc.join('.')}=${raw}`,
          loc: ['body', ...leaf.loc],
          method: endpoint.method,
          target,
          body: marked.replace('"__HOSTILE__"', raw),
        });
      }
    }
  }
  return cases;
}

function fuzzSuite(context: DialectContext, total: number, seed: number): void {
  let t: TestApp;
  let fake: FakeProviders;
  let seeded: SeededRecords;
  let operations: Endpoint[];
  let declaresNotImplemented = new Set<string>();
  let closed = false;
  const close = async () => {
    if (!closed) await t?.close();
    closed = true;
  };

  before(async () => {
    fake = await startFakeProviders();
    t = await startTestApp(context.store(), {
      ...fake.env,
      RATE_LIMIT_ANON: '1000000',
      RATE_LIMIT_KEYED: '1000000',
    });
    seeded = await seedRecords(t, context.store());
    const document = (await (await t.get('/openapi.json')).json()) as OpenApiDocument;
    operations = endpoints(document, SKIPPED_PREFIXES);
    declaresNotImplemented = new Set(
      operations.filter((endpoint) => endpoint.operation.responses?.['501']).map(operationKey),
    );
  });
  after(async () => {
    await close();
    await fake?.close();
  });

  it('refuses non-finite integers and NUL characters in every parameter and body field with a 422', async () => {
    const port = Number(new URL(t.baseUrl).port);
    const failures: string[] = [];
    let checked = 0;
    for (const endpoint of operations) {
      for (const sweep of hostileNumberCases(endpoint)) {
        const response = await sendRaw(port, {
          op: operationKey(endpoint),
          method: sweep.method,
          target: sweep.target,
          headers: {
            'User-Agent': HUMAN_UA,
            'X-API-Key': seeded.ingestKey,
            'X-Edit-Token': seeded.editToken,
            ...(sweep.body === undefined ? {} : { 'Content-Type': 'application/json' }),
          },
          body: sweep.body === undefined ? undefined : Buffer.from(sweep.body),
        });
        checked += 1;
        const body = parseJson(response.body) as { detail?: Array<{ loc: unknown }> } | null;
        const at = body?.detail?.some?.((issue) => JSON.stringify(issue.loc) === JSON.stringify(sweep.loc));
        if (response.status !== 422 || spec7Problems(body).length > 0 || !at)
          failures.push(`${sweep.label}: ${response.status} ${response.body.slice(0, 200)}`);
      }
    }
    assert.ok(checked > 50, `only ${checked} cases`);
    assert.deepEqual(failures, []);
  });

  it(`answers ${total} random and hostile requests without a 5xx, a hang or an unaccounted write`, async (test) => {
    test.diagnostic(`FUZZ_SEED=${seed}`);
    const store = context.store();
    // Let the seeding's buffered writes (usage counters, clicks) land before the snapshot.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    // /readyz's write check keeps one row of `settings`, rewritten at each check: made before the snapshot.
    assert.equal((await fetch(`${t.baseUrl}/readyz`)).status, 200);
    const before = await tableCounts(store);
    const maxSfid = Number(
      (await sql<{ id: number | null }>`select max(id) as id from searches`.execute(store.db)).rows[0]?.id ??
        0,
    );
    const generator = new Generator(seed, operations, seeded);
    const requests = Array.from({ length: total }, () => generator.next());
    const ledger = new Ledger();
    const port = Number(new URL(t.baseUrl).port);
    const failures: string[] = [];
    const statuses: Record<string, number> = {};
    let slowest = 0;
    let next = 0;
    const worker = async () => {
      while (next < requests.length && failures.length < 20) {
        const index = next++;
        const request = requests[index] as FuzzRequest;
        const label = `#${index} ${request.method} ${request.target.slice(0, 200)} ${JSON.stringify(request.headers).slice(0, 200)}`;
        let response: FuzzResponse;
        try {
          response = await sendRaw(port, request);
        } catch (error) {
          failures.push(`${label}: ${error instanceof Error ? error.message : String(error)}`);
          continue;
        }
        slowest = Math.max(slowest, response.ms);
        const bucket = `${Math.floor(response.status / 100)}xx`;
        statuses[bucket] = (statuses[bucket] ?? 0) + 1;
        // A 501 an operation declares (oEmbed's format=xml, which the spec lets a provider refuse) is an answer.
        const declared = response.status === 501 && declaresNotImplemented.has(request.op);
        if (response.status < 100 || (response.status >= 500 && !declared))
          failures.push(`${label}: ${response.status} ${response.body.slice(0, 300)}`);
        if (
          (response.headers['content-type'] ?? '').startsWith('text/html') &&
          response.body.includes(XSS_MARKER)
        )
          failures.push(`${label}: the page echoes a script unescaped`);
        if (
          request.method !== 'HEAD' &&
          response.status === 422 &&
          spec7Problems(parseJson(response.body)).length > 0
        )
          failures.push(`${label}: 422 without SPEC 7's body: ${response.body.slice(0, 300)}`);
        ledger.record(request, response, maxSfid);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    test.diagnostic(`answers: ${JSON.stringify(statuses)}; slowest ${Math.round(slowest)} ms`);
    assert.deepEqual(failures, []);

    // Closing the app flushes the buffered clicks and usage counters.
    await close();
    const afterCounts = await tableCounts(store);
    ledger.expected.searches = (ledger.expected.searches ?? 0) + ledger.newSfids.size;
    // A repeat of a write from the same address in the window is answered as done and stored once.
    const merged = t.services.writes.stats().duplicates;
    for (const [table, kind] of MERGED_KINDS)
      ledger.expected[table] = (ledger.expected[table] ?? 0) - merged[kind];
    // Past its address's cap a click still redirects (302) but is not stored.
    ledger.expected.clicks = (ledger.expected.clicks ?? 0) - t.services.writes.stats().refused.click;
    for (const [table, count] of Object.entries(afterCounts)) {
      const grown = count - (before[table] ?? 0);
      // Aggregates (a row per day and key, or per book, not per request) and caches are not counted per request.
      const aggregates = [
        'api_usage',
        'provider_misses',
        'click_daily',
        'book_clicks',
        'page_visits',
        'book_visits',
      ];
      if (aggregates.includes(table)) continue;
      const expected = LOG_TABLES.has(table) ? (ledger.expected[table] ?? 0) : 0;
      assert.equal(
        grown,
        expected,
        `${table}: ${grown} rows added, the accepted requests account for ${expected}`,
      );
    }
    // Each book's click total is its clicks, however the batches fell.
    const totals = await sql<{ book_id: number; clicks: number | string; counted: number | string }>`
      select b.book_id, b.clicks, (select count(*) from clicks c where c.book_id = b.book_id) as counted
      from book_clicks b`.execute(store.db);
    for (const row of totals.rows)
      assert.equal(Number(row.clicks), Number(row.counted), `book_clicks of book ${row.book_id}`);
    // Negative-cache rows name only well-formed ISBNs that were asked for; usage rows only API routes.
    const misses = await sql<{ isbn13: string }>`select isbn13 from provider_misses`.execute(store.db);
    const asked = new Set(UNKNOWN_ISBNS.map((isbn) => parseIsbn(isbn)?.isbn13));
    for (const row of misses.rows) assert.ok(asked.has(row.isbn13), `negative cache of ${row.isbn13}`);
    const usage = await sql<{ route: string }>`select distinct route from api_usage`.execute(store.db);
    for (const row of usage.rows)
      assert.ok(row.route.startsWith('/api/') || row.route === 'unmatched', `usage row for ${row.route}`);
  });
}

describeEachDialect('fuzz', (context) => {
  const total = context.dialect === 'sqlite' ? 10_000 : 1_500;
  describe('random and hostile inputs', () =>
    fuzzSuite(context, total, SEED + (context.dialect === 'sqlite' ? 0 : 1)));
});
