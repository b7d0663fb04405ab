import { Type } from 'typebox';
import type { RollupWorker } from '../../../services/admin/analytics.js';
import { Integer } from '../../validation.js';
import { PERIODS, renderDashboard } from '../../views/admin/dashboard.js';
import { type AdminRoutes, sendCsv, sendPage } from './context.js';

const Days = Type.Optional(
  Type.Union([Type.Literal('all'), Integer({ minimum: 1, maximum: 366 })], { default: 30 }),
);
const periodOf = (days: number | 'all' | undefined) => PERIODS.find((period) => period === days) ?? 30;

/** `/admin`: clicks, searches and misses from our own tables (no third-party tracker), and CSV exports. */
export const analyticsRoutes: AdminRoutes = async (app, { services }) => {
  const analytics = services.admin.analytics;
  let worker: RollupWorker | null = null;
  // Roll-ups and their back-fill run beside the server, never inside a page request.
  app.addHook('onReady', async () => {
    worker = analytics.startRollups({ logger: app.log });
  });
  app.addHook('onClose', async () => {
    await worker?.stop();
  });

  app.get(
    '/admin',
    { schema: { hide: true, querystring: Type.Object({ days: Days }) } },
    async (request, reply) => {
      const model = await analytics.dashboard(periodOf(request.query.days));
      return sendPage(reply, renderDashboard(request.adminViewer, model));
    },
  );

  app.get(
    '/admin/analytics.csv',
    {
      schema: {
        hide: true,
        querystring: Type.Object({
          days: Days,
          by: Type.Optional(
            Type.Union([
              Type.Literal('day'),
              Type.Literal('destination'),
              Type.Literal('book'),
              Type.Literal('country'),
              Type.Literal('referrer'),
              Type.Literal('partner'),
              Type.Literal('src'),
            ]),
          ),
        }),
      },
    },
    async (request, reply) => {
      const by = request.query.by ?? 'day';
      const days = periodOf(request.query.days);
      const csv = await analytics.csv(by, days);
      return sendCsv(reply, `clicks-by-${by}-${days}d.csv`, csv);
    },
  );
};
