import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AdminSession } from '../../../services/admin/auth.js';
import type { AuditActor } from '../../../services/admin/commands.js';
import type { Services } from '../../../services/container.js';
import { HttpError } from '../../errors.js';
import { Integer } from '../../validation.js';
import type { AdminViewer } from '../../views/admin/layout.js';

declare module 'fastify' {
  interface FastifyRequest {
    adminSession: AdminSession | null;
    /** Who is signed in, as the layout shows them (with the CSRF token its forms carry). */
    readonly adminViewer: AdminViewer;
    /** Who acts, for the audit log. */
    readonly adminActor: AuditActor;
  }
  interface FastifyContextConfig {
    /** Reachable without a session (the login form). */
    adminPublic?: boolean;
    /** Only this role may use the route (users, API keys). */
    adminRole?: 'admin';
  }
}

/** The route config of the admins-only areas (users, API keys, brand, offers, partners, affiliate tags). */
export const ADMINS_ONLY = { adminRole: 'admin' } as const;

export interface AdminRouteOptions {
  services: Services;
}

/** An admin area's routes: a plugin registered with the services (see `index.ts`). */
export type AdminRoutes = FastifyPluginAsyncTypebox<AdminRouteOptions>;

function sessionOf(request: FastifyRequest): AdminSession {
  // The area-wide hook has already redirected every request without one.
  if (!request.adminSession) throw new HttpError(401, 'no_session', 'Sign in first.');
  return request.adminSession;
}

/** `request.adminViewer` and `request.adminActor`, read from the session the area-wide hook found. */
export function decorateAdminRequest(app: FastifyInstance): void {
  app.decorateRequest('adminSession', null);
  app.decorateRequest('adminViewer', {
    getter(this: FastifyRequest): AdminViewer {
      const session = sessionOf(this);
      return { email: session.user.email, role: session.user.role, csrfToken: session.csrfToken };
    },
  });
  app.decorateRequest('adminActor', {
    getter(this: FastifyRequest): AuditActor {
      const session = sessionOf(this);
      return { id: session.user.id, email: session.user.email };
    },
  });
}

export function sameToken(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** What every admin page's view is given besides its model: the fixed text of `?notice=`. */
export interface Noticed {
  notice: string | null;
}

/**
 * An admin page: its view drawn for who is signed in from the model and the `?notice=` text (a model
 * that shows a refused form says `notice: null`), sent as `sendPage` sends it.
 */
export function sendAdminPage<Model>(
  request: FastifyRequest,
  reply: FastifyReply,
  render: (viewer: AdminViewer, model: NoInfer<Model> & Noticed) => string,
  model: Model,
  status = 200,
): FastifyReply {
  return sendPage(reply, render(request.adminViewer, { notice: noticeOf(request), ...model }), status);
}

/**
 * How every admin area draws its page: with the state of its form (by default what the page shows
 * first; after a refused post the values refilled and the errors beside the fields) and the status
 * (422 for a refused form).
 */
export type AdminPage<Form> = (
  request: FastifyRequest,
  reply: FastifyReply,
  form?: Form,
  status?: number,
) => Promise<FastifyReply>;

/**
 * The `AdminPage` of an area with one page and one form on it: what `load` finds, the form's state
 * over `blank` (what it shows first), drawn by `render`.
 */
export function areaPage<Form extends object, Shown extends object>(
  load: () => Promise<Shown>,
  blank: Form,
  render: (viewer: AdminViewer, model: Shown & Form & Noticed) => string,
): AdminPage<Partial<Form>> {
  return async (request, reply, form = {}, status = 200) =>
    sendAdminPage(request, reply, render, { ...(await load()), ...blank, ...form }, status);
}

export function sendPage(reply: FastifyReply, page: string, status = 200): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-frame-options', 'DENY')
    .send(page);
}

/** A report's CSV (clicks, earnings, a partner's clicks): never cached, saved by the browser as `filename`. */
export function sendCsv(reply: FastifyReply, filename: string, csv: string): FastifyReply {
  return reply
    .type('text/csv; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .send(csv);
}

/** Post/redirect/get: a successful form lands on a page that reloading does not resubmit. */
export function seeOther(reply: FastifyReply, location: string): FastifyReply {
  return reply.header('cache-control', 'no-store').redirect(location, 303);
}

/** Fixed texts for `?notice=`: nothing from the query string is ever echoed back. */
const NOTICES: Readonly<Record<string, string>> = {
  saved: 'Saved.',
  created: 'Created.',
  deleted: 'Removed.',
  revoked: 'Revoked.',
};
export const noticeOf = (request: FastifyRequest): string | null => {
  const code = (request.query as { notice?: unknown } | undefined)?.notice;
  return typeof code === 'string' ? (NOTICES[code] ?? null) : null;
};

export const IdParams = Type.Object({ id: Integer({ minimum: 1 }) });

/** The `:id` of a route, or a 404 when it is not a positive integer (validation errors are attached). */
export function idParam(request: FastifyRequest): number {
  const id = Number((request.params as { id?: unknown }).id);
  if (!Number.isInteger(id) || id < 1)
    throw new HttpError(404, 'not_found', 'There is nothing at this address.');
  return id;
}

/**
 * What the route's `:id` names, or a 404 that names the kind (`book_not_found`, "There is no book
 * with this id.") when there is none.
 */
export async function foundById<T>(
  request: FastifyRequest,
  find: (id: number) => Promise<T | null | undefined>,
  kind: 'book' | 'list' | 'destination',
): Promise<T> {
  const found = await find(idParam(request));
  if (!found) throw new HttpError(404, `${kind}_not_found`, `There is no ${kind} with this id.`);
  return found;
}
