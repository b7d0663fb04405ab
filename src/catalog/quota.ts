/**
 * Quota answers: a provider telling us to stop for a while. Any 429, and Google's quota errors,
 * which arrive as a 429 (or, from older front ends, a 403) with a JSON body such as
 *
 *   {"error": {"code": 429, "status": "RESOURCE_EXHAUSTED",
 *              "message": "Quota exceeded for quota metric 'Queries' and limit 'Queries per day' …",
 *              "errors": [{"domain": "global", "reason": "rateLimitExceeded", "message": "…"}],
 *              "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "RATE_LIMIT_EXCEEDED", …}]}}
 *
 * Retrying such an answer only spends more of a quota that is gone: the caller opens the provider's
 * circuit for the time the answer asks instead (`Retry-After`, or Google's `RetryInfo.retryDelay`).
 */

/** How long to wait when a quota answer names no time. */
export const DEFAULT_QUOTA_WAIT_MS = 60_000;
/** A provider's wait is believed up to a day (Google's daily quotas reset at midnight Pacific time). */
export const MAX_QUOTA_WAIT_MS = 24 * 60 * 60 * 1000;

const GOOGLE_QUOTA_REASONS = new Set([
  'rateLimitExceeded',
  'userRateLimitExceeded',
  'dailyLimitExceeded',
  'quotaExceeded',
  'RATE_LIMIT_EXCEEDED',
]);

type Headers = Record<string, string | string[] | undefined>;

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function list(value: unknown): Record<string, unknown>[] {
  if (!Array.isArray(value)) return [];
  return value.map(record).filter((item): item is Record<string, unknown> => item !== null);
}

/** `Retry-After` in seconds or as an HTTP date, in milliseconds from `now`; null when absent or unreadable. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | null {
  const raw = headers['retry-after'];
  const text = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!text) return null;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Google's error body: whether it is a quota error, and the delay its `RetryInfo` asks for. */
function googleQuota(body: unknown): { quota: boolean; retryMs: number | null } {
  const error = record(record(body)?.error);
  if (!error) return { quota: false, retryMs: null };
  const reasons = [...list(error.errors), ...list(error.details)].map((item) => item.reason);
  const quota =
    error.status === 'RESOURCE_EXHAUSTED' ||
    reasons.some((reason) => typeof reason === 'string' && GOOGLE_QUOTA_REASONS.has(reason));
  const delay = list(error.details).find((item) => typeof item.retryDelay === 'string')?.retryDelay;
  const seconds = typeof delay === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(delay)?.[1] : undefined;
  return { quota, retryMs: seconds === undefined ? null : Math.round(Number(seconds) * 1000) };
}

/**
 * The wait a quota answer asks for, or null when the answer is no quota answer. `body` is the
 * answer's parsed JSON (null when it had none).
 */
export function quotaWaitMs(
  status: number,
  headers: Headers,
  body: unknown,
  now = Date.now(),
): number | null {
  if (status !== 429 && status !== 403) return null;
  const google = googleQuota(body);
  if (status === 403 && !google.quota) return null;
  const wait = retryAfterMs(headers, now) ?? google.retryMs ?? DEFAULT_QUOTA_WAIT_MS;
  return Math.min(MAX_QUOTA_WAIT_MS, Math.max(1000, wait));
}
