import { Type } from 'typebox';
import { Integer } from '../../validation.js';
import { renderAudit } from '../../views/admin/audit.js';
import { type AdminRoutes, sendPage } from './context.js';

const PAGE_SIZE = 50;

export const auditRoutes: AdminRoutes = async (app, { services }) => {
  app.get(
    '/admin/audit',
    {
      schema: {
        hide: true,
        querystring: Type.Object({ page: Type.Optional(Integer({ minimum: 1, maximum: 100000 })) }),
      },
    },
    async (request, reply) => {
      const model = await services.admin.audit.page(request.query.page ?? 1, PAGE_SIZE);
      return sendPage(reply, renderAudit(request.adminViewer, model));
    },
  );
};
