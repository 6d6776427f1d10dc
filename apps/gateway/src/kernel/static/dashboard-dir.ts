import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const PACKAGE_NAME = 'qris-payments';

/**
 * Where `npm run build` puts the web app's two bundles (dist/apps/dashboard/merchant and
 * .../console): the dist/ of the checkout or image this code runs from, found by walking up to
 * the project's package.json (the image keeps /app/package.json beside /app/dist), whether the
 * gateway runs from dist/ or from source (tests).
 */
export function defaultDashboardDir(from = __dirname): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === PACKAGE_NAME)
      return join(dir, 'dist', 'apps', 'dashboard');
  }
  // Not in a checkout or the image: nothing is there, so the gateway warns and serves no dashboard.
  return join(from, 'dashboard');
}
