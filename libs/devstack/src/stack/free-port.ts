import { createServer } from 'node:net';

const handedOut = new Set<number>();

/**
 * A free TCP port for a service of the stack, below the kernel's ephemeral range (32768+), so
 * an outgoing connection cannot take it while a killed service restarts, and never the same
 * port twice in one process.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (handedOut.has(port)) continue;
    if (await canListen(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error('no free port found between 20000 and 32000');
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
