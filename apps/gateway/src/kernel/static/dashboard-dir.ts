import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const PACKAGE_NAME = 'qris-payments';

/**
 * Where `npm run build` puts what the gateway serves besides its code: dist/apps of the checkout
 * or image this code runs from (dashboard/merchant, dashboard/console, api-reference), found by
 * walking up to the project's package.json (the image keeps /app/package.json beside /app/dist),
 * whether the gateway runs from dist/ or from source (tests).
 */
export function defaultBuildDir(from = __dirname): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === PACKAGE_NAME)
      return join(dir, 'dist', 'apps');
  }
  // Not in a checkout or the image: nothing is there, so the gateway warns and serves none of it.
  return from;
}

/** The web app's two bundles (dist/apps/dashboard/merchant and .../console). */
export function defaultDashboardDir(from = __dirname): string {
  return join(defaultBuildDir(from), 'dashboard');
}

/** The merchant API's reference page, Redoc with its script inlined (`npm run build:reference`). */
export function defaultApiReferenceFile(from = __dirname): string {
  return join(defaultBuildDir(from), 'api-reference', 'index.html');
}
