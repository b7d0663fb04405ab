import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { listAudit } from '../../../store/audit.js';
import { Integer } from '../../validation.js';
import { renderAudit } from '../../views/admin/audit.js';
import { type AdminRouteOptions, dbOf, sendPage, viewerOf } from './context.js';

const PAGE_SIZE = 50;

export const auditRoutes: FastifyPluginAsyncTypebox<AdminRouteOptions> = async (app, { services }) => {
  const db = dbOf(services);
  app.get(
    '/admin/audit',
    {
      schema: {
        hide: true,
        querystring: Type.Object({ page: Type.Optional(Integer({ minimum: 1, maximum: 100000 })) }),
      },
    },
    async (request, reply) => {
      const page = request.query.page ?? 1;
      const rows = await listAudit(db, { limit: PAGE_SIZE + 1, offset: (page - 1) * PAGE_SIZE });
      return sendPage(
        reply,
        renderAudit(viewerOf(request), rows.slice(0, PAGE_SIZE), page, rows.length > PAGE_SIZE),
      );
    },
  );
};
