import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../services/container.js';

/** The reader-facing routes (`pages/`, `api/`): a plugin registered with the services (see `app.ts`). */
export type PublicRoutes = FastifyPluginAsyncTypebox<{ services: Services }>;

/** What a page route answers, as the OpenAPI document says it. */
export const HtmlPage = Type.String({ description: 'HTML page' });

/** The options of a reader page's route: its OpenAPI description, under the `pages` tag. */
export const pageSchema = <Schema extends object>(schema: Schema) => ({
  schema: { tags: ['pages'], ...schema },
});
