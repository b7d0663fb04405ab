import type { FastifyInstance } from 'fastify';
import { type Config, loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { createServices, type ServiceOverrides, type Services } from '../../src/services/container.js';
import type { Store } from '../../src/store/db.js';

export const HUMAN_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';
export const BOT_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  /** The migrated store the services run on (tests seed and inspect rows through it). */
  store: Store;
  baseUrl: string;
  /** A real HTTP request to the listening app; redirects are not followed. */
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

/** Builds the app on a migrated test store and listens on a free loopback port. */
export async function startTestApp(
  store: Store,
  env: Record<string, string> = {},
  overrides: ServiceOverrides = {},
): Promise<TestApp> {
  const config: Readonly<Config> = loadConfig({
    BASE_URL: 'http://booklink.test',
    DATABASE_URL: 'sqlite::memory:',
    PROVIDERS: 'local',
    ...env,
  });
  const services = createServices(config, store, overrides);
  const app = await buildApp({ services });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    services,
    store,
    baseUrl: address,
    get: (path, headers = {}) =>
      fetch(`${address}${path}`, { redirect: 'manual', headers: { 'user-agent': HUMAN_UA, ...headers } }),
    close: async () => {
      await app.close();
      await services.close();
    },
  };
}
