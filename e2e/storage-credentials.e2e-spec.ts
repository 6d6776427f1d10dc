import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '@pay/testing';

/**
 * The built services that read the storage settings refuse, at start-up, object-store
 * credentials anyone can read (MinIO's, S3Proxy's, s3rver's defaults, values committed in this
 * repository) once other machines can reach them or NODE_ENV=production: exit 1, naming the
 * setting, before they connect to anything.
 */
const OWN_SECRETS = { ACQUIRER_SECRET: '3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e' };

function start(service: 'gateway' | 'workers', env: Record<string, string>) {
  const result = spawnSync(process.execPath, [join(repoRoot(), 'dist', 'apps', service, 'src', 'main.js')], {
    // Nothing listens there: a service that got past its settings would fail on something else.
    env: { PATH: process.env.PATH, DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none', ...OWN_SECRETS, ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { status: result.status, stderr: result.stderr };
}

describe('published object-store credentials at start-up', () => {
  it.each([
    [
      'gateway',
      'beyond loopback',
      'minioadmin',
      'minioadmin',
      { GATEWAY_HOST: '0.0.0.0', GATEWAY_PORT: '0', GATEWAY_INTERNAL_PORT: '0' },
    ],
    ['gateway', 'in production', 'local-identity', 'local-credential', { NODE_ENV: 'production' }],
    ['workers', 'beyond loopback', 'S3RVER', 'S3RVER', { OPS_HOST: '0.0.0.0', OPS_PORT: '0' }],
    ['workers', 'in production', 'minioadmin', 'minioadmin-local', { NODE_ENV: 'production' }],
  ] as const)(
    '%s %s with %s / %s exits 1 naming S3_ACCESS_KEY and S3_SECRET_KEY',
    (service, _where, key, secret, env) => {
      const { status, stderr } = start(service, { ...env, S3_ACCESS_KEY: key, S3_SECRET_KEY: secret });
      expect(status).toBe(1);
      expect(stderr).toContain(`${service}: Invalid configuration:`);
      expect(stderr).toContain('  - S3_ACCESS_KEY: must not be a published credential');
      expect(stderr).toContain('  - S3_SECRET_KEY: must not be a published credential');
    },
  );
});
