import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, it } from 'node:test';
import { startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';

/** Sends a raw request head and reads the whole answer (the server closes the connection). */
function sendRaw(t: TestApp, head: string): Promise<{ status: number; body: string; language: string }> {
  const port = Number(new URL(t.baseUrl).port);
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const language = /\r\ncontent-language:\s*([^\r\n]+)/i.exec(text.slice(0, split))?.[1] ?? '';
      resolve({ status: Number(text.split(' ')[1]), body: text.slice(split + 4), language });
    });
    socket.write(`${head}\r\nConnection: close\r\n\r\n`);
  });
}

describeEachDialect('refusals before routing speak the operator’s default language', (context) => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(context.store(), { DEFAULT_LANGUAGE: 'it' });
  });
  after(() => t.close());

  it('answers a request that names no language in DEFAULT_LANGUAGE', async () => {
    const big = await sendRaw(t, `GET /book/x HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}`);
    assert.equal(big.status, 431);
    assert.equal(big.language, 'it');
    assert.match(big.body, /<html lang="it"/);
    assert.match(big.body, /Richiesta troppo grande/);
    const undecodable = await sendRaw(t, 'GET /book/%E0%A4%A HTTP/1.1\r\nHost: x');
    assert.equal(undecodable.status, 400);
    assert.match(undecodable.body, /<html lang="it"/);
    assert.match(undecodable.body, /non è un testo valido/);
  });
});
