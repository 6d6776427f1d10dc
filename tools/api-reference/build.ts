import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The merchant API's reference page: Redoc's rendering of docs/openapi.json as one HTML file that
 * needs no network (the gateway serves it at /docs/reference, beside Swagger UI at /docs).
 *
 * `redocly build-docs --inlineBundle` puts Redoc's script into the page instead of loading it from
 * Redocly's CDN, and `disableTelemetry` keeps Redoc 3 from reporting page views to Redocly. Two
 * addresses remain that the page would still ask the internet for: Redoc's own logo in its
 * "API docs by" attribution (unconditional in Redoc 3, hidden when it cannot load). They are
 * replaced here by a small inline image, and the build fails if they are not found exactly once
 * each, so an upgrade of Redoc that moves them is noticed here, not by a merchant's firewall.
 * The gateway's Content-Security-Policy for the page refuses anything else from elsewhere.
 *
 * Usage (after build:server): node dist/tools/api-reference/build.js [output]
 */
const root = join(__dirname, '..', '..', '..');
const output = join(root, process.argv[2] ?? 'dist/apps/api-reference/index.html');

const LOGO = (width: number, text: string) =>
  `data:image/svg+xml,${encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20"><text x="0" y="15" font-family="sans-serif" font-size="13" fill="#0044D4">${text}</text></svg>`,
  )}`;
const OFFLINE_LOGOS: Record<string, string> = {
  'https://cdn.redoc.ly/redoc/logo-mini-full.svg': LOGO(60, 'Redoc'),
  'https://cdn.redoc.ly/redoc/logo-mini.svg': LOGO(20, 'R'),
};

mkdirSync(dirname(output), { recursive: true });
const redocly = spawnSync(
  process.execPath,
  [
    join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js'),
    'build-docs',
    'docs/openapi.json',
    '--inlineBundle',
    '--title',
    'Merchant API reference',
    '--openapi.disableTelemetry=true',
    '-o',
    output,
  ],
  {
    cwd: root,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    encoding: 'utf8',
  },
);
if (redocly.status !== 0) {
  process.stderr.write(`${redocly.stdout}${redocly.stderr}`);
  throw new Error(`redocly build-docs exited ${redocly.status}`);
}

let page = readFileSync(output, 'utf8');
for (const [url, inline] of Object.entries(OFFLINE_LOGOS)) {
  const found = page.split(url).length - 1;
  if (found !== 1)
    throw new Error(
      `${url} is in the built page ${found} times, not once: Redoc changed; see tools/api-reference/build.ts`,
    );
  page = page.replace(url, inline);
}
writeFileSync(output, page);
console.log(`API reference: ${output} (${Math.round(page.length / 1024)} KiB, no network needed)`);
