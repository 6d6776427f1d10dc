import { connect, type Socket } from 'node:net';
import { Worker } from 'node:worker_threads';

/**
 * The listener runs in a thread whose event loop is then held (Atomics.wait), so it never accepts:
 * once the kernel's accept queue is full, every new connection waits in SYN until its client gives up.
 */
const LISTENER = `
const { parentPort, workerData } = require('node:worker_threads');
const server = require('node:net').createServer();
server.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
  parentPort.postMessage(server.address().port);
  const stop = new Int32Array(workerData);
  while (Atomics.load(stop, 0) === 0) Atomics.wait(stop, 0, 0, 50);
  server.close();
});
`;

/**
 * A TCP port on loopback that never accepts a connection (a merchant host behind a firewall that
 * drops packets, or a server whose accept queue is full): a callback to it waits to connect.
 */
export class UnacceptingListener {
  private constructor(
    private readonly worker: Worker,
    private readonly stop: Int32Array,
    private readonly fillers: Socket[],
    readonly url: string,
  ) {}

  static async start(): Promise<UnacceptingListener> {
    const stop = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(LISTENER, { eval: true, workerData: stop.buffer });
    const port = await new Promise<number>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    // Fill the accept queue: connections complete (the kernel accepts them into the queue) until one no longer does.
    const fillers: Socket[] = [];
    for (let i = 0; i < 64; i++) {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      fillers.push(socket);
      const connected = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), 300);
        socket.once('connect', () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
      if (!connected) return new UnacceptingListener(worker, stop, fillers, `http://127.0.0.1:${port}/callback`);
    }
    throw new Error('the accept queue never filled');
  }

  async close(): Promise<void> {
    for (const socket of this.fillers) socket.destroy();
    Atomics.store(this.stop, 0, 1);
    Atomics.notify(this.stop, 0);
    await new Promise((resolve) => this.worker.once('exit', resolve));
  }
}
