import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { Logger } from '@pay/platform';
import type { FastifyInstance } from 'fastify';
import { cacheControlFor, DASHBOARD_SECURITY_HEADERS } from './dashboard-headers';

/**
 * The two builds of apps/dashboard (decision 0023): the merchant dashboard on the public port,
 * the operator console under /console, an internal-only prefix (refuseInternalRoutesOnPublicPort).
 * Each is served by its face (the dashboard's, the console's).
 */
export const DASHBOARD_BUNDLES = {
  merchant: { prefix: '/dashboard', folder: 'merchant' },
  console: { prefix: '/console', folder: 'console' },
} as const;

export type DashboardBundle = (typeof DASHBOARD_BUNDLES)[keyof typeof DASHBOARD_BUNDLES];

/**
 * Serves a bundle found under `dashboardDir` (index.html and its hashed assets). A bundle that
 * is not there (a build without the web app) is logged and not served: its prefix answers 404 in
 * the envelope, like any unknown route, and the API keeps running.
 *
 * Only the files present at start-up get a route (`wildcard: false`): the bundle is immutable in
 * an image, and a path that names no file, or climbs out of the folder, never reaches the disk.
 */
export async function registerDashboardBundle(
  fastify: FastifyInstance,
  dashboardDir: string,
  { prefix, folder }: DashboardBundle,
  logger: Logger,
): Promise<void> {
  const root = join(dashboardDir, folder);
  if (!existsSync(join(root, 'index.html'))) {
    logger.warn(
      { root },
      `${prefix}/ is not served: no built bundle there (npm run build builds it; DASHBOARD_DIR moves it)`,
    );
    return;
  }
  // Its own plugin scope: the headers apply to the bundle's responses and nothing else.
  await fastify.register(async (scope) => {
    scope.addHook('onSend', async (req, reply, payload) => {
      void reply.headers(DASHBOARD_SECURITY_HEADERS);
      if (reply.statusCode < 400) void reply.header('cache-control', cacheControlFor(req.url));
      return payload;
    });
    // Hash routing: the page always lives at the folder's URL, so its relative asset URLs resolve.
    scope.get(prefix, async (_req, reply) => reply.redirect(`${prefix}/`, 301));
    await scope.register(fastifyStatic, {
      root,
      prefix: `${prefix}/`,
      wildcard: false,
      decorateReply: false,
      // Set per file by the hook above.
      cacheControl: false,
      index: ['index.html'],
    });
  });
  logger.info({ root }, `${prefix}/ serves the bundle`);
}
