import { Type } from 'typebox';
import { UNTAGGED_DAYS } from '../../../services/admin/affiliate.js';
import { Integer } from '../../validation.js';
import { type AffiliateModel, renderAffiliate } from '../../views/admin/affiliate.js';
import { EARNING_PERIODS, renderEarnings } from '../../views/admin/earnings.js';
import type { AdminViewer } from '../../views/admin/layout.js';
import {
  ADMINS_ONLY,
  type AdminPage,
  type AdminRoutes,
  seeOther,
  sendAdminPage,
  sendCsv,
  sendPage,
} from './context.js';
import { schemaErrors } from './form-errors.js';
import { formOptions } from './submit-form.js';

const TagBody = Type.Object({
  destination_id: Integer({ minimum: 1 }),
  country: Type.String({ default: '', maxLength: 2 }),
  tag: Type.String({ default: '', maxLength: 100 }),
});
const Days = Type.Object({ days: Integer({ minimum: 1, maximum: 366, default: 30 }) });
const periodOf = (days: number) => EARNING_PERIODS.find((period) => period === days) ?? 30;

/**
 * `/admin/affiliate`: the operator's tags per destination and storefront (admins only: tags decide
 * who is paid), every change audited and live on every instance; `/admin/earnings`: what earns.
 */
export const affiliateRoutes: AdminRoutes = async (app, { services }) => {
  const { affiliate, earnings } = services.admin;
  const adminOnly = ADMINS_ONLY;

  const settingsPage: AdminPage<AffiliateModel['failed']> = async (request, reply, failed) => {
    const model = { overview: await affiliate.overview(), failed };
    const render = (viewer: AdminViewer, full: AffiliateModel) =>
      renderAffiliate(viewer, full, UNTAGGED_DAYS);
    return sendAdminPage(request, reply, render, model, failed ? 422 : 200);
  };

  app.get('/admin/affiliate', { config: adminOnly, schema: { hide: true } }, async (request, reply) =>
    settingsPage(request, reply),
  );

  app.post('/admin/affiliate/tags', formOptions(TagBody, adminOnly), async (request, reply) => {
    const body = request.body as Partial<{ destination_id: number; country: string; tag: string }>;
    const input = {
      destinationId: Number(body.destination_id ?? 0),
      country: String(body.country ?? ''),
      tag: String(body.tag ?? ''),
    };
    const errors = schemaErrors(request);
    const result = errors
      ? { ok: false as const, errors }
      : await affiliate.setTag(request.adminActor, input);
    if (!result.ok) return settingsPage(request, reply, { ...input, errors: result.errors });
    return seeOther(reply, '/admin/affiliate?notice=saved');
  });

  app.get('/admin/earnings', { schema: { hide: true, querystring: Days } }, async (request, reply) => {
    const model = await earnings.model(periodOf(request.query.days));
    return sendPage(reply, renderEarnings(request.adminViewer, model));
  });

  for (const what of ['stores', 'books'] as const) {
    app.get(
      `/admin/earnings/${what}.csv`,
      { schema: { hide: true, querystring: Days } },
      async (request, reply) => {
        const days = periodOf(request.query.days);
        const csv = what === 'stores' ? await earnings.storesCsv(days) : await earnings.booksCsv(days);
        return sendCsv(reply, `earnings-by-${what === 'stores' ? 'store' : 'book'}-${days}d.csv`, csv);
      },
    );
  }
};
