import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HUMAN_UA, startTestApp, type TestApp } from '../support/app.js';
import { type DialectContext, describeEachDialect } from '../support/databases.js';
import { type FakeProviders, startFakeProviders } from '../support/fake-providers.js';
import {
  bodySchema,
  type Endpoint,
  endpoints,
  fillPath,
  type Issue,
  type JsonSchema,
  type Loc,
  OMIT,
  type OpenApiDocument,
  operationKey,
  type SeededRecords,
  sampleValue,
  seedRecords,
  spec7Problems,
  type Violation,
  valueAt,
  violations,
  withValueAt,
} from '../support/openapi-walk.js';

/** Areas the brief leaves out of the public contract (the admin area's forms are tested elsewhere). */
const SKIPPED_PREFIXES = ['/admin', '/docs', '/static'];

interface RequestParts {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * The contract of every operation in `/openapi.json`: a valid request answers a documented 2xx or 3xx,
 * and each declared constraint of each parameter and body property, broken alone, answers SPEC 7's 422
 * with the offending `loc` and the right `type`. The requests come from the document, so a new route
 * is covered as soon as it declares its schemas.
 */
describeEachDialect('OpenAPI contract', (context) => {
  // A nested suite: its `after` closes the app before the database hooks close the store and drop it.
  describe('every operation of /openapi.json', () => contractSuite(context));
});

function contractSuite(context: DialectContext): void {
  let t: TestApp;
  let fake: FakeProviders;
  let seeded: SeededRecords;
  let document: OpenApiDocument;
  let operations: Endpoint[];

  before(async () => {
    // An empty fake for every provider: nothing is fetched from the internet, covers are simply not found.
    fake = await startFakeProviders();
    t = await startTestApp(context.store(), {
      ...fake.env,
      RATE_LIMIT_ANON: '1000000',
      RATE_LIMIT_KEYED: '1000000',
    });
    seeded = await seedRecords(t, context.store());
    const response = await t.get('/openapi.json');
    assert.equal(response.status, 200);
    document = (await response.json()) as OpenApiDocument;
    operations = endpoints(document, SKIPPED_PREFIXES);
  });
  after(async () => {
    await t.close();
    await fake.close();
  });

  /** Values real records give to parameters and body fields, by name. */
  function known(name: string): unknown {
    const values: Record<string, unknown> = {
      isbn: seeded.isbn,
      slug: seeded.bookSlug,
      destination: seeded.destination,
      id: seeded.listId,
      book_id: seeded.bookId,
      sfid: seeded.sfid,
      ref: String(seeded.listId),
      code: seeded.accessCode,
      q: 'hunger games',
      input: seeded.isbn,
      query: 'hunger games',
      list_source: 'contract',
      books: [{ isbn_13: seeded.isbn, rank: 1 }],
      edit_tokens: [seeded.editToken],
      'x-edit-token': seeded.editToken,
    };
    return values[name];
  }

  /** Values one operation needs where the name alone says too little: oEmbed's `url` is a page of ours. */
  function knownFor(endpoint: Endpoint, name: string): unknown {
    if (operationKey(endpoint) === 'GET /oembed' && name === 'url')
      return `${t.services.config.baseUrl}/book/${seeded.bookSlug}`;
    return known(name);
  }

  /** The valid request: path parameters, required query parameters, known headers and a minimal body. */
  function validRequest(endpoint: Endpoint): RequestParts {
    const parts: RequestParts = { path: {}, query: {}, headers: {}, body: undefined };
    for (const parameter of endpoint.operation.parameters ?? []) {
      const value = knownFor(endpoint, parameter.name) ?? sampleValue(parameter.schema);
      if (parameter.in === 'path') parts.path[parameter.name] = value;
      else if (parameter.in === 'query' && parameter.required) parts.query[parameter.name] = value;
      else if (parameter.in === 'header' && known(parameter.name) !== undefined)
        parts.headers[parameter.name] = String(value);
    }
    // Key-only operations document their 401.
    if (endpoint.operation.responses?.['401']) parts.headers['x-api-key'] = seeded.ingestKey;
    const schema = bodySchema(endpoint.operation);
    if (schema) {
      const body: Record<string, unknown> = {};
      for (const name of schema.required ?? [])
        body[name] = known(name) ?? sampleValue(schema.properties?.[name] ?? {});
      parts.body = body;
    }
    return parts;
  }

  async function send(endpoint: Endpoint, parts: RequestParts): Promise<Response> {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(parts.query)) {
      for (const item of Array.isArray(value) ? value : [value]) query.append(name, String(item));
    }
    const search = query.size > 0 ? `?${query}` : '';
    const headers: Record<string, string> = { 'user-agent': HUMAN_UA, ...parts.headers };
    if (parts.body !== undefined) headers['content-type'] = 'application/json';
    return fetch(`${t.baseUrl}${fillPath(endpoint.path, parts.path)}${search}`, {
      method: endpoint.method,
      headers,
      body: parts.body === undefined ? undefined : JSON.stringify(parts.body),
      redirect: 'manual',
    });
  }

