/**
 * The client a provider request is made for, so the provider budget can hold each client address
 * to its share. Routes pass it explicitly to the services (`requester`), and the services hand it
 * to the provider chain and the providers on the call's AbortSignal: the signal already is each
 * provider call's context (its deadline and cancellation), every provider passes it on to the HTTP
 * client unchanged, and so the providers' own signatures need not change. (An AsyncLocalStorage
 * would need no argument at all, but on Node 20 it makes every await of the process slower.)
 * Work the server does on its own (imports, partner lists, admin jobs) has no requester and counts
 * against the providers' whole budgets only.
 */
export type Requester = string | null;

const requesters = new WeakMap<AbortSignal, string>();

/** Marks `signal` as belonging to a call made for `requester`; returns it. */
export function onBehalfOf(requester: Requester | undefined, signal: AbortSignal): AbortSignal {
  if (requester) requesters.set(signal, requester);
  return signal;
}

/** A signal that never aborts, for a call made for `requester` (undefined for the server's own). */
export function requesterSignal(requester: Requester | undefined): AbortSignal | undefined {
  return requester ? onBehalfOf(requester, new AbortController().signal) : undefined;
}

/** The client a call's signal was marked for, or null. */
export function requesterOf(signal: AbortSignal | undefined): Requester {
  return signal ? (requesters.get(signal) ?? null) : null;
}
