import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MayCreate, Services } from '../services/container.js';
import type { WriteKind } from '../services/write-limits.js';
import { HttpError } from './errors.js';
import { writerOf } from './plugins/rate-limit.js';

/** What a reader was doing, as the 429 names it. */
const WHAT: Record<WriteKind, string> = {
  miss: 'reports of books you could not find',
  feedback: 'search clicks',
  vote: 'votes on searches',
  saved_event: 'saved-book events',
  list: 'new lists',
  list_book: 'books added to lists',
  book: 'new book pages',
  click: 'clicks',
  search: 'searches',
};

/** "42 seconds", "3 minutes", "2 hours": the wait, rounded up to the unit a reader thinks in. */
function wait(seconds: number): string {
  const [amount, unit] =
    seconds < 120
      ? [seconds, 'second']
      : seconds < 7200
        ? [Math.ceil(seconds / 60), 'minute']
        : [Math.ceil(seconds / 3600), 'hour'];
  return `${amount} ${unit}${amount === 1 ? '' : 's'}`;
}

/**
 * A write past its writer's cap (`services.writes`): 429 with Retry-After, nothing stored. The
 * errors plugin answers JSON `{detail}` under /api/ and the site's error page elsewhere.
 */
export function writeRefused(reply: FastifyReply, kind: WriteKind, retryAfterSeconds: number): never {
  reply.header('retry-after', retryAfterSeconds).header('access-control-expose-headers', 'Retry-After');
  throw new HttpError(
    429,
    'write_limited',
    `This address has made as many ${WHAT[kind]} as it may for now. Please try again in ${wait(retryAfterSeconds)}.`,
    false,
    { kind, seconds: retryAfterSeconds },
  );
}

/** A service's answer when a write is past its writer's cap. */
export interface Refusal {
  kind: 'refused';
  retryAfterSeconds: number;
}
const isRefusal = (outcome: { kind: string }): outcome is Refusal => outcome.kind === 'refused';

/** `writeRefused` (the 429) when the service refused the write at its writer's cap; else nothing. */
export function refuseIfOverCap<T extends { kind: string }>(
  reply: FastifyReply,
  kind: WriteKind,
  outcome: T,
): asserts outcome is Exclude<T, Refusal> {
  if (isRefusal(outcome)) writeRefused(reply, kind, outcome.retryAfterSeconds);
}

/** What this request may create: nothing when `automated`, else its writer's allowance of new books. */
export function visitorMayCreate(services: Services, request: FastifyRequest, automated: boolean): MayCreate {
  return services.creationAllowance(automated, writerOf(request));
}

/**
 * Where a request found no book because its writer's allowance of new books is spent: 429 with
 * Retry-After instead of "no page yet". A page that can answer from what exists (search results, a
 * redirect to a search) answers that instead and does not call this.
 */
export function refuseIfCreationRefused(reply: FastifyReply, mayCreate: MayCreate): void {
  if (typeof mayCreate !== 'boolean' && mayCreate.refusedFor !== null)
    writeRefused(reply, 'book', mayCreate.refusedFor);
}
