import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Answers one connection may owe at once: the one being written and those queued behind it for
 * pipelined requests. Browsers do not pipeline; a client that sends more without reading its answers
 * would otherwise make the server hold every one of them (hundreds of `/openapi.json` bodies on one
 * socket filled a 256 MB heap).
 */
export const MAX_ANSWERS_OWED = 16;

/** How long a request's headers may take to arrive, at most (the whole request has `requestTimeoutMs`). */
const HEADERS_TIMEOUT_MS = 20_000;

/** How often Node looks for requests past their header or request timeout (its default is 30 s). */
const TIMEOUT_CHECK_INTERVAL_MS = 1000;

/** How long the idle connections of a keep-alive client are kept (Fastify's own default). */
const KEEP_ALIVE_TIMEOUT_MS = 72_000;

/** At most one "connection limit reached" line in this time, with the count refused since the last. */
const DROP_LOG_INTERVAL_MS = 60_000;

export interface ConnectionSettings {
  requestTimeoutMs: number;
  maxConnections: number;
  /** Told once per interval that the connection limit refused connections, and how many. */
  onLimitReached(refused: number, limit: number): void;
}

export interface ConnectionStats {
  /** Connections closed for owing more than MAX_ANSWERS_OWED answers. */
  closedOwingTooMuch: number;
  /** Connections refused at the MAX_CONNECTIONS limit. */
  refusedAtLimit: number;
}

/**
 * The connections of the HTTP server and the answers each one owes. A connection that is gone takes
 * its queued answers with it; one that owes too many is closed; on shutdown, every answer in flight
 * is sent with `Connection: close`.
 */
export class Connections {
  readonly #owed = new Map<Socket, Set<ServerResponse>>();
  #draining = false;
  #closedOwingTooMuch = 0;
  #refusedAtLimit = 0;

  /** Takes a new request's answer; false when its connection was closed instead (it owed too many). */
  admit(request: IncomingMessage, response: ServerResponse): boolean {
    const socket = request.socket;
    // The parser goes on through the requests already read from a connection closed here.
    if (socket.destroyed) return false;
    let owed = this.#owed.get(socket);
    if (owed === undefined) {
      const answers = new Set<ServerResponse>();
      this.#owed.set(socket, answers);
      socket.once('close', () => this.#owed.delete(socket));
      owed = answers;
    }
    if (owed.size >= MAX_ANSWERS_OWED) {
      this.#closedOwingTooMuch++;
      socket.destroy();
      return false;
    }
    const answers = owed;
    answers.add(response);
    response.once('finish', () => answers.delete(response));
    if (this.#draining) response.setHeader('connection', 'close');
    return true;
  }

  /**
   * From now on every answer closes its connection: those not started say so in their headers; after
   * one already being sent, the server ends the connections left idle.
   */
  drain(server: Server): void {
    this.#draining = true;
    for (const answers of this.#owed.values()) {
      for (const response of answers) {
        if (!response.headersSent) response.setHeader('connection', 'close');
        else response.once('finish', () => setImmediate(() => server.closeIdleConnections()));
      }
    }
  }

  refusedAtLimit(): void {
    this.#refusedAtLimit++;
  }

  stats(): ConnectionStats {
    return { closedOwingTooMuch: this.#closedOwingTooMuch, refusedAtLimit: this.#refusedAtLimit };
  }
}

/**
 * Node's HTTP server with the limits every connection lives under: a bound on the answers it may owe
 * (`Connections`), a whole request within `requestTimeoutMs` (else 408, see `clientErrorResponder`),
 * no progress either way for twice that, and at most `maxConnections` open at once.
 */
export function limitedServer(
  settings: ConnectionSettings,
  connections: Connections,
  handle: (request: IncomingMessage, response: ServerResponse) => void,
): Server {
  const server = createServer(
    {
      requestTimeout: settings.requestTimeoutMs,
      headersTimeout: Math.min(HEADERS_TIMEOUT_MS, settings.requestTimeoutMs),
      connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    },
    (request, response) => {
      if (connections.admit(request, response)) handle(request, response);
    },
  );
  server.setTimeout(settings.requestTimeoutMs * 2);
  server.maxConnections = settings.maxConnections;
  let refusedSinceLog = 0;
  let lastLog = 0;
  server.on('drop', () => {
    connections.refusedAtLimit();
    refusedSinceLog++;
    const now = Date.now();
    if (now - lastLog < DROP_LOG_INTERVAL_MS) return;
    lastLog = now;
    settings.onLimitReached(refusedSinceLog, settings.maxConnections);
    refusedSinceLog = 0;
  });
  return server;
}
