import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { attributionCsv } from '../../src/services/admin/attribution.js';
import { rollAll } from '../../src/store/analytics-rollup.js';
import { createApiKey } from '../../src/store/api-keys.js';
import { BOT_UA, startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry } from '../support/factories.js';
import { AdminClient, addUser } from './admin-support.js';

interface LinksBody {
  slug: string;
  country: string | null;
  partner: string | null;
  groups: Array<{
    group: string;
    links: Array<{ destination: string; name: string; group: string; go_url: string; featured: boolean }>;
  }>;
}

const SLACK_UA = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';

describeEachDialect('partners, the links API and placement tracking', (context) => {
  let t: TestApp;
  let client: AdminClient;
  let slug = '';

  async function clicks() {
    // Twice: a flush that finds the timer's write already running may resolve before it (see the report).
    await t.services.clicks.flush();
    await t.services.clicks.flush();
    return t.store.db
      .selectFrom('clicks')
      .select(['destination_id', 'partner_id', 'src', 'country'])
      .orderBy('id')
      .execute();
  }

  async function go(path: string, headers: Record<string, string> = {}): Promise<URL> {
    const response = await t.get(path, headers);
    assert.equal(response.status, 302, `${path} answers a redirect`);
    return new URL(response.headers.get('location') ?? '');
  }

  before(async () => {
    t = await startTestApp(
      context.store(),
      { AFFILIATE_TAGS: 'amazon=operator-20,amazon.GB=operatoruk-21,bookshop=4242' },
      { clickFlushIntervalMs: 20 },
    );
    await addCatalogEntry(context.store(), {
      isbn13: '9780141439518',
      isbn10: '0141439513',
      title: 'Pride and Prejudice',
      authors: ['Jane Austen'],
      publishedDate: '2002-12-31',
      format: 'paperback',
    });
    const created = await t.get('/isbn/9780141439518');
    slug = (created.headers.get('location') ?? '').replace('/book/', '');
    await addUser(context.store(), 'admin@example.test', 'admin');
    client = new AdminClient(t);
    await client.login('admin@example.test');
  });
  after(() => t.close());

  describe('admin area', () => {
    it('registers partners and their tags with CSRF and an audit trail', async () => {
      assert.equal((await client.get('/admin/partners')).status, 200);
      const refused = await client.post('/admin/partners', { id: 'acme', name: 'Acme' }, false);
      assert.equal(refused.status, 403, 'a form without the CSRF token is refused');

      const created = await client.post('/admin/partners', {
        id: 'acme',
        name: 'Acme <Books>',
        contact: 'tags@acme.example',
        is_active: 'true',
      });
      assert.equal(created.status, 303);
      assert.equal(created.location, '/admin/partners/acme?notice=created');
      const duplicate = await client.post('/admin/partners', {
        id: 'acme',
        name: 'Again',
        is_active: 'true',
      });
      assert.equal(duplicate.status, 422);
      assert.match(duplicate.body, /A partner with this id exists/);

      await client.get('/admin/partners/acme');
      for (const tag of [
        { destination_slug: 'amazon', country: '', tag: 'acme-20' },
        { destination_slug: 'amazon', country: 'gb', tag: 'acmeuk-21' },
        { destination_slug: 'bookshop', country: '', tag: '777' },
      ]) {
        const set = await client.post('/admin/partners/acme/tags', tag);
        assert.equal(set.status, 303, JSON.stringify(tag));
      }
      const badTag = await client.post('/admin/partners/acme/tags', {
        destination_slug: 'amazon',
        country: '',
        tag: 'x"><script>',
      });
      assert.equal(badTag.status, 422, 'tags with characters outside the safe set are refused');
      const page = await client.get('/admin/partners/acme');
      assert.match(page.body, /Acme &lt;Books&gt;/, 'names are escaped');
      assert.match(page.body, /acmeuk-21/);

      await client.post('/admin/partners', { id: 'sleepy', name: 'Sleepy', is_active: 'false' });
      await client.get('/admin/partners/sleepy');
      await client.post('/admin/partners/sleepy/tags', {
        destination_slug: 'amazon',
        country: '',
        tag: 'sleepy-20',
      });

      const audit = await t.store.db
        .selectFrom('audit_log')
        .select(['action', 'entity_id'])
        .where('entity_type', '=', 'partner')
        .execute();
      const actions = audit.map((row) => `${row.action}:${row.entity_id}`);
      assert.ok(actions.includes('partner.create:acme'));
      assert.equal(actions.filter((a) => a === 'partner.tag.set:acme').length, 3);
    });
  });

  describe('/go/ with partner=', () => {
    it("uses the partner's tag for its destination and storefront, the operator's elsewhere", async () => {
      const us = await go(`/go/${slug}/amazon?partner=acme&src=newsletter`);
      assert.equal(us.hostname, 'www.amazon.com');
      assert.equal(us.searchParams.get('tag'), 'acme-20');

      const uk = await go(`/go/${slug}/amazon?partner=acme&country=GB`);
      assert.equal(uk.hostname, 'www.amazon.co.uk');
      assert.equal(uk.searchParams.get('tag'), 'acmeuk-21', "the partner's GB storefront tag");

      // The partner has no tag for the German storefront: the operator has none either, so none at all.
      const de = await go(`/go/${slug}/amazon?partner=acme&country=DE`);
      assert.equal(de.hostname, 'www.amazon.de');
      assert.equal(de.searchParams.get('tag'), null, 'a US tag is never put on another storefront');

      const bookshop = await go(`/go/${slug}/bookshop?partner=acme`);
      assert.match(bookshop.href, /777/, "the partner's Bookshop affiliate id");
      assert.doesNotMatch(bookshop.href, /4242/);

      const kobo = await go(`/go/${slug}/kobo?partner=acme`);
      assert.equal(kobo.hostname, 'www.kobo.com', 'no partner tag for Kobo: the usual link');
    });

    it('ignores an inactive or unknown partner: the operator tags apply and no partner is recorded', async () => {
      const before = (await clicks()).length;
      const inactive = await go(`/go/${slug}/amazon?partner=sleepy`);
      assert.equal(inactive.searchParams.get('tag'), 'operator-20');
      const unknown = await go(`/go/${slug}/amazon?partner=nobody-here`);
      assert.equal(unknown.searchParams.get('tag'), 'operator-20');
      const uk = await go(`/go/${slug}/amazon?partner=sleepy&country=GB`);
      assert.equal(uk.searchParams.get('tag'), 'operatoruk-21');
      const rows = (await clicks()).slice(before);
      assert.equal(rows.length, 3);
      assert.deepEqual(
        rows.map((row) => row.partner_id),
        [null, null, null],
      );
    });

    it('records the partner and the placement with the click', async () => {
      const rows = await clicks();
      const first = rows[0];
      assert.equal(first?.partner_id, 'acme');
      assert.equal(first?.src, 'newsletter');
      assert.equal(rows[1]?.country, 'GB');
    });

    it('refuses a malformed placement word with 422, and never records bots', async () => {
      const bad = await t.get(`/go/${slug}/amazon?src=${encodeURIComponent('a b<c>')}`);
      assert.equal(bad.status, 422);
      const before = (await clicks()).length;
      const bot = await t.get(`/go/${slug}/amazon?partner=acme`, { 'user-agent': BOT_UA });
      assert.equal(bot.status, 302);
      assert.equal((await clicks()).length, before);
    });

    it('drops a deactivated partner at once', async () => {
      await client.get('/admin/partners/acme');
      const saved = await client.post('/admin/partners/acme', { name: 'Acme <Books>', is_active: 'false' });
      assert.equal(saved.status, 303);
      const after = await go(`/go/${slug}/amazon?partner=acme`);
      assert.equal(after.searchParams.get('tag'), 'operator-20');
      await client.get('/admin/partners/acme');
      await client.post('/admin/partners/acme', { name: 'Acme <Books>', is_active: 'true' });
      const back = await go(`/go/${slug}/amazon?partner=acme`);
      assert.equal(back.searchParams.get('tag'), 'acme-20');
    });
  });

  describe('GET /api/v1/books/{slug}/links', () => {
    it("answers the page's groups with /go/ URLs carrying country and partner", async () => {
      const response = await t.get(`/api/v1/books/${slug}/links?country=GB&partner=acme`);
      assert.equal(response.status, 200);
      const body = (await response.json()) as LinksBody;
      assert.equal(body.slug, slug);
      assert.equal(body.country, 'GB');
      assert.equal(body.partner, 'acme');
      const groups = body.groups.map((group) => group.group);
      assert.ok(groups.includes('new') && groups.includes('ebook') && groups.includes('library'));
      const amazon = body.groups.flatMap((g) => g.links).find((link) => link.destination === 'amazon');
      assert.ok(amazon);
      assert.equal(amazon.group, 'new');
      const url = new URL(amazon.go_url);
      assert.equal(url.origin, 'http://booklink.test');
      assert.equal(url.pathname, `/go/${slug}/amazon`);
      assert.equal(url.searchParams.get('country'), 'GB');
      assert.equal(url.searchParams.get('partner'), 'acme');

      // The same destinations, in the same order, as the book page shows for that country.
      const page = await (await t.get(`/book/${slug}?country=GB`)).text();
      const pageOrder = [
        ...page.matchAll(/<li><a class="dest[^"]*" href="[^"]+" [^>]*data-destination="([^"]+)"/g),
      ].map((m) => m[1]);
      assert.deepEqual(
        body.groups.flatMap((g) => g.links.map((link) => link.destination)),
        pageOrder,
      );

      // Following a go_url gives the partner's UK tag.
      const target = await go(url.pathname + url.search);
      assert.equal(target.searchParams.get('tag'), 'acmeuk-21');
    });

    it("applies the partner linked to the caller's API key when no partner= is given", async () => {
      const { key, apiKey } = await createApiKey(t.store.db, { name: 'Acme app', scopes: [] });
      await client.get('/admin/partners/acme');
      const linked = await client.post('/admin/partners/acme', {
        name: 'Acme <Books>',
        is_active: 'true',
        api_key_id: String(apiKey.id),
      });
      assert.equal(linked.status, 303);
      const body = (await (
        await t.get(`/api/v1/books/${slug}/links`, { 'x-api-key': key })
      ).json()) as LinksBody;
      assert.equal(body.partner, 'acme');
      const first = body.groups[0]?.links[0];
      assert.equal(new URL(first?.go_url ?? '').searchParams.get('partner'), 'acme');
      const anonymous = (await (await t.get(`/api/v1/books/${slug}/links`)).json()) as LinksBody;
      assert.equal(anonymous.partner, null);
    });

    it('reports an unknown partner as null and leaves it to /go/ to ignore', async () => {
      const body = (await (
        await t.get(`/api/v1/books/${slug}/links?partner=nobody-here`)
      ).json()) as LinksBody;
      assert.equal(body.partner, null);
    });

    it('sends an ETag and answers 304 to If-None-Match', async () => {
      const first = await t.get(`/api/v1/books/${slug}/links?country=GB`);
      const etag = first.headers.get('etag');
      assert.ok(etag && /^"[^"]+"$/.test(etag));
      const again = await t.get(`/api/v1/books/${slug}/links?country=GB`, { 'if-none-match': etag });
      assert.equal(again.status, 304);
      assert.equal(await again.text(), '');
      const weak = await t.get(`/api/v1/books/${slug}/links?country=GB`, {
        'if-none-match': `W/${etag}, "x"`,
      });
      assert.equal(weak.status, 304);
      const other = await t.get(`/api/v1/books/${slug}/links?country=DE`, { 'if-none-match': etag });
      assert.equal(other.status, 200, 'another storefront is another representation');
      assert.notEqual(other.headers.get('etag'), etag);
    });

    it('is rate-limited like the rest of the API', async () => {
      const limited = await startTestApp(context.store(), { RATE_LIMIT_ANON: '2' });
      try {
        const statuses = [];
        for (let i = 0; i < 3; i++) statuses.push((await limited.get(`/api/v1/books/${slug}/links`)).status);
        assert.deepEqual(statuses, [200, 200, 429]);
      } finally {
        await limited.close();
      }
    });

    it('answers 404 for an unknown book and 422 for a bad country', async () => {
      assert.equal((await t.get('/api/v1/books/no-such-book/links')).status, 404);
      const bad = await t.get(`/api/v1/books/${slug}/links?country=GBR`);
      assert.equal(bad.status, 422);
      const body = (await bad.json()) as { detail: Array<{ loc: unknown[] }> };
      assert.deepEqual(body.detail[0]?.loc, ['query', 'country']);
    });
  });

  describe('book pages carry partner= and src=', () => {
    it("puts partner and src on the page's /go/ links", async () => {
      const page = await (await t.get(`/b/${slug}?partner=acme&src=bio`)).text();
      const hrefs = [...page.matchAll(/href="(\/go\/[^"]+)"/g)].map((m) =>
        (m[1] ?? '').replace(/&amp;/g, '&'),
      );
      assert.ok(hrefs.length > 10);
      for (const href of hrefs) {
        const url = new URL(href, 'http://x');
        assert.equal(url.searchParams.get('partner'), 'acme', href);
        assert.equal(url.searchParams.get('src'), 'bio', href);
      }
      // Following one of them records the partner and the placement of the page visit.
      const amazonHref = hrefs.find((href) => href.includes('/amazon?')) ?? '';
      const landed = await go(amazonHref);
      assert.equal(landed.searchParams.get('tag'), 'acme-20');
      const last = (await clicks()).at(-1);
      assert.deepEqual([last?.partner_id, last?.src], ['acme', 'bio']);
      const plain = await (await t.get(`/b/${slug}`)).text();
      assert.doesNotMatch(plain, /partner=acme/, 'the cached page of another visit is not reused');
    });

    it('counts visits by readers, link previews and bots apart, with the placement', async () => {
      await t.get(`/book/${slug}?src=qr`);
      await t.get(`/b/${slug}?src=qr`, { 'user-agent': SLACK_UA });
      await t.get(`/b/${slug}`, { 'user-agent': BOT_UA });
      await t.services.visits.flush();
      const rows = await t.store.db.selectFrom('page_visits').select(['audience', 'src', 'visits']).execute();
      const count = (audience: string, src: string) =>
        rows
          .filter((r) => r.audience === audience && r.src === src)
          .reduce((sum, r) => sum + Number(r.visits), 0);
      assert.equal(count('reader', 'qr'), 1);
      assert.equal(count('preview', 'qr'), 1);
      assert.ok(count('bot', '') >= 1);
      const dashboard = await client.get('/admin');
      assert.match(dashboard.body, /Book page visits/);
      assert.match(
        dashboard.body,
        /data-audience="preview"><td class="data__label">[^<]+<\/td><td class="num">1</,
      );
    });

    it('shows clicks per partner and per placement in the analytics, with CSV', async () => {
      await rollAll(t.store.db);
      const csv = await attributionCsv(t.store.db, 'partner', 30);
      const acme = csv.split('\n').find((line) => line.startsWith('acme,'));
      assert.ok(acme, csv);
      assert.match(acme, /,\d+$/);
      const bySrc = await client.get('/admin/analytics.csv?by=src&days=30');
      assert.equal(bySrc.status, 200);
      assert.match(bySrc.body, /^newsletter,newsletter,1$/m);
      assert.match(bySrc.body, /^bio,bio,\d+$/m, 'the clicks made from a page visited with src=bio');
      const dashboard = await client.get('/admin?days=7');
      assert.match(dashboard.body, /By partner/);
      assert.match(dashboard.body, /<a href="\/admin\/partners\/acme">Acme &lt;Books&gt; \(acme\)<\/a>/);
      const detail = await client.get('/admin/partners/acme?days=7');
      assert.match(detail.body, /data-role="partner-total">\d+</);
      const partnerCsv = await client.get('/admin/partners/acme/clicks.csv?days=7');
      assert.equal(partnerCsv.status, 200);
      assert.match(partnerCsv.body, /^partner,destination,label,clicks$/m);
      assert.match(partnerCsv.body, /^acme,\d+,Amazon,\d+$/m);
    });
  });

  describe('QR codes', () => {
    it("encodes the book's short link with src=qr, as SVG and PNG, and a list's page", async () => {
      const svg = await t.get(`/book/${slug}/qr.svg`);
      assert.equal(svg.status, 200);
      assert.equal(svg.headers.get('content-type'), 'image/svg+xml');
      assert.match(await svg.text(), /^<svg[^>]*viewBox="0 0 \d+ \d+"/);
      const png = await t.get(`/book/${slug}/qr.png`);
      assert.equal(png.headers.get('content-type'), 'image/png');
      const bytes = new Uint8Array(await png.arrayBuffer());
      assert.deepEqual([...bytes.subarray(1, 4)], [0x50, 0x4e, 0x47]);
      assert.equal((await t.get('/book/no-such-book/qr.svg')).status, 404);
      assert.equal((await t.get(`/book/${slug}/qr.gif`)).status, 422);

      const created = await fetch(`${t.baseUrl}/api/v1/lists`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'test' },
        body: JSON.stringify({ name: 'Summer' }),
      });
      assert.equal(created.status, 201);
      const { id } = (await created.json()) as { id: number };
      const list = await t.get(`/list/${id}/qr.svg`);
      assert.equal(list.status, 200);
      assert.equal((await t.get(`/list/${id + 1000}/qr.png`)).status, 404);
    });
  });
});
