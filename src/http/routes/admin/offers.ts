import { Type } from 'typebox';
import type { FormErrors } from '../../views/admin/form.js';
import { renderOfferSettings } from '../../views/admin/offers.js';
import { ADMINS_ONLY, type AdminPage, type AdminRoutes, sendAdminPage } from './context.js';
import { formOptions, nothing, submitForm } from './submit-form.js';

/** One checkbox per source: a ticked box posts `on`, an unticked one nothing. */
const OffersBody = Type.Object({
  _csrf: Type.Optional(Type.String()),
  source_googlebooks: Type.Optional(Type.Literal('on')),
  source_itunes: Type.Optional(Type.Literal('on')),
  source_openlibrary: Type.Optional(Type.Literal('on')),
});

/** The offer sources' switches (admins only); each change is audited and reaches every instance. */
export const offerRoutes: AdminRoutes = async (app, { services }) => {
  const offers = services.admin.offers;
  const config = ADMINS_ONLY;
  const ttlHours = Math.round(services.config.offerTtlMs / 3_600_000);
  const page: AdminPage<FormErrors> = async (request, reply, errors, status = 200) =>
    sendAdminPage(
      request,
      reply,
      renderOfferSettings,
      { sources: await offers.settings(), errors, ttlHours },
      status,
    );

  app.get('/admin/offers', { config, schema: { hide: true } }, async (request, reply) =>
    page(request, reply),
  );

  app.post('/admin/offers', formOptions(OffersBody, config), async (request, reply) =>
    submitForm(request, reply, {
      load: nothing,
      values: () => ({}),
      run: (actor, _none, body) =>
        offers.save(actor, [
          ...(body.source_googlebooks ? ['googlebooks'] : []),
          ...(body.source_itunes ? ['itunes'] : []),
          ...(body.source_openlibrary ? ['openlibrary'] : []),
        ]),
      show: (_none, failed) => page(request, reply, failed.errors, 422),
      done: () => '/admin/offers?notice=saved',
    }),
  );
};
