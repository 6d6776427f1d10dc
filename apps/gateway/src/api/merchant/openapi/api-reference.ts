import { existsSync, readFileSync } from 'node:fs';
import type { Logger } from '@pay/platform';
import type { FastifyInstance } from 'fastify';

export const API_REFERENCE_PATH = '/docs/reference';

/**
 * The page loads nothing from anywhere: Redoc's script and styles are inlined in it (that is what
 * makes it work offline), its fonts are the system's, its search runs in a blob: worker. Anything
 * it tried to fetch from elsewhere would be refused, so a regression to a CDN shows in the browser.
 */
export const API_REFERENCE_CSP = [
  "default-src 'none'",
  "script-src 'unsafe-inline'",
  "style-src 'unsafe-inline'",
  'img-src data:',
  'font-src data:',
  'worker-src blob:',
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/**
 * Redoc's rendering of docs/openapi.json at /docs/reference, beside Swagger UI at /docs: one HTML
 * file, built by `npm run build:reference` (`redocly build-docs --inlineBundle`) into
 * dist/apps/api-reference, read once at start-up. A build without it serves no page (a warning at
 * start-up, 404 in the envelope), as with the web app's bundles.
 */
export function registerApiReference(fastify: FastifyInstance, file: string, logger: Logger): void {
  if (!existsSync(file)) {
    logger.warn(
      { file },
      `${API_REFERENCE_PATH} is not served: the page is not built (npm run build builds it; Swagger UI at /docs is)`,
    );
    return;
  }
  const page = readFileSync(file);
  fastify.get(API_REFERENCE_PATH, async (_req, reply) =>
    reply
      .headers({
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': API_REFERENCE_CSP,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cache-control': 'no-cache',
      })
      .send(page),
  );
}
