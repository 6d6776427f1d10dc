import { z } from 'zod';
import { ConfigError, loadConfig } from '../config/config';
import { storageEnvShape, storageSection } from './storage.config';
import { PUBLISHED_STORAGE_CREDENTIALS, refusePublishedStorageCredentials } from './storage-credentials';

/** A service that reads the storage settings and listens on LISTEN_HOST, as the gateway and the workers do. */
const schema = z
  .object({
    NODE_ENV: z.string().default('development'),
    LISTEN_HOST: z.string().default('127.0.0.1'),
    ...storageEnvShape,
  })
  .superRefine((c, ctx) => refusePublishedStorageCredentials(c, { LISTEN_HOST: c.LISTEN_HOST }, ctx))
  .transform(storageSection);

const problems = (env: Record<string, string>): string[] => {
  try {
    loadConfig(schema, env);
    return [];
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return err.problems;
  }
};
const OWN = { S3_ACCESS_KEY: 'payments-recon-7f3a9c', S3_SECRET_KEY: 'q8Jx2mVb7LwN4pRt9sKd3fHg6yZc1aEu' };
const EXPOSED: [string, Record<string, string>, string][] = [
  ['in production', { NODE_ENV: 'production' }, 'when NODE_ENV=production'],
  ['beyond loopback', { LISTEN_HOST: '0.0.0.0' }, 'when the service listens beyond loopback (LISTEN_HOST=0.0.0.0)'],
];

describe('published object-store credentials', () => {
  it.each(EXPOSED)('%s: the access key and the secret key are required', (_label, env, why) => {
    expect(problems(env)).toEqual([
      `S3_ACCESS_KEY: is required ${why}: the object store's own credentials`,
      `S3_SECRET_KEY: is required ${why}: the object store's own credentials`,
    ]);
    expect(problems({ ...env, ...OWN })).toEqual([]);
  });

  describe.each(EXPOSED)('%s', (_label, env, why) => {
    it.each(PUBLISHED_STORAGE_CREDENTIALS)('refuses %s as S3_ACCESS_KEY and as S3_SECRET_KEY, naming each', (value) => {
      const refusal = (name: string) =>
        `${name}: must not be a published credential (a store's default such as MinIO's minioadmin, or a value committed in this repository) ${why}: anyone could read and replace the recon files; give the object store's own credentials`;
      expect(problems({ ...env, S3_ACCESS_KEY: value, S3_SECRET_KEY: value })).toEqual([
        refusal('S3_ACCESS_KEY'),
        refusal('S3_SECRET_KEY'),
      ]);
      expect(problems({ ...env, ...OWN, S3_SECRET_KEY: ` ${value} ` })).toEqual([refusal('S3_SECRET_KEY')]);
      expect(problems({ ...env, ...OWN, S3_ACCESS_KEY: value })).toEqual([refusal('S3_ACCESS_KEY')]);
    });
  });

  it("lists MinIO's, S3Proxy's and s3rver's defaults and this repository's former constants", () => {
    expect(PUBLISHED_STORAGE_CREDENTIALS).toEqual(
      expect.arrayContaining([
        'minioadmin',
        'local-identity',
        'local-credential',
        'S3RVER',
        'minioadmin-local',
        'local-s3proxy',
        'local-s3proxy-secret-key',
      ]),
    );
  });

  it("on loopback outside production (the local runner, tests) takes any credentials, MinIO's default when none", () => {
    expect(loadConfig(schema, {})).toMatchObject({ accessKey: 'minioadmin', secretKey: 'minioadmin' });
    expect(
      loadConfig(schema, { LISTEN_HOST: 'localhost', S3_ACCESS_KEY: 'S3RVER', S3_SECRET_KEY: 'S3RVER' }),
    ).toMatchObject({ accessKey: 'S3RVER', secretKey: 'S3RVER' });
    expect(loadConfig(schema, { ...OWN, NODE_ENV: 'production' })).toMatchObject({
      accessKey: OWN.S3_ACCESS_KEY,
      secretKey: OWN.S3_SECRET_KEY,
    });
  });
});
