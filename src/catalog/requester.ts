import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The client a provider request is made for, so the provider budget can hold each client address
 * to its share. It is carried by the async context rather than passed along: between a route and
 * the HTTP client lie the search, resolve and creation services, the provider chain and each
 * provider's own methods (some twenty signatures, the providers' owned by their parsers), and an
 * argument forgotten anywhere on the way would silently charge nobody. The HTTP layer sets it once
 * per request (plugins/requester.ts); work the server does on its own (imports, admin jobs) has none
 * and is counted against the providers' whole budgets only.
 */
const scope = new AsyncLocalStorage<string>();

/** Runs `fn` (and everything it starts) on behalf of `requester` (a client address or /64). */
export function asRequester<T>(requester: string, fn: () => T): T {
  return scope.run(requester, fn);
}

/** The client address the current work is done for, or null for the server's own work. */
export function currentRequester(): string | null {
  return scope.getStore() ?? null;
}
