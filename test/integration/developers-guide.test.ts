import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HUMAN_UA, startTestApp, type TestApp } from '../support/app.js';
import { type DialectContext, describeEachDialect } from '../support/databases.js';
import { type FakeProviders, startFakeProviders } from '../support/fake-providers.js';
import { seedRecords } from '../support/openapi-walk.js';

const GUIDE_BASE = 'http://booklink.test';

interface Example {
  command: string;
  /** The status the prose after the block names (`302 Found`, `422`), else 200. */
  status: number;
  /** The JSON block shown after the command, if any. */
  shape: unknown;
}

/** Splits a shell line into words, honouring single and double quotes. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const match of line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g))
    words.push(match[1] ?? match[2] ?? match[3] ?? '');
  return words;
}

/** Every curl line of the ```sh blocks, with what the guide says comes back. */
function examples(guide: string): Example[] {
  const blocks = [...guide.matchAll(/```(\w+)\n([\s\S]*?)```/g)];
  const found: Example[] = [];
  for (const [index, block] of blocks.entries()) {
    if (block[1] !== 'sh') continue;
    const start = (block.index ?? 0) + block[0].length;
    const nextSh = blocks.slice(index + 1).find((other) => other[1] === 'sh');
    const heading = guide.indexOf('\n## ', start);
    const end = Math.min(nextSh?.index ?? guide.length, heading < 0 ? guide.length : heading);
    const after = guide.slice(start, end);
    const json = /```json\n([\s\S]*?)```/.exec(after);
    const prose = json ? after.slice(0, json.index) : after;
    const status = Number(/`([1-5]\d\d)(?: [A-Za-z ]+)?`/.exec(prose)?.[1] ?? 200);
    for (const line of (block[2] ?? '').split('\n').filter((text) => text.startsWith('curl '))) {
      found.push({ command: line, status, shape: json ? JSON.parse(json[1] ?? 'null') : undefined });
    }
  }
  return found;
}

/** Runs a curl line with fetch: -s, -i, -X, -H and -d, against the running app. */
async function runCurl(command: string, baseUrl: string): Promise<Response> {
  const words = shellWords(command).slice(1);
  let method = 'GET';
  let body: string | undefined;
  let url = '';
  const headers: Record<string, string> = { 'user-agent': HUMAN_UA };
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i] ?? '';
    if (word === '-X') method = words[++i] ?? 'GET';
    else if (word === '-H') {
      const [name = '', ...value] = (words[++i] ?? '').split(':');
      headers[name.trim().toLowerCase()] = value.join(':').trim();
    } else if (word === '-d') {
      body = words[++i];
      if (method === 'GET') method = 'POST';
    } else if (/^-[si]+$/.test(word)) {
      // Silent and include-headers change only what curl prints.
    } else if (word.startsWith('-'))
      throw new Error(`the guide uses a curl flag the test does not know: ${word}`);
    else url = word.replace(GUIDE_BASE, baseUrl);
  }
  return fetch(url, { method, headers, body, redirect: 'manual' });
}

/** Keys and value types of `actual` follow `shape`; arrays by their first element. */
function shapeProblems(shape: unknown, actual: unknown, at = '$'): string[] {
  if (shape === null) return [];
  if (Array.isArray(shape)) {
    if (!Array.isArray(actual)) return [`${at}: expected an array, got ${JSON.stringify(actual)}`];
    return shape.length > 0 && actual.length > 0 ? shapeProblems(shape[0], actual[0], `${at}[0]`) : [];
  }
  if (typeof shape === 'object') {
    if (actual === null || typeof actual !== 'object') return [`${at}: expected an object`];
    return Object.entries(shape).flatMap(([key, value]) =>
      key in actual
        ? shapeProblems(value, (actual as Record<string, unknown>)[key], `${at}.${key}`)
        : [`${at}.${key}: missing`],
    );
  }
  return typeof shape === typeof actual
    ? []
    : [`${at}: expected ${typeof shape}, got ${JSON.stringify(actual)}`];
}

function guideSuite(context: DialectContext): void {
  let t: TestApp;
  let fake: FakeProviders;
  let guide = '';

  before(async () => {
    fake = await startFakeProviders();
    t = await startTestApp(context.store(), {
      ...fake.env,
      RATE_LIMIT_ANON: '100000',
      RATE_LIMIT_KEYED: '100000',
    });
    await seedRecords(t, context.store());
    const response = await t.get('/developers.md');
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /text\/markdown/);
    guide = await response.text();
  });
  after(async () => {
    await t?.close();
    await fake?.close();
  });

  it('answers every curl example as the guide says, with the JSON shape it shows', async () => {
    const found = examples(guide);
    assert.ok(found.length >= 7, `only ${found.length} curl examples`);
    for (const example of found) {
      const response = await runCurl(example.command, t.baseUrl);
      const text = await response.text();
      assert.equal(response.status, example.status, `${example.command}: ${text.slice(0, 300)}`);
      if (example.status >= 300 && example.status < 400)
        assert.match(response.headers.get('location') ?? '', /^\/(book|search|$)/, example.command);
      if (example.shape !== undefined) {
        const problems = shapeProblems(example.shape, JSON.parse(text));
        assert.deepEqual(problems, [], `${example.command}: ${text.slice(0, 500)}`);
      }
    }
  });

  it('runs the JavaScript sample', async () => {
    const sample = /```js\n([\s\S]*?)```/.exec(guide)?.[1];
    assert.ok(sample, 'no JavaScript sample');
    const source = sample.replace(GUIDE_BASE, t.baseUrl);
    // A browser sends its own User-Agent; so does this fetch.
    const browserFetch = (input: string, init: RequestInit = {}) =>
      fetch(input, {
        ...init,
        headers: { 'user-agent': HUMAN_UA, ...(init.headers as Record<string, string>) },
      });
    const run = new Function('fetch', `${source}\nreturn booklinkFor;`) as (
      fetcher: typeof browserFetch,
    ) => (url: string) => Promise<string>;
    const booklinkFor = run(browserFetch);
    const link = await booklinkFor('https://www.amazon.com/dp/0439023483');
    assert.equal(link, `${GUIDE_BASE}/book/the-hunger-games-suzanne-collins`);
    const missing = await booklinkFor('https://www.amazon.com/dp/B000000000');
    assert.match(missing, /\/search\?q=|\/$|\/search$/);
  });
}

describeEachDialect('developers.md examples', (context) => {
  describe('against the running service', () => guideSuite(context));
});
