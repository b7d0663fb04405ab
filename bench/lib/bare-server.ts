/**
 * The yardstick the real server is compared with: plain `node:http`, no framework, no database.
 *   page <file> <port> [content-type] [content-encoding] [headers.json]
 *                           answers every request with the file's bytes (default text/html; an encoding
 *                           names bytes already compressed, sent as they are, like a cached page; the
 *                           JSON file's object adds headers, e.g. the ones the real server sends)
 *   redirect <url> <port>   answers every request with a 302 to <url>
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [mode, argument = '', port = '0', contentType = 'text/html; charset=utf-8', encoding, headersFile] =
  process.argv.slice(2);
const extraHeaders = headersFile
  ? (JSON.parse(readFileSync(headersFile, 'utf8')) as Record<string, string>)
  : {};

const server =
  mode === 'page'
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

if (mode !== 'page' && mode !== 'redirect') {
  console.error('usage: bare-server.ts page <file> <port> | redirect <url> <port>');
  process.exit(2);
}
server.listen(Number(port), '127.0.0.1');
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
