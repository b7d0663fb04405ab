import { createHmac, timingSafeEqual } from 'node:crypto';
import { readCookie, serializeCookie } from '../domain/cookies.js';
import type { Destination } from '../domain/links.js';
import {
  type AccessCode,
  destinationIdsForCodes,
  destinationsOfCode,
  findAccessCode,
} from '../store/access-codes.js';
import type { Db } from '../store/schema.js';

export const ACCESS_COOKIE = 'booklink_access';
const MAX_CODES_PER_COOKIE = 20;
const CACHE_TTL_MS = 30_000;

/** Code id → when its grant ends (epoch seconds). */
export type AccessGrants = ReadonlyMap<number, number>;

export type OpenOutcome =
  | { kind: 'unknown' }
  | { kind: 'inactive'; code: AccessCode }
  | { kind: 'opened'; code: AccessCode; unlocked: Destination[]; cookie: string; maxAgeSeconds: number };

/**
 * Access codes (a library's patron link): opening `/access/{slug}` grants, for the code's
 * cookie_ttl_hours, the right to see its non-public destinations. The grant lives in a cookie signed
 * with HMAC-SHA256 (config.cookieSecret), so the server keeps no session and a visitor cannot forge
 * or extend one. Expiry is checked on the server, whatever the browser does with the cookie.
 */
export class AccessCodes {
  private readonly cache = new Map<string, { ids: ReadonlySet<number>; expires: number }>();

  constructor(
    private readonly db: Db,
    private readonly secret: string,
  ) {}

  sign(grants: AccessGrants): string {
    const payload = Buffer.from(JSON.stringify([...grants])).toString('base64url');
    return `${payload}.${this.mac(payload)}`;
  }

  /** The unexpired grants of a cookie value; anything unsigned or malformed grants nothing. */
  verify(value: string | null, now = Date.now()): AccessGrants {
    const grants = new Map<number, number>();
    const [payload, mac] = (value ?? '').split('.');
    if (!payload || !mac) return grants;
    const expected = Buffer.from(this.mac(payload));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return grants;
    try {
      const entries: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      if (!Array.isArray(entries)) return grants;
      for (const entry of entries) {
        if (!Array.isArray(entry) || !Number.isInteger(entry[0]) || !Number.isInteger(entry[1])) continue;
        if (entry[1] * 1000 > now) grants.set(entry[0], entry[1]);
      }
    } catch {
      // A well-signed but unreadable payload can only come from an older format: it grants nothing.
    }
    return grants;
  }

  /** Opens a code: the new cookie keeps the visitor's other unexpired grants. */
  async open(slug: string, cookieHeader: string | undefined, now = Date.now()): Promise<OpenOutcome> {
    const code = await findAccessCode(this.db, { slug: slug.trim().toLowerCase() });
    if (!code) return { kind: 'unknown' };
    if (!code.isActive) return { kind: 'inactive', code };
    const grants = new Map(this.verify(readCookie(cookieHeader, ACCESS_COOKIE), now));
    const until = Math.floor(now / 1000) + code.cookieTtlHours * 3600;
    grants.delete(code.id);
    grants.set(code.id, until);
    const kept = [...grants].slice(-MAX_CODES_PER_COOKIE);
    const latest = Math.max(...kept.map(([, expiry]) => expiry));
    const unlocked = (await destinationsOfCode(this.db, code.id)).filter((item) => item.isActive);
    return {
      kind: 'opened',
      code,
      unlocked,
      cookie: this.sign(new Map(kept)),
      maxAgeSeconds: latest - Math.floor(now / 1000),
    };
  }

  /** Destination ids the request's cookie unlocks (empty for nearly every visitor, without a query). */
  async accessFor(cookieHeader: string | undefined, now = Date.now()): Promise<ReadonlySet<number>> {
    const value = readCookie(cookieHeader, ACCESS_COOKIE);
    if (!value) return new Set();
    const codeIds = [...this.verify(value, now).keys()].sort((a, b) => a - b);
    if (codeIds.length === 0) return new Set();
    const key = codeIds.join(',');
    const cached = this.cache.get(key);
    if (cached && cached.expires > now) return cached.ids;
    const ids = new Set(await destinationIdsForCodes(this.db, codeIds));
    if (this.cache.size > 1000) this.cache.clear();
    this.cache.set(key, { ids, expires: now + CACHE_TTL_MS });
    return ids;
  }

  /** After an admin edit of codes or their destinations. */
  invalidate(): void {
    this.cache.clear();
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.secret).update(`access:${payload}`).digest('base64url');
  }
}

/** `Set-Cookie` for a grant: HttpOnly, SameSite=Lax (it must travel on links from a library's site). */
export function accessCookieHeader(value: string, maxAgeSeconds: number, secure: boolean): string {
  return serializeCookie(ACCESS_COOKIE, value, { path: '/', maxAgeSeconds, secure });
}
