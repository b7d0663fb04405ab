import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import * as codes from '../../../store/access-codes.js';
import { writeAudit } from '../../../store/audit.js';
import { listAllDestinations } from '../../../store/destinations.js';
import { isUniqueViolation } from '../../../store/errors.js';
import { Integer } from '../../validation.js';
import { checkbox, type FormErrors, type FormValues, field, formError } from '../../views/admin/form.js';
import { csrfField, renderAdminPage } from '../../views/admin/layout.js';
import { html } from '../../views/html.js';
import {
  type AdminRouteOptions,
  actorOf,
  dbOf,
  IdParams,
  idParam,
  noticeOf,
  seeOther,
  sendPage,
  viewerOf,
} from './context.js';
import { schemaErrors, submitted } from './form-errors.js';

/** SPEC 2.4 "access code create", "access code update" and "access code add/remove destination". */
const CreateBody = Type.Object({
  display_name: Type.String({ default: '', maxLength: 200 }),
  slug: Type.String({ default: '', maxLength: 100, pattern: '^$|^[a-z0-9][a-z0-9-]*$' }),
  description: Type.String({ default: '', maxLength: 2000 }),
  cookie_ttl_hours: Integer({ default: 24, minimum: 1, maximum: 8760 }),
  is_active: Type.Boolean({ default: true }),
});
const UpdateBody = Type.Object({
  display_name: Type.String({ default: '', maxLength: 200 }),
  description: Type.String({ default: '', maxLength: 2000 }),
  cookie_ttl_hours: Integer({ default: 24, minimum: 1, maximum: 8760 }),
  is_active: Type.Boolean({ default: true }),
});
const DestinationBody = Type.Object({ destination_id: Integer({ default: 0 }) });