  /** State an operation needs before its valid request (a book must be in the list to be removed). */
  async function prepare(endpoint: Endpoint): Promise<void> {
    if (endpoint.method === 'DELETE' && endpoint.path === '/api/v1/lists/{id}/books/{book_id}') {
      const added = await fetch(`${t.baseUrl}/api/v1/lists/${seeded.listId}/books`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': HUMAN_UA,
          'x-edit-token': seeded.editToken,
        },
        body: JSON.stringify({ book_id: seeded.bookId }),
      });
      assert.ok(added.status === 201 || added.status === 409, `adding the book: ${added.status}`);
    }
  }

  /** Every invalid variant of an operation: one constraint broken, everything else valid. */
  function invalidRequests(endpoint: Endpoint): Array<{ violation: Violation; parts: RequestParts }> {
    const base = validRequest(endpoint);
    const variants: Array<{ violation: Violation; parts: RequestParts }> = [];
    for (const parameter of endpoint.operation.parameters ?? []) {
      if (parameter.in === 'cookie') continue;
      const found = violations(parameter.schema, [parameter.in, parameter.name]);
      if (parameter.required && parameter.in !== 'path' && parameter.schema.default === undefined)
        found.push({
          loc: [parameter.in, parameter.name],
          value: OMIT,
          type: 'missing',
          constraint: 'required',
        });
      for (const violation of found) {
        // An empty path segment routes elsewhere: a path parameter cannot be sent empty or missing.
        if (parameter.in === 'path' && (violation.value === OMIT || violation.value === '')) continue;
        // Header values are strings; a list has no header form.
        if (parameter.in === 'header' && typeof violation.value !== 'string') continue;
        const parts = structuredClone(base);
        const target = parameter.in === 'header' ? parts.headers : parts[parameter.in];
        if (violation.value === OMIT) delete target[parameter.name];
        else target[parameter.name] = violation.value;
        variants.push({ violation, parts });
      }
    }
    const schema = bodySchema(endpoint.operation);
    if (schema) {
      const itemAt = (loc: Loc) => valueAt(base.body, [...loc, 0]);
      for (const violation of violations(schema, [], itemAt)) {
        const parts = structuredClone(base);
        parts.body = withValueAt(base.body, violation.loc, violation.value);
        variants.push({ violation: { ...violation, loc: ['body', ...violation.loc] }, parts });
      }
    }
    return variants;
  }

  it('documents every operation with a success response and the SPEC 7 422 body', () => {
    assert.equal(document.openapi, '3.1.0');
    assert.ok(operations.length >= 25, `only ${operations.length} operations`);
    const validationError = document.components?.schemas?.HTTPValidationError as JsonSchema | undefined;
    assert.ok(validationError?.properties?.detail, 'components.schemas.HTTPValidationError');
    for (const endpoint of operations) {
      const responses = endpoint.operation.responses ?? {};
      const success = Object.keys(responses).filter((status) => /^[23]\d\d$/.test(status));
      assert.ok(success.length > 0, `${operationKey(endpoint)} documents no 2xx/3xx response`);
      const invalid = responses['422']?.content?.['application/json']?.schema;
      assert.ok(invalid, `${operationKey(endpoint)} does not document 422`);
      assert.equal(invalid.$ref, '#/components/schemas/HTTPValidationError', operationKey(endpoint));
      if (endpoint.path.startsWith('/api/')) {
        for (const status of success.filter((code) => code !== '204')) {
          assert.ok(
            responses[status]?.content?.['application/json']?.schema,
            `${operationKey(endpoint)} ${status} has no JSON schema`,
          );
        }
      }
    }
  });

  it('answers a valid request to every operation with a documented 2xx or 3xx', async () => {
    for (const endpoint of operations) {
      await prepare(endpoint);
      const response = await send(endpoint, validRequest(endpoint));
      const text = await response.text();
      const label = `${operationKey(endpoint)} → ${response.status} ${text.slice(0, 300)}`;
      assert.ok(response.status >= 200 && response.status < 400, label);
      assert.ok(endpoint.operation.responses?.[String(response.status)], `undocumented status: ${label}`);
      const documented = endpoint.operation.responses?.[String(response.status)]?.content;
      if (documented?.['application/json'])
        assert.match(response.headers.get('content-type') ?? '', /application\/json/, label);
    }
  });

  it('answers each broken constraint with 422, the offending loc and the right type', async (test) => {
    let checked = 0;
    const covered = new Set<string>();
    for (const endpoint of operations) {
      for (const { violation, parts } of invalidRequests(endpoint)) {
        const response = await send(endpoint, parts);
        const label = `${operationKey(endpoint)} ${violation.constraint} at ${JSON.stringify(violation.loc)}`;
        const text = await response.text();
        assert.equal(response.status, 422, `${label}: ${response.status} ${text.slice(0, 300)}`);
        assert.match(response.headers.get('content-type') ?? '', /application\/json/, label);
        const body = JSON.parse(text) as { detail: Issue[] };
        assert.deepEqual(spec7Problems(body), [], label);
        const issue = body.detail.find(
          (entry) => JSON.stringify(entry.loc) === JSON.stringify(violation.loc),
        );
        assert.ok(issue, `${label}: no entry at that loc in ${text.slice(0, 500)}`);
        assert.equal(issue.type, violation.type, `${label}: ${text.slice(0, 500)}`);
        checked += 1;
        covered.add(operationKey(endpoint));
      }
    }
    // Operations whose only inputs cannot be broken (no parameters, no body) have nothing to check.
    const withInputs = operations.filter(
      (endpoint) =>
        (endpoint.operation.parameters ?? []).some(
          (parameter) => parameter.in !== 'path' || Object.keys(parameter.schema).length > 1,
        ) || bodySchema(endpoint.operation),
    );
    for (const endpoint of withInputs)
      assert.ok(covered.has(operationKey(endpoint)), `${operationKey(endpoint)}: no constraint checked`);
    assert.ok(checked > 80, `only ${checked} invalid requests`);
    test.diagnostic(`${checked} invalid requests over ${covered.size} of ${operations.length} operations`);
  });
}
