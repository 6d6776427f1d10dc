import { loadConfig } from '@pay/platform';
import { adminConfigSchema } from './admin.config';

describe('admin CLI configuration', () => {
  it('needs nothing to start (--help), and takes only `true` as allowing loopback callbacks', () => {
    expect(loadConfig(adminConfigSchema, {})).toEqual({
      database: { url: undefined },
      webhooks: { allowLoopback: false, allowPrivateHosts: [] },
      links: { dashboard: 'http://localhost:3000/dashboard', console: 'http://localhost:3001/console' },
      // For `books export` (the workers' queue and the recon bucket): the services' own defaults.
      queues: { prefix: 'bull' },
      redis: { url: 'redis://127.0.0.1:6379/0' },
      storage: {
        accessKey: 'minioadmin',
        bucket: 'recon',
        endpoint: 'http://127.0.0.1:9000',
        publicEndpoint: undefined,
        region: 'us-east-1',
        secretKey: 'minioadmin',
        urlTtlSeconds: 3600,
      },
      // For `recon run --snap`: no SNAP provider, the acquirer our own.
      snap: null,
      acquirer: { kind: 'self' },
    });
    expect(loadConfig(adminConfigSchema, { WEBHOOK_ALLOW_LOOPBACK: 'true' }).webhooks.allowLoopback).toBe(true);
    expect(loadConfig(adminConfigSchema, { WEBHOOK_ALLOW_LOOPBACK: '1' }).webhooks.allowLoopback).toBe(false);
    expect(loadConfig(adminConfigSchema, { DASHBOARD_PUBLIC_URL: '' }).links.dashboard).toBe(
      'http://localhost:3000/dashboard',
    );
  });
});
