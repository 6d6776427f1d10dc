import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ObjectStore, storageConfigSchema } from '@pay/platform';
import { S3Proxy } from './s3-proxy';

/**
 * A TCP relay to `port` that changes the first '#' it carries towards the server into '%': a body
 * damaged on the way, with the request line and the signed headers intact.
 */
async function corruptingRelay(
  port: number,
): Promise<{ endpoint: string; corrupted: () => boolean; close(): Promise<void> }> {
  let corrupted = false;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
    }
    client.on('data', (chunk: Buffer) => {
      const at = corrupted ? -1 : chunk.indexOf('#');
      if (at >= 0) {
        corrupted = true;
        chunk[at] = '%'.charCodeAt(0);
      }
      upstream.write(chunk);
    });
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    corrupted: () => corrupted,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The S3 server of the end-to-end suites: it must refuse what S3 refuses, and the chaos run
 * takes it away and brings it back on the same endpoint with the same files.
 */
describe('S3Proxy', () => {
  it('serves a signed link and refuses unsigned reads; after stop and restart, the same link serves the same file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 's3proxy-int-'));
    const s3 = await S3Proxy.start({ dir });
    try {
      const store = new ObjectStore(storageConfigSchema.parse({ ...s3.env, RECON_BUCKET: 'kept' }), 30_000);
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
      const store = new ObjectStore(storageConfigSchema.parse({ ...s3.env, RECON_BUCKET: 'parts' }), 30_000);
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
      await expect(
        store.putStream('broken.csv', Readable.from(failing()), 'text/csv', 5 * 1024 * 1024),
      ).rejects.toThrow(/went away/);
      expect((await fetch(await store.presignGet('broken.csv', 'broken.csv'))).status).toBe(404);
    } finally {
      await s3.close();
    }
  });

  it('putStream: a part damaged on the way is refused (its Content-MD5 no longer matches), the upload fails and leaves no object', async () => {
    const dir = mkdtempSync(join(tmpdir(), 's3proxy-int-'));
    const s3 = await S3Proxy.start({ dir });
    const relay = await corruptingRelay(Number(new URL(s3.endpoint).port));
    try {
      const storage = storageConfigSchema.parse({ ...s3.env, RECON_BUCKET: 'damaged' });
      const direct = new ObjectStore(storage, 30_000);
      await direct.ensureBucket();
      const store = new ObjectStore({ ...storage, endpoint: relay.endpoint }, 30_000);
      // About 7 MB in 5 MiB parts; the one '#' is in the second part's body.
      const chunks = Array.from({ length: 80_000 }, (_, i) => `${i},${i === 70_000 ? '#' : 'x'}${'x'.repeat(80)}\n`);
      await expect(
        store.putStream('damaged.csv', Readable.from(chunks), 'text/csv', 5 * 1024 * 1024),
      ).rejects.toMatchObject({ code: 'BadDigest' });
      expect(relay.corrupted()).toBe(true);
      expect((await fetch(await direct.presignGet('damaged.csv', 'damaged.csv'))).status).toBe(404);
      // The same bytes through an honest path go up whole.
      await direct.putStream('damaged.csv', Readable.from(chunks), 'text/csv', 5 * 1024 * 1024);
      expect(await (await fetch(await direct.presignGet('damaged.csv', 'damaged.csv'))).text()).toBe(chunks.join(''));
    } finally {
      await relay.close();
      await s3.close();
    }
  });
});
