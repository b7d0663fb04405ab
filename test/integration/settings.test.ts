import assert from 'node:assert/strict';
import { it } from 'node:test';
import { settingOrCreate } from '../../src/store/settings.js';
import { describeEachDialect } from '../support/databases.js';

describeEachDialect('settings', (context) => {
  it('makes a value once and returns the same one to every caller, even at once', async () => {
    const { db } = context.store();
    let made = 0;
    const make = () => `secret-${++made}`;
    const values = await Promise.all(
      Array.from({ length: 10 }, () => settingOrCreate(db, 'cookie_secret', make)),
    );
    assert.equal(new Set(values).size, 1);
    assert.equal(await settingOrCreate(db, 'cookie_secret', () => 'another'), values[0]);
  });
});
