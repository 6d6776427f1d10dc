import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ObjectStore, storageEnvShape } from '@pay/platform';
import { z } from 'zod';
import { S3Proxy } from './s3-proxy';

/**
 * The S3 server of the end-to-end suites: it must refuse what S3 refuses, and the chaos run
 * takes it away and brings it back on the same endpoint with the same files.
 */
describe('S3Proxy', () => {
  it('serves a signed link and refuses unsigned reads; after stop and restart, the same link serves the same file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 's3proxy-int-'));
    const s3 = await S3Proxy.start({ dir });
    try {
      const store = new ObjectStore(z.object(storageEnvShape).parse({ ...s3.env, RECON_BUCKET: 'kept' }), 30_000);
      await store.ensureBucket();
      await store.putStream('a/b.csv', Readable.from(['x,y\n1,2\n']), 'text/csv');
      const link = await store.presignGet('a/b.csv', 'b.csv');
      const read = async (url: string) => {
        const res = await fetch(url);
        return { status: res.status, body: await res.text() };
      };
      expect(await read(link)).toEqual({ status: 200, body: 'x,y\n1,2\n' });
      expect((await read(`${s3.endpoint}/kept/a/b.csv`)).status).toBe(403);

      await s3.stop();
      expect(s3.running).toBe(false);
      await expect(fetch(link)).rejects.toThrow();

      await s3.restart();
      expect(s3.running).toBe(true);
      // Another process finds it by its directory (how the suites share the run's server).
      expect(S3Proxy.attach({ dir })?.endpoint).toBe(s3.endpoint);
      expect(await read(link)).toEqual({ status: 200, body: 'x,y\n1,2\n' });
    } finally {
      await s3.close();
    }
  });
});
