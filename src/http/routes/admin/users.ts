import { Type } from 'typebox';
import { ok } from '../../../services/admin/commands.js';
import type { AdminUser } from '../../../services/admin/users.js';
import { renderUsers, type UsersModel } from '../../views/admin/users.js';
import { ADMINS_ONLY, type AdminRoutes, areaPage, IdParams, idParam } from './context.js';
import { submitted } from './form-errors.js';
import { formOptions, formOptionsOn, nothing, submitForm } from './submit-form.js';

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
export const userRoutes: AdminRoutes = async (app, { services }) => {
  const users = services.admin.users;
  const config = ADMINS_ONLY;
  const blank: Pick<UsersModel, 'values' | 'errors' | 'failed'> = { values: { role: 'editor' }, errors: {} };
  const page = areaPage(async () => ({ users: await users.list() }), blank, renderUsers);

  app.get('/admin/users', { config, schema: { hide: true } }, async (request, reply) => page(request, reply));

  app.post('/admin/users', formOptions(CreateBody, config), async (request, reply) =>
    submitForm(request, reply, {
      load: nothing,
      // A refused password is never sent back into the page.
      values: () => ({ ...submitted(request), password: '' }),
      run: (actor, _new, body) => users.create(actor, body),
      show: (_new, failed) => page(request, reply, failed, 422),
      done: () => '/admin/users?notice=created',
    }),
  );

  app.post('/admin/users/:id', formOptionsOn(IdParams, UpdateBody, config), async (request, reply) =>
    submitForm(request, reply, {
      load: async () => idParam(request),
      run: async (actor, id, body) => {
        const changes = { role: body.role, isActive: body.is_active, password: body.password };
        // No such account (removed meanwhile): back to the list, with nothing to report.
        return (await users.change(actor, id, changes)) ?? ok<AdminUser | null>(null);
      },
      show: (id, failed) => page(request, reply, { failed: { id, errors: failed.errors } }, 422),
      done: (_id, user) => (user ? '/admin/users?notice=saved' : '/admin/users'),
    }),
  );
};
