/**
 * Headers of the dashboard's and the console's pages and assets (decision 0023). The pages load
 * only their own scripts and styles; Mantine injects <style> elements, hence 'unsafe-inline' for
 * styles only; QR codes are PNG data URLs.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "img-src 'self' data:",
  "style-src 'self' 'unsafe-inline'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

export const DASHBOARD_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': DASHBOARD_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

/** Vite's output names: assets/<name>-<hash of 8+ url-safe characters>.<ext> */
const HASHED_ASSET = /\/assets\/[^/]+-[A-Za-z0-9_-]{8,}\.[A-Za-z0-9]+$/;

/**
 * A hashed asset never changes under its name, so browsers keep it for a year without asking;
 * everything else (index.html, which names the current hashes) is revalidated on every load.
 */
export function cacheControlFor(url: string): string {
  const path = url.split('?')[0];
  return HASHED_ASSET.test(path) ? IMMUTABLE : REVALIDATE;
}
