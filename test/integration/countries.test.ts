import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Destination } from '../../src/domain/links.js';
import { CLI_ACTOR } from '../../src/services/admin/commands.js';
import { listActiveDestinations } from '../../src/store/destinations.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry } from '../support/factories.js';

const ISBN = '9780141439518';
const COUNTRIES = [
  'US',
  'GB',
  'IE',
  'CA',
  'AU',
  'NZ',
  'DE',
  'AT',
  'CH',
  'FR',
  'BE',
  'NL',
  'ES',
  'IT',
  'JP',
  'IN',
];

interface LinksBody {
  country: string | null;
  groups: Array<{ links: Array<{ destination: string; kind: 'product' | 'search'; go_url?: string }> }>;
}

/** The destination slugs a book page lists, in page order. */
function pageSlugs(html: string): string[] {
  return [...html.matchAll(/<a class="dest[^"]*"[^>]*data-destination="([^"]+)"/g)].map((m) => m[1] ?? '');
}

const linkSlugs = (body: LinksBody) => body.groups.flatMap((g) => g.links.map((l) => l.destination));

describeEachDialect('each country its own shops', (context) => {
  let t: TestApp;
  let slug = '';
  let destinations: Destination[] = [];
  const own = (country: string) =>
    destinations.filter((d) => d.countries.includes(country)).map((d) => d.slug);
  const foreign = (country: string) =>
    new Set(
      destinations.filter((d) => d.countries.length > 0 && !d.countries.includes(country)).map((d) => d.slug),
    );

  /** At least four of the country's own shops, and no other country's own shop. */
  function assertShops(country: string, listed: readonly string[], where: string) {
    const mine = own(country).filter((s) => listed.includes(s));
    assert.ok(mine.length >= 4, `${where} ${country}: only ${mine.join(', ')} of its own shops`);
    const strangers = listed.filter((s) => foreign(country).has(s));
    assert.deepEqual(strangers, [], `${where} ${country} lists other countries' shops`);
  }

  before(async () => {
    t = await startTestApp(context.store(), { RATE_LIMIT_ANON: '10000' });
    await addCatalogEntry(context.store(), {
      isbn13: ISBN,
      isbn10: '0141439513',
      title: 'Pride and Prejudice',
      authors: ['Jane Austen'],
      format: 'paperback',
    });
    const created = await t.get(`/isbn/${ISBN}`);
    slug = (created.headers.get('location') ?? '').replace('/book/', '');
    assert.ok(slug);
    destinations = await listActiveDestinations(context.store().db);
  });
  after(() => t.close());

  it('lists, per country, at least four of its own shops and no other country’s, on the page, the API and the embed', async () => {
    for (const country of COUNTRIES) {
      const page = await t.get(`/book/${slug}?country=${country}`);
      assert.equal(page.status, 200);
      assertShops(country, pageSlugs(await page.text()), 'page');
      const api = (await (await t.get(`/api/v1/books/${slug}/links?country=${country}`)).json()) as LinksBody;
      assert.equal(api.country, country);
      assertShops(country, linkSlugs(api), 'links API');
      const embed = (await (await t.get(`/embed/${slug}.json?country=${country}`)).json()) as LinksBody;
      assertShops(country, linkSlugs(embed), 'embed');
    }
  });

  it('says whose shops the page shows, with a switcher that needs no script', async () => {
    const html = await (await t.get(`/book/${slug}`, { 'accept-language': 'en-GB,en;q=0.8' })).text();
    assert.match(html, /Shops for the United Kingdom/);
    assert.match(html, /<form method="get" action="\/country">/);
    assert.match(html, new RegExp(`name="back" value="/book/${slug}"`));
    assert.match(html, /<option value="GB" selected>United Kingdom<\/option>/);
    // Nothing tells the country: the operator's DEFAULT_COUNTRY (US unless set).
    const plain = await (await t.get(`/book/${slug}`)).text();
    assert.match(plain, /Shops for the United States/);
    assert.ok(pageSlugs(plain).includes('barnes-noble'));
  });

  it('offers in the switcher every country a destination has a shop for, one added later included', async () => {
    const options = async () =>
      [
        ...(await (await t.get(`/book/${slug}?country=GB`)).text()).matchAll(/<option value="([A-Z]{2})"/g),
      ].map((m) => m[1]);
    const before = await options();
    for (const country of COUNTRIES) assert.ok(before.includes(country), `switcher offers ${country}`);
    assert.ok(!before.includes('KR'));
    const created = await t.services.admin.destinations.createLocalShop(CLI_ACTOR, {
      display_name: 'Seoul Book Corner',
      url_template: 'https://seoul-books.example/book/{isbn13}',
      countries: 'KR',
    });
    assert.ok(created.ok);
    assert.ok((await options()).includes('KR'), 'a shop for a new country puts it in the switcher');
  });

  it('names the country as each language says it, article and case included', async () => {
    const expected: Array<[string, string, string]> = [
      ['de', 'GB', 'Läden für das Vereinigte Königreich'],
      ['de', 'DE', 'Läden für Deutschland'],
      ['de', 'CH', 'Läden für die Schweiz'],
      ['fr', 'FR', 'Boutiques pour la France'],
      ['fr', 'GB', 'Boutiques pour le Royaume-Uni'],
      ['fr', 'US', 'Boutiques pour les États-Unis'],
      ['fr', 'IT', 'Boutiques pour l’Italie'],
      ['es', 'GB', 'Tiendas para el Reino Unido'],
      ['es', 'ES', 'Tiendas para España'],
      ['it', 'US', 'Negozi per gli Stati Uniti'],
      ['it', 'DE', 'Negozi per la Germania'],
      ['nl', 'GB', 'Winkels voor het Verenigd Koninkrijk'],
      ['nl', 'NL', 'Winkels voor Nederland'],
      ['pt', 'BR', 'Lojas para o Brasil'],
      ['pt', 'FR', 'Lojas para a França'],
      ['ja', 'JP', '日本のショップ'],
      ['en', 'NL', 'Shops for the Netherlands'],
      // A country outside the switcher's list: a form that needs no article.
      ['de', 'NO', 'Läden: Norwegen'],
      ['en', 'AE', 'Shops: United Arab Emirates'],
    ];
    for (const [language, country, sentence] of expected) {
      const html = await (await t.get(`/book/${slug}?country=${country}&lang=${language}`)).text();
      assert.ok(html.includes(`<span>${sentence}</span>`), `${language} ${country}: ${sentence}`);
    }
  });

  it('remembers the switcher’s choice in a cookie and goes back to a path on this site only', async () => {
    const switched = await t.get(`/country?country=de&back=${encodeURIComponent(`/book/${slug}`)}`);
    assert.equal(switched.status, 303);
    assert.equal(switched.headers.get('location'), `/book/${slug}`);
    const cookie = (switched.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    assert.equal(cookie, 'booklink_country=DE');
    const page = await (await t.get(`/book/${slug}`, { cookie, 'accept-language': 'en-GB' })).text();
    assert.match(page, /Shops for Germany/);
    assert.ok(pageSlugs(page).includes('thalia'));
    assert.ok(!pageSlugs(page).includes('waterstones'));
    const api = (await (await t.get(`/api/v1/books/${slug}/links`, { cookie })).json()) as LinksBody;
    assert.equal(api.country, 'DE');
    // ?country= still wins over the cookie.
    const chosen = await (await t.get(`/book/${slug}?country=FR`, { cookie })).text();
    assert.match(chosen, /Shops for France/);
    for (const back of ['//evil.example/x', '/\\evil.example', 'https://evil.example/']) {
      const away = await t.get(`/country?country=GB&back=${encodeURIComponent(back)}`);
      assert.equal(away.headers.get('location'), '/');
    }
    const forgot = await t.get('/country?country=auto&back=/');
    assert.match(forgot.headers.get('set-cookie') ?? '', /^booklink_country=; .*Max-Age=0/);
  });

  it('never serves one country’s cached page to a reader of another, with every cache warm', async () => {
    const british = { 'accept-language': 'en-GB,en;q=0.8' };
    const german = { cookie: 'booklink_country=DE', 'accept-language': 'en-GB,en;q=0.8' };
    for (let round = 0; round < 3; round++) {
      // A plain visit (replayed from the second round on), then a cookie visit with the same language.
      const gb = await t.get(`/book/${slug}`, british);
      assert.match(gb.headers.get('vary') ?? '', /Cookie/);
      const gbSlugs = pageSlugs(await gb.text());
      assert.ok(gbSlugs.includes('waterstones') && !gbSlugs.includes('thalia'), `round ${round}: GB`);
      const de = pageSlugs(await (await t.get(`/book/${slug}`, german)).text());
      assert.ok(de.includes('thalia') && !de.includes('waterstones'), `round ${round}: DE`);
      const cdn = pageSlugs(await (await t.get(`/book/${slug}`, { 'cf-ipcountry': 'JP' })).text());
      assert.ok(cdn.includes('kinokuniya') && !cdn.includes('waterstones'), `round ${round}: JP`);
    }
  });

  it('tells product links from searches in the page, the API and the embed', async () => {
    const api = (await (await t.get(`/api/v1/books/${slug}/links?country=US`)).json()) as LinksBody;
    const kinds = new Map(api.groups.flatMap((g) => g.links.map((l) => [l.destination, l.kind] as const)));
    assert.equal(kinds.get('amazon'), 'product');
    assert.equal(kinds.get('kobo'), 'search');
    assert.equal(kinds.get('kindle'), 'search');
    assert.equal(kinds.get('barnes-noble'), 'product');
    const html = await (await t.get(`/book/${slug}?country=US`)).text();
    assert.match(
      html,
      /data-destination="kobo"[^>]*data-kind="search"[\s\S]*?<span class="dest__verb">Search<\/span> Rakuten Kobo/,
    );
    assert.match(
      html,
      /data-destination="amazon"[^>]*data-kind="product"[\s\S]*?Paperback: the book’s page|data-destination="amazon"[^>]*data-kind="product"[\s\S]*?Paperback: the book&#39;s page/,
    );
    const embed = (await (await t.get(`/embed/${slug}.json?country=US`)).json()) as LinksBody;
    assert.ok(
      embed.groups.flatMap((g) => g.links).some((l) => l.destination === 'kobo' && l.kind === 'search'),
    );
    const frame = await (await t.get(`/embed/${slug}?country=US`)).text();
    assert.match(frame, /data-kind="search">Search Rakuten Kobo/);
  });
});
