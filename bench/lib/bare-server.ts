/**
 * The yardstick the real server is compared with: plain `node:http`, no framework, no database.
 *   page <file> <port> [content-type] [content-encoding] [headers.json]
 *                           answers every request with the file's bytes (default text/html; an encoding
 *                           names bytes already compressed, sent as they are, like a cached page; the
 *                           JSON file's object adds headers, e.g. the ones the real server sends)
 *   redirect <url> <port>   answers every request with a 302 to <url>
 *   busy <ms> <port> [turns] answers every request with a small JSON body after holding the event loop
 *                           for <ms> of CPU, like a search on SQLite; with `turns`, the work takes its
 *                           turn through the service's FairTurns (bench/http/new-connections.ts)
 */
import { readFileSync } from 'node:fs';
import { createServer, type RequestListener } from 'node:http';
import { FairTurns } from '../../src/services/fair-turns.js';

const [mode, argument = '', port = '0', contentType = 'text/html; charset=utf-8', encoding, headersFile] =
  process.argv.slice(2);
const extraHeaders = headersFile
  ? (JSON.parse(readFileSync(headersFile, 'utf8')) as Record<string, string>)
  : {};

/** Holds the event loop for `ms` of CPU, then answers: one synchronous piece of work a request. */
function busyAnswer(ms: number, turns: FairTurns | null): RequestListener {
  const body = Buffer.from(`{"results":[${'"x",'.repeat(200)}"x"]}`);
  const work = async () => {
    const until = performance.now() + ms;
    while (performance.now() < until);
  };
  return (_request, response) => {
    void (turns ? turns.run(work) : work()).then(() => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      response.end(body);
    });
  };
}

const server =
  mode === 'busy'
    ? createServer(busyAnswer(Number(argument), contentType === 'turns' ? new FairTurns() : null))
    : mode === 'page'
      ? (() => {
          const body = readFileSync(argument);
          return createServer((_request, response) => {
            response.writeHead(200, {
              'content-type': contentType,
              'content-length': body.length,
              ...(encoding ? { 'content-encoding': encoding } : {}),
              ...extraHeaders,
            });
            response.end(body);
          });
        })()
      : createServer((_request, response) => {
          response.writeHead(302, { location: argument, 'content-length': 0 });
          response.end();
        });

if (mode !== 'page' && mode !== 'redirect' && mode !== 'busy') {
  console.error(
    'usage: bare-server.ts page <file> <port> | redirect <url> <port> | busy <ms> <port> [turns]',
  );
  process.exit(2);
}
server.listen(Number(port), '127.0.0.1');
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
