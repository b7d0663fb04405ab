import { Type } from 'typebox';
import { type KeysModel, renderKeys } from '../../views/admin/keys.js';
import { ADMINS_ONLY, type AdminRoutes, areaPage, IdParams, idParam, seeOther } from './context.js';
import { schemaErrors, submitted } from './form-errors.js';
import { BLANK_FORM, formOptions } from './submit-form.js';

const CreateBody = Type.Object({
  name: Type.String({ default: '', maxLength: 100 }),
  ingest: Type.Boolean({ default: false }),
});

/** API keys (admins only): create (the key is shown once), scope, revoke; usage per key and per source. */
export const keyRoutes: AdminRoutes = async (app, { services }) => {
  const keys = services.admin.keys;
  const config = ADMINS_ONLY;
  // The form's state may carry the key just created (shown once, see below).
  const blank: Pick<KeysModel, 'values' | 'errors' | 'created'> = BLANK_FORM;
  const page = areaPage(async () => ({ overview: await keys.overview() }), blank, renderKeys);

  app.get('/admin/keys', { config, schema: { hide: true } }, async (request, reply) => page(request, reply));

  app.post(
    '/admin/keys',
    formOptions(CreateBody, config),
    // Not submitForm: a success is rendered, not redirected (see below).
    async (request, reply) => {
      const values = submitted(request);
      const errors = schemaErrors(request);
      if (errors) return page(request, reply, { values, errors }, 422);
      const result = await keys.create(
        request.adminActor,
        request.body.name,
        request.body.ingest ? ['ingest'] : [],
      );
      if (!result.ok) return page(request, reply, { values, errors: result.errors }, 422);
      // Rendered, not redirected: the clear key must never sit in a URL or a later page.
      return page(request, reply, { created: result.value.key }, 201);
    },
  );

  app.post(
    '/admin/keys/:id/revoke',
    { config, schema: { hide: true, params: IdParams } },
    async (request, reply) => {
      await keys.revoke(request.adminActor, idParam(request));
      return seeOther(reply, '/admin/keys?notice=revoked');
    },
  );
};
