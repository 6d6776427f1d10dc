import { createServer, type Server, type Socket } from 'node:net';
import { classifyFault } from '../faults/fault';
import { ObjectStore } from './object-store';
import { storageConfigSchema } from './storage.config';

/** A TCP server that accepts connections and never answers: an object store that hangs. */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((s) => void sockets.add(s));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const storeAt = (endpoint: string, socketTimeoutMs?: number) =>
  new ObjectStore(storageConfigSchema.parse({ S3_ENDPOINT: endpoint }), socketTimeoutMs);

describe('ObjectStore when the store is away', () => {
  it('a store that accepts and never answers fails the call after the socket timeout, as a transient fault', async () => {
    const silent = await silentServer();
    try {
      const t0 = Date.now();
      const err = await storeAt(`http://127.0.0.1:${silent.port}`, 300)
        .client.bucketExists('recon')
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Error);
      expect(classifyFault(err)).toBe('transient');
      expect(Date.now() - t0).toBeLessThan(5000);
    } finally {
      await silent.close();
    }
  });

  it('a store that refuses connections fails the call at once, as a transient fault', async () => {
    const silent = await silentServer();
    await silent.close(); // the port is now free: connections are refused
    const err = await storeAt(`http://127.0.0.1:${silent.port}`)
      .client.bucketExists('recon')
      .catch((e: unknown) => e);
    expect(classifyFault(err)).toBe('transient');
  });
});
