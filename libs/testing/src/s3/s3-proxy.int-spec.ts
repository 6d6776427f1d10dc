import { createHash } from 'node:crypto';
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

  it('putStream: a stream of many chunks goes up in parts, read while the previous part uploads, byte for byte; a stream that fails leaves no object', async () => {
    const dir = mkdtempSync(join(tmpdir(), 's3proxy-int-'));
    const s3 = await S3Proxy.start({ dir });
    try {
      const store = new ObjectStore(z.object(storageEnvShape).parse({ ...s3.env, RECON_BUCKET: 'parts' }), 30_000);
      await store.ensureBucket();
      const line = (i: number) => `${i},${'x'.repeat(90)}\n`;
      const chunks = Array.from({ length: 130_000 }, (_, i) => line(i)); // about 12 MB
      const expected = createHash('sha256').update(chunks.join('')).digest('hex');
      const uploaded = await store.putStream('big.csv', Readable.from(chunks), 'text/csv', 5 * 1024 * 1024);
      expect(uploaded).toEqual({ parts: 3, bytes: Buffer.byteLength(chunks.join('')) });
      const body = Buffer.from(await (await fetch(await store.presignGet('big.csv', 'big.csv'))).arrayBuffer());
      expect(createHash('sha256').update(body).digest('hex')).toBe(expected);

      async function* failing() {
        for (let i = 0; i < 120_000; i++) yield line(i);
        throw new Error('the database went away');
      }
      await expect(store.putStream('broken.csv', Readable.from(failing()), 'text/csv', 5 * 1024 * 1024)).rejects.toThrow(/went away/);
      expect((await fetch(await store.presignGet('broken.csv', 'broken.csv'))).status).toBe(404);
    } finally {
      await s3.close();
    }
  });
});
