import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { changeUser, createUser } from '../../../services/admin/users.js';
import { listUsers } from '../../../store/users.js';
import { renderUsers, type UsersModel } from '../../views/admin/users.js';
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

const Role = Type.Union([Type.Literal('admin'), Type.Literal('editor')], { default: 'editor' });
const CreateBody = Type.Object({
  email: Type.String({ default: '', maxLength: 320 }),
  password: Type.String({ default: '', maxLength: 500 }),
  role: Role,
});
const UpdateBody = Type.Object({
  role: Role,
  is_active: Type.Boolean({ default: true }),
  password: Type.String({ default: '', maxLength: 500 }),
});

/** Accounts: admins only (the area-wide hook enforces `adminRole`). */
export const userRoutes: FastifyPluginAsyncTypebox<AdminRouteOptions> = async (app, { services }) => {
  const db = dbOf(services);
  const config = { adminRole: 'admin' as const };
  const page = async (
    request: FastifyRequest,
    reply: FastifyReply,
    extra: Partial<UsersModel>,
    status = 200,
  ) => {
    const model: UsersModel = {
      users: await listUsers(db),
      values: { role: 'editor' },
      errors: {},
      notice: noticeOf(request),
      ...extra,
    };
    return sendPage(reply, renderUsers(viewerOf(request), model), status);
  };

  app.get('/admin/users', { config, schema: { hide: true } }, async (request, reply) =>
    page(request, reply, {}),
  );

  app.post(
    '/admin/users',
    { config, attachValidation: true, schema: { hide: true, body: CreateBody } },
    async (request, reply) => {
      const values = { ...submitted(request), password: '' };
      const errors = schemaErrors(request);
      if (errors) return page(request, reply, { values, errors }, 422);
      const result = await createUser(db, actorOf(request), request.body);
      if (!result.ok) return page(request, reply, { values, errors: result.errors }, 422);
      return seeOther(reply, '/admin/users?notice=created');
    },
  );

  app.post(
    '/admin/users/:id',
    { config, attachValidation: true, schema: { hide: true, params: IdParams, body: UpdateBody } },
    async (request, reply) => {
      const id = idParam(request);
      const errors = schemaErrors(request);
      if (errors) return page(request, reply, { failed: { id, errors } }, 422);
      const body = request.body;
      const result = await changeUser(db, actorOf(request), id, {
        role: body.role,
        isActive: body.is_active,
        password: body.password,
      });
      if (!result) return seeOther(reply, '/admin/users');
      if (!result.ok) return page(request, reply, { failed: { id, errors: result.errors } }, 422);
      return seeOther(reply, '/admin/users?notice=saved');
    },
  );
};