/** Access codes: patron links that unlock non-public destinations (a library's catalogue). */
export const accessCodeRoutes: FastifyPluginAsyncTypebox<AdminRouteOptions> = async (app, { services }) => {
  const { db } = services.store;
  const audit = (request: FastifyRequest, action: string, id: number, after: unknown) =>
    writeAudit(dbOf(services), actorOf(request), { action, entityType: 'access_code', entityId: id, after });
  const changed = () => services.events.emit('access-codes-changed');

  async function page(
    request: FastifyRequest,
    reply: FastifyReply,
    values: FormValues,
    errors: FormErrors,
    status = 200,
  ) {
    const viewer = viewerOf(request);
    const all = await codes.listAccessCodes(db);
    const destinations = await listAllDestinations(db);
    const linked = await Promise.all(all.map((code) => codes.destinationsOfCode(db, code.id)));
    const rows = all.map((code, i) => {
      const mine = linked[i] ?? [];
      return html`<section class="admin-card" id="code-${code.id}">
  <h2>${code.displayName || code.slug} <code>/access/${code.slug}</code>${code.isActive ? '' : ' (inactive)'}</h2>
  <form method="post" action="/admin/access-codes/${code.id}">${csrfField(viewer)}
    ${field('Display name', 'display_name', { display_name: code.displayName }, {})}
    ${field('Description', 'description', { description: code.description }, {})}
    ${field('Cookie lifetime (hours)', 'cookie_ttl_hours', { cookie_ttl_hours: code.cookieTtlHours }, {}, { type: 'number' })}
    <input type="hidden" name="is_active" value="false">${checkbox('Active', 'is_active', { is_active: code.isActive }, {})}
    <button type="submit" class="button">Save</button>
  </form>
  <ul>${mine.map((d) => html`<li>${d.displayName} <form method="post" action="/admin/access-codes/${code.id}/destinations/remove" class="inline">${csrfField(viewer)}<input type="hidden" name="destination_id" value="${d.id}"><button type="submit">Remove</button></form></li>`)}</ul>
  <form method="post" action="/admin/access-codes/${code.id}/destinations">${csrfField(viewer)}
    <select name="destination_id" aria-label="Destination">${destinations.filter((d) => !mine.some((m) => m.id === d.id)).map((d) => html`<option value="${d.id}">${d.displayName}${d.isPublic ? '' : ' (private)'}</option>`)}</select>
    <button type="submit" class="button">Add destination</button>
  </form>
</section>`;
    });
    const body = html`<h1>Access codes</h1>
<form method="post" action="/admin/access-codes" class="admin-card">${csrfField(viewer)}
  <h2>New access code</h2>${formError(errors)}
  ${field('Display name', 'display_name', values, errors, { required: true })}
  ${field('Slug', 'slug', values, errors, { required: true, hint: 'Readers open /access/{slug}' })}
  ${field('Description', 'description', values, errors)}
  ${field('Cookie lifetime (hours)', 'cookie_ttl_hours', { cookie_ttl_hours: 24, ...values }, errors, { type: 'number' })}
  <input type="hidden" name="is_active" value="false">${checkbox('Active', 'is_active', { is_active: true, ...values }, errors)}
  <button type="submit" class="button">Create</button>
</form>
${rows}`;
    return sendPage(
      reply,
      renderAdminPage({
        title: 'Access codes',
        viewer,
        section: 'access-codes',
        notice: noticeOf(request),
        body,
      }),
      status,
    );
  }

  app.get('/admin/access-codes', { schema: { hide: true } }, async (request, reply) =>
    page(request, reply, {}, {}),
  );

  app.post(
    '/admin/access-codes',
    { attachValidation: true, schema: { hide: true, body: CreateBody } },
    async (request, reply) => {
      const values = submitted(request);
      const errors = schemaErrors(request);
      if (errors) return page(request, reply, values, errors, 422);
      const { display_name, slug, description, cookie_ttl_hours, is_active } = request.body;
      if (!slug) return page(request, reply, values, { slug: 'A slug is required.' }, 422);
      try {
        const input = {
          displayName: display_name,
          slug,
          description,
          cookieTtlHours: cookie_ttl_hours,
          isActive: is_active,
        };
        const code = await codes.insertAccessCode(db, input);
        await audit(request, 'access_code.create', code.id, input);
      } catch (error) {
        if (!isUniqueViolation(error, 'slug')) throw error;
        return page(request, reply, values, { slug: 'Another access code has this slug.' }, 422);
      }
      changed();
      return seeOther(reply, '/admin/access-codes?notice=created');
    },
  );

  app.post(
    '/admin/access-codes/:id',
    { attachValidation: true, schema: { hide: true, params: IdParams, body: UpdateBody } },
    async (request, reply) => {
      const id = idParam(request);
      const errors = schemaErrors(request);
      if (errors) return page(request, reply, submitted(request), errors, 422);
      const { display_name, description, cookie_ttl_hours, is_active } = request.body;
      const input = {
        displayName: display_name,
        description,
        cookieTtlHours: cookie_ttl_hours,
        isActive: is_active,
      };
      await codes.updateAccessCode(db, id, input);
      await audit(request, 'access_code.update', id, input);
      changed();
      return seeOther(reply, '/admin/access-codes?notice=saved');
    },
  );

  for (const action of ['add', 'remove'] as const) {
    const path =
      action === 'add'
        ? '/admin/access-codes/:id/destinations'
        : '/admin/access-codes/:id/destinations/remove';
    app.post(
      path,
      { attachValidation: true, schema: { hide: true, params: IdParams, body: DestinationBody } },
      async (request, reply) => {
        const id = idParam(request);
        const destinationId = request.body.destination_id;
        if (!request.validationError && destinationId > 0) {
          if (action === 'add') await codes.linkDestination(db, id, destinationId);
          else await codes.unlinkDestination(db, id, destinationId);
          await audit(request, `access_code.${action}_destination`, id, { destination_id: destinationId });
          changed();
        }
        return seeOther(reply, `/admin/access-codes?notice=saved#code-${id}`);
      },
    );
  }
};
