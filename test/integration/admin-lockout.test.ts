import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HUMAN_UA, startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { addUser, PASSWORD } from './admin-support.js';

/**
 * The sign-in limits hold under bursts: ten failures per account and thirty per IP in 15 minutes,
 * counted in the database before the password is checked, so parallel guesses (also spread over two
 * instances) cannot all pass the check, and unknown emails behave exactly like real accounts.
 */
const CSRF = 'lockout-test-token';
let nextIp = 1;
const freshIp = () => `198.51.100.${nextIp++ % 250}`;

async function attempt(t: TestApp, email: string, password: string, ip = freshIp()) {
  const response = await fetch(`${t.baseUrl}/admin/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'user-agent': HUMAN_UA,
      'content-type': 'application/x-www-form-urlencoded',
      cookie: `bl_login=${CSRF}`,
      'x-forwarded-for': ip,
    },
    body: new URLSearchParams({ _csrf: CSRF, email, password }).toString(),
  });
  const body = await response.text();
  return {
    status: response.status,
    body,
    session: response.headers.getSetCookie().some((c) => c.startsWith('bl_admin=')),
  };
}

const tally = (results: Array<{ status: number }>) => {
  const counts: Record<number, number> = {};
  for (const { status } of results) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
};

describeEachDialect('admin sign-in limits under bursts', (context) =>
  describe('two instances on one database', () => {
    let a: TestApp;
    let b: TestApp;
    before(async () => {
      a = await startTestApp(context.store(), { TRUST_PROXY: 'true' });
      b = await startTestApp(context.store(), { TRUST_PROXY: 'true' });
      for (const email of ['burst@example.test', 'inside@example.test', 'mixed@example.test']) {
        await addUser(context.store(), email, 'editor');
      }
    });
    after(async () => {
      await a.close();
      await b.close();
    });

    it('checks only ten of 150 parallel wrong passwords, over two instances, and locks the account', async () => {
      const results = await Promise.all(
        Array.from({ length: 150 }, (_, i) => attempt(i % 2 ? a : b, 'burst@example.test', `wrong ${i}`)),
      );
      assert.deepEqual(tally(results), { 401: 10, 429: 140 });
      assert.ok(results.filter((r) => r.status === 429).every((r) => /locked for 15 minutes/.test(r.body)));
      const right = await attempt(a, 'burst@example.test', PASSWORD);
      assert.equal(right.status, 429);
      assert.equal(right.session, false);
    });

    it('refuses the right password sent while a burst past the limit is still being checked', async () => {
      const burst = Promise.all(
        Array.from({ length: 40 }, (_, i) => attempt(i % 2 ? a : b, 'inside@example.test', `wrong ${i}`)),
      );
      const db = context.store().db;
      // Wait until ten attempts hold their slots (most are still in scrypt or queued behind it).
      for (let tries = 0; tries < 500; tries++) {
        const row = await db
          .selectFrom('admin_login_throttle')
          .select('failures')
          .where('key', '=', 'account:inside@example.test')
          .executeTakeFirst();
        if (Number(row?.failures ?? 0) >= 10) break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const right = await attempt(b, 'inside@example.test', PASSWORD);
      assert.equal(right.status, 429);
      assert.equal(right.session, false);
      assert.deepEqual(tally(await burst), { 401: 10, 429: 30 });
    });

    it('lets at most ten of 59 wrong and one right password, all in parallel, be checked', async () => {
      const passwords = Array.from({ length: 60 }, (_, i) => (i === 30 ? PASSWORD : `wrong ${i}`));
      const results = await Promise.all(
        passwords.map((password, i) => attempt(i % 2 ? a : b, 'mixed@example.test', password)),
      );
      const checked = results.filter((r) => r.status === 401 || r.status === 303).length;
      const signedIn = results.filter((r) => r.status === 303).length;
      assert.equal(signedIn, results[30]?.status === 303 ? 1 : 0);
      // Refused, the right one was one of the many past the limit; it signs in only if it came among
      // the first ten, and then it clears the account's count for the attempts still to come.
      if (signedIn === 0) assert.equal(checked, 10);
      else assert.ok(checked <= 20, `${checked} attempts checked`);
    });

    it('limits one IP to thirty failures in parallel, whatever the emails', async () => {
      const ip = '203.0.113.77';
      const results = await Promise.all(
        Array.from({ length: 60 }, (_, i) => attempt(i % 2 ? a : b, `nobody${i}@example.test`, 'wrong', ip)),
      );
      assert.deepEqual(tally(results), { 401: 30, 429: 30 });
      assert.ok(results.filter((r) => r.status === 429).every((r) => /from this address/.test(r.body)));
    });

    it('answers an unknown email exactly like a real account, lock included', async () => {
      await addUser(context.store(), 'real@example.test', 'editor');
      const answers = async (email: string) => {
        const out: string[] = [];
        for (let i = 0; i < 11; i++) {
          const result = await attempt(a, email, 'wrong password');
          out.push(`${result.status} ${result.body.replaceAll(email, 'EMAIL')}`);
        }
        return out;
      };
      const real = await answers('real@example.test');
      const unknown = await answers('ghost@example.test');
      assert.deepEqual(unknown, real);
      assert.match(real[10] ?? '', /^429 .*locked for 15 minutes/s);
    });
  }),
);
