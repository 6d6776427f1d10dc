import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import { isAllowedWebhookAddress } from '@pay/domain';
import { madeUpNames, UnacceptingListener, WebhookReceiver } from '@pay/testing';
import { postWebhook } from './webhook.sender';

/** A private (RFC 1918) or unique-local address of this machine, where a receiver can stand in for a compose service. */
function ownPrivateAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flatMap((addresses) => addresses ?? [])
    .map(({ address }) => address)
    .find(
      (a) =>
        isAllowedWebhookAddress(a, { allowLoopback: false, allowPrivate: true }) &&
        !isAllowedWebhookAddress(a, { allowLoopback: false }),
    );
}

/** Real HTTP servers on loopback: what the sender does with connections. */
describe('postWebhook (real HTTP)', () => {
  const opts = {
    timeoutMs: 2000,
    connectTimeoutMs: 1000,
    firstByteTimeoutMs: 1500,
    maxResponseBytes: 4096,
    allowLoopback: true,
    allowPrivateHosts: [],
  };
  const servers: Server[] = [];

  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  /** A server whose `onRequest(n, socketRequests)` answers (true) or drops the connection unanswered (false). */
  async function start(
    onRequest: (n: number, onThisSocket: number) => boolean,
  ): Promise<{ url: string; sockets: Set<Socket>; requests: () => number }> {
    const sockets = new Set<Socket>();
    const perSocket = new WeakMap<Socket, number>();
    let n = 0;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const socket = req.socket;
        const count = (perSocket.get(socket) ?? 0) + 1;
        perSocket.set(socket, count);
        if (onRequest(n++, count)) res.end('ok');
        else socket.destroy();
      });
    });
    servers.push(server);
    server.on('connection', (s: Socket) => sockets.add(s));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    return { url: `http://127.0.0.1:${port}/cb`, sockets, requests: () => n };
  }

  it('keeps the connection to a receiver alive: callbacks one after another share one', async () => {
    const s = await start(() => true);
    for (let i = 0; i < 5; i++)
      expect(await postWebhook(s.url, '{}', {}, opts)).toMatchObject({
        statusCode: 200,
        error: null,
        responseBody: Buffer.from('ok'),
      });
    expect(s.requests()).toBe(5);
    expect(s.sockets.size).toBe(1);
  });

  it('a kept-alive connection the receiver drops unanswered is tried once more on a new one; a new connection dropped is a failed attempt', async () => {
    // Every second request on a connection is dropped unanswered (a receiver closing idle connections as we reuse one).
    const s = await start((_n, onThisSocket) => onThisSocket === 1);
    expect(await postWebhook(s.url, '{}', {}, opts)).toMatchObject({ statusCode: 200 });
    expect(await postWebhook(s.url, '{}', {}, opts)).toMatchObject({ statusCode: 200, error: null });
    expect(s.requests()).toBe(3); // the dropped one, then the same callback on a new connection
    expect(s.sockets.size).toBe(2);

    const dropsAll = await start(() => false);
    const result = await postWebhook(dropsAll.url, '{}', {}, opts);
    expect(result).toMatchObject({ statusCode: null, error: expect.stringMatching(/socket hang up|ECONNRESET/) });
    expect(dropsAll.requests()).toBe(1); // not retried: it was a new connection
  });

  it('a host that never accepts the connection is given up at the connect timeout, not the whole timeout', async () => {
    const listener = await UnacceptingListener.start();
    try {
      const result = await postWebhook(listener.url, '{}', {}, { ...opts, connectTimeoutMs: 300, timeoutMs: 5000 });
      expect(result).toMatchObject({ statusCode: null, error: 'no connection within 300 ms' });
      expect(result.latencyMs).toBeGreaterThanOrEqual(290);
      expect(result.latencyMs).toBeLessThan(1500);
    } finally {
      await listener.close();
    }
  });

  it('a receiver that accepts and never begins its answer is given up at the first-byte timeout; one that begins in time may take until the whole timeout', async () => {
    const sockets = new Set<Socket>();
    const server = createServer((req, res) => {
      req.resume();
      if (req.url === '/slow-body') {
        res.writeHead(200);
        res.write('o');
        setTimeout(() => res.end('k'), 800);
      } // otherwise: never answers
    });
    servers.push(server);
    server.on('connection', (s: Socket) => sockets.add(s));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const timing = { ...opts, firstByteTimeoutMs: 400, timeoutMs: 5000 };

    const silent = await postWebhook(`${base}/cb`, '{}', {}, timing);
    expect(silent).toMatchObject({ statusCode: null, error: 'no answer within 400 ms' });
    expect(silent.latencyMs).toBeGreaterThanOrEqual(390);
    expect(silent.latencyMs).toBeLessThan(1500);

    const slow = await postWebhook(`${base}/slow-body`, '{}', {}, timing);
    expect(slow).toMatchObject({ statusCode: 200, error: null, responseBody: Buffer.from('ok') });
    expect(slow.latencyMs).toBeGreaterThanOrEqual(790);
  });

  describe('WEBHOOK_ALLOW_PRIVATE_HOSTS: a listed host name may resolve to a private address (the compose service e2e)', () => {
    // The receiver listens on a private address of this machine (a compose network's 172.x, say), reached through made-up names.
    const address = ownPrivateAddress();
    let undoNames: () => void = () => undefined;
    beforeAll(() => {
      if (address) undoNames = madeUpNames({ e2e: [address], other: [address], 'sub.e2e': [address] });
    });
    afterAll(() => undoNames());

    it('the callback to the listed name is sent; to any other name resolving there, or without the list, refused unsent', async () => {
      if (!address) throw new Error('this machine has no private (RFC 1918) or unique-local address to receive on');
      const receiver = await WebhookReceiver.start(undefined, 0, address);
      try {
        const port = new URL(receiver.url).port;
        const listing = { ...opts, allowLoopback: false, allowPrivateHosts: ['e2e'] };

        expect(await postWebhook(`http://E2E:${port}/cb`, '{}', {}, listing)).toMatchObject({
          statusCode: 200,
          error: null,
          targetRefused: false,
        });
        // Another name on the same address and port takes no connection made for e2e, and no permission from it.
        for (const host of ['other', 'sub.e2e'])
          expect(await postWebhook(`http://${host}:${port}/cb`, '{}', {}, listing)).toMatchObject({
            statusCode: null,
            targetRefused: true,
            error: `${host} resolves to ${address}, a private or reserved address`,
          });
        expect(
          await postWebhook(`http://e2e:${port}/cb`, '{}', {}, { ...listing, allowPrivateHosts: [] }),
        ).toMatchObject({
          statusCode: null,
          targetRefused: true,
          error: `e2e resolves to ${address}, a private or reserved address`,
        });
        expect(receiver.requests).toHaveLength(1);
      } finally {
        await receiver.close();
      }
    });
  });
});
