import { loadConfig } from '@pay/platform';
import { workersConfigSchema } from './workers.config';

const base = { DATABASE_URL: 'postgresql://u@db:5432/pay' };

describe('workers configuration', () => {
  it('reads callbacks, schedules, storage and queues into their sections', () => {
    expect(
      loadConfig(workersConfigSchema, {
        ...base,
        WEBHOOK_ALLOW_LOOPBACK: 'true',
        S3_PUBLIC_ENDPOINT: 'https://files.example.com',
      }),
    ).toMatchObject({
      ops: { port: 9103 },
      redis: { url: 'redis://127.0.0.1:6379/0' },
      queues: { prefix: 'bull' },
      webhooks: {
        allowLoopback: true,
        timeoutMs: 10_000,
        connectTimeoutMs: 3_000,
        firstByteTimeoutMs: 5_000,
        maxResponseBytes: 4096,
        concurrency: 20,
        merchantConcurrency: 5,
        dispatchIntervalMs: 5_000,
        leaseGraceMs: 30_000,
      },
      settlement: { scanIntervalMs: 60_000 },
      payins: { expiryScanIntervalMs: 30_000 },
      recon: { stallMs: 30_000 },
      storage: { endpoint: 'http://127.0.0.1:9000', publicEndpoint: 'https://files.example.com', bucket: 'recon' },
    });
  });

  it('refuses callbacks to loopback in production', () => {
    expect(() =>
      loadConfig(workersConfigSchema, { ...base, NODE_ENV: 'production', WEBHOOK_ALLOW_LOOPBACK: 'true' }),
    ).toThrow('WEBHOOK_ALLOW_LOOPBACK: must not be true when NODE_ENV=production');
  });

  it('SANDBOX_MODE (the sandbox clocks): on outside production unless set; production refuses it', () => {
    expect(loadConfig(workersConfigSchema, base).sandbox).toBe(true);
    expect(loadConfig(workersConfigSchema, { ...base, SANDBOX_MODE: 'false' }).sandbox).toBe(false);
    const production = {
      ...base,
      NODE_ENV: 'production',
      S3_ACCESS_KEY: 'recon-writer',
      S3_SECRET_KEY: 'c2f1e9b7a4d84f0e9a3b6c5d7e8f9a0b',
    };
    expect(loadConfig(workersConfigSchema, production).sandbox).toBe(false);
    expect(() => loadConfig(workersConfigSchema, { ...production, SANDBOX_MODE: 'true' })).toThrow(
      'SANDBOX_MODE: must not be true when NODE_ENV=production (a sandbox clock moves settlements and callbacks ahead of time)',
    );
  });

  it('WEBHOOK_ALLOW_PRIVATE_HOSTS: host names, lower-cased; an IP or a wildcard is refused; production refuses any', () => {
    expect(
      loadConfig(workersConfigSchema, { ...base, WEBHOOK_ALLOW_PRIVATE_HOSTS: ' E2E , receiver.test ' }).webhooks,
    ).toMatchObject({ allowLoopback: false, allowPrivateHosts: ['e2e', 'receiver.test'] });
    expect(loadConfig(workersConfigSchema, base).webhooks.allowPrivateHosts).toEqual([]);
    for (const bad of ['10.0.0.5', '0x7f.1', 'e2e.0x1', 'fd00::1', '*.internal', 'e2e:4000', 'http://e2e'])
      expect(() => loadConfig(workersConfigSchema, { ...base, WEBHOOK_ALLOW_PRIVATE_HOSTS: `e2e,${bad}` })).toThrow(
        `WEBHOOK_ALLOW_PRIVATE_HOSTS: "${bad}" is not a host name`,
      );
    expect(() =>
      loadConfig(workersConfigSchema, { ...base, NODE_ENV: 'production', WEBHOOK_ALLOW_PRIVATE_HOSTS: 'e2e' }),
    ).toThrow('WEBHOOK_ALLOW_PRIVATE_HOSTS: must be empty when NODE_ENV=production');
  });

  it.each([
    [{ OPS_HOST: '0.0.0.0' }, 'the service listens beyond loopback (OPS_HOST=0.0.0.0)'],
    [{ NODE_ENV: 'production' }, 'NODE_ENV=production'],
  ])("refuses MinIO's default credentials, and requires the store's own, when %o", (env, why) => {
    const minio = { ...base, ...env, S3_ACCESS_KEY: 'minioadmin', S3_SECRET_KEY: 'minioadmin' };
    expect(() => loadConfig(workersConfigSchema, minio)).toThrow(
      `S3_ACCESS_KEY: must not be a published credential (a store's default such as MinIO's minioadmin, or a value committed in this repository) when ${why}`,
    );
    expect(() => loadConfig(workersConfigSchema, minio)).toThrow('S3_SECRET_KEY: must not be a published credential');
    expect(() => loadConfig(workersConfigSchema, { ...base, ...env })).toThrow(
      `S3_SECRET_KEY: is required when ${why}`,
    );
    const own = { S3_ACCESS_KEY: 'recon-writer', S3_SECRET_KEY: 'c2f1e9b7a4d84f0e9a3b6c5d7e8f9a0b' };
    expect(loadConfig(workersConfigSchema, { ...base, ...env, ...own }).storage).toMatchObject({
      accessKey: 'recon-writer',
      secretKey: own.S3_SECRET_KEY,
    });
  });
});
