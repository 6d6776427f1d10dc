import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ObjectStore, storageConfigSchema } from '@pay/platform';
import { freePort } from '../stack/free-port';
import { S3Proxy } from './s3-proxy';
import { checkSignatures, SIGNATURES_ENFORCED } from './signature-checks';

/**
 * The object stores this repository starts refuse what S3 refuses: the local runner's (LocalStack's
 * own, with a kept directory and a fixed port, as tools/dev/up.ts asks; the benches' and chaos's
 * without them) and the integration specs'. The end-to-end run's: e2e/recon.e2e-spec.ts.
 */
describe.each([
  [
    "the local runner's (files kept in a directory, a fixed port)",
    async (dir: string) => S3Proxy.start({ dir, port: await freePort() }),
  ],
  ["the integration specs', benches' and chaos's (a temporary directory)", () => S3Proxy.start()],
])('the object store: %s', (_name, start: (dir: string) => Promise<S3Proxy>) => {
  it('refuses every request not signed with its credentials (403) and serves the signed link', async () => {
    const dir = mkdtempSync(join(tmpdir(), 's3-signatures-'));
    const s3 = await start(dir);
    try {
      expect(await checkSignatures(s3)).toEqual(SIGNATURES_ENFORCED);
    } finally {
      await s3.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('S3Proxy credentials', () => {
  it('are drawn anew at each start, kept across a restart; a link signed with the previous ones is refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 's3-signatures-'));
    const first = await S3Proxy.start({ dir });
    const servers = [first];
    try {
      const before = first.env;
      await first.stop();
      await first.restart();
      expect(first.env).toEqual(before);
      await first.stop();
      const again = await S3Proxy.start({ dir });
      servers.push(again);
      expect(again.endpoint).toBe(first.endpoint);
      expect(again.env.S3_ACCESS_KEY).not.toBe(before.S3_ACCESS_KEY);
      expect(again.env.S3_SECRET_KEY).not.toBe(before.S3_SECRET_KEY);
      expect(again.env.S3_SECRET_KEY.length).toBeGreaterThanOrEqual(32);

      const storeWith = (env: Record<string, string>) =>
        new ObjectStore(storageConfigSchema.parse({ ...env, RECON_BUCKET: 'kept' }), 30_000);
      await storeWith(again.env).ensureBucket();
      await storeWith(again.env).putStream('a.csv', Readable.from(['x\n']), 'text/csv');
      expect((await fetch(await storeWith(again.env).presignGet('a.csv', 'a.csv'))).status).toBe(200);
      expect((await fetch(await storeWith(before).presignGet('a.csv', 'a.csv'))).status).toBe(403);
    } finally {
      for (const s3 of servers) await s3.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
