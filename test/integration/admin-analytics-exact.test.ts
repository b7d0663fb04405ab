import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { analyticsCsv, dashboard, type Period } from '../../src/services/admin/analytics.js';
import {
  addDays,
  DIMENSIONS,
  type Dimension,
  dayOf,
  rollAll,
  rollStep,
} from '../../src/store/analytics-rollup.js';
import type { TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { AdminClient, addUser, startAdminApp } from './admin-support.js';

/**
 * Every figure of the analytics page equals a direct count of the raw clicks: during the back-fill
 * (for the days it has reached), after it, and after a new day is rolled forward. Clicks span 14
 * months so month edges, whole months, the live days and "all time" are all exercised.
 */
const PERIODS: Period[] = [7, 30, 90, 365, 'all'];
const DAY = 86_400_000;

interface RawClick {
  book_id: number;
  destination_id: number;
  sfid: null;
  country: string | null;
  referrer_host: string | null;
  created_at: string;
}

function generate(now: number): RawClick[] {
  let seed = 42;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() ** 2 * items.length)] as T;
  // Dense in the last days (the live part), spread thin over 14 months, some exactly at midnight.
  const ages = [
    ...Array.from({ length: 300 }, () => random() * 3 * DAY),
    ...Array.from({ length: 1200 }, () => random() * 425 * DAY),
    ...Array.from({ length: 40 }, (_, i) => Math.ceil(now / DAY - i * 11) * DAY - now + i * 11 * DAY),
  ];
  return ages.map((age) => ({
    book_id: 1 + Math.floor(random() ** 2 * 40),
    destination_id: pick([1, 2, 3, 4, 5, 6]),
    sfid: null,
    country: pick(['US', 'GB', 'DE', null]),
    referrer_host: pick(['news.example', null, 'blog.example']),
    created_at: new Date(now - Math.max(0, age)).toISOString(),
  }));
}

const keyOf = (click: RawClick, dimension: Dimension): string =>
  dimension === 'destination'
    ? String(click.destination_id)
    : dimension === 'book'
      ? String(click.book_id)
      : ((dimension === 'country' ? click.country : click.referrer_host) ?? '');

/** The direct count: clicks of days `[from, to)` per key, biggest first, ties by key. */
function direct(clicks: RawClick[], dimension: Dimension | 'day', from: string, to: string) {
  const counts = new Map<string, number>();
  for (const click of clicks) {
    const day = click.created_at.slice(0, 10);
    if (day < from || day >= to) continue;
    const key = dimension === 'day' ? day : keyOf(click, dimension);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts]
    .map(([key, clicks]) => ({ key, clicks }))
    .sort((a, b) => b.clicks - a.clicks || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

function fromOf(period: Period, clicks: RawClick[], now: Date): string {
  if (period !== 'all') return addDays(dayOf(now), 1 - period);
  return clicks.map((click) => click.created_at.slice(0, 10)).sort()[0] ?? dayOf(now);
}

describeEachDialect('admin analytics equal the raw clicks', (context) => {
  let t: TestApp | undefined;
  let clicks: RawClick[];
  const now = new Date();

  before(async () => {
    clicks = generate(now.getTime());
    for (let i = 0; i < clicks.length; i += 500)
      await context
        .store()
        .db.insertInto('clicks')
        .values(clicks.slice(i, i + 500))
        .execute();
  });
  after(() => t?.close());

  async function assertExact(at: Date, expectPending: boolean): Promise<void> {
    const db = context.store().db;
    for (const period of PERIODS) {
      const model = await dashboard(db, period, at);
      assert.equal(model.pendingBefore !== null, expectPending, `pending note, ${period}`);
      // Days the back-fill has not reached are left out (and announced); everything after is exact.
      const from = [fromOf(period, clicks, at), model.pendingBefore ?? ''].sort()[1] ?? '';
      const to = addDays(dayOf(at), 1);
      const perDay = new Map(direct(clicks, 'day', from, to).map((c) => [c.key, c.clicks]));
      assert.deepEqual(
        model.series.map((point) => [point.day, point.clicks]),
        model.series.map((point) => [point.day, perDay.get(point.day) ?? 0]),
        `series, ${period}`,
      );
      assert.equal(
        model.total,
        [...perDay.values()].reduce((a, b) => a + b, 0),
        `total, ${period}`,
      );
      for (const top of model.tops) {
        const expected = direct(clicks, top.key, from, to).slice(0, 10);
        assert.deepEqual(
          top.rows.map((row) => ({ key: row.key, clicks: row.clicks })),
          expected,
          `${top.key}, ${period}`,
        );
      }
      if (expectPending) continue;
      for (const by of DIMENSIONS) {
        const csv = await analyticsCsv(db, by, period, at);
        const rows = csv
          .trim()
          .split('\n')
          .slice(1)
          .map((line) => line.split(','));
        const expected = direct(clicks, by, from, to);
        assert.deepEqual(
          rows.map((cells) => ({ key: cells[0], clicks: Number(cells.at(-1)) })),
          expected,
          `CSV ${by}, ${period}`,
        );
      }
    }
  }

  it('is exact for the days rolled so far while the back-fill runs', async () => {
    const db = context.store().db;
    for (let i = 0; i < 20; i++) await rollStep(db, now);
    await assertExact(now, true);
  });

  it('is exact for every view once the server has back-filled in the background', async () => {
    t = await startAdminApp(context.store());
    const db = context.store().db;
    const deadline = Date.now() + 60_000;
    while ((await dashboard(db, 7, now)).pendingBefore !== null) {
      assert.ok(Date.now() < deadline, 'the back-fill finishes within a minute');
      await delay(50);
    }
    assert.equal(await rollAll(db, now), 0, 'nothing left to roll');
    await assertExact(now, false);
  });

  it('stays exact when the next day is rolled forward', async () => {
    const tomorrow = new Date(now.getTime() + DAY);
    assert.equal(await rollStep(context.store().db, tomorrow), 'forward');
    await assertExact(tomorrow, false);
  });

  it('shows the same figures through HTTP', async () => {
    assert.ok(t);
    await addUser(context.store(), 'admin@example.test', 'admin');
    const client = new AdminClient(t);
    await client.login('admin@example.test');
    const page = await client.get('/admin?days=all');
    assert.equal(page.status, 200);
    assert.match(page.body, new RegExp(`<strong>${clicks.length.toLocaleString('en')}</strong> clicks`));
    assert.match(page.body, /aria-current="true">All time</);
    assert.doesNotMatch(page.body, /still being counted/);
  });
});
