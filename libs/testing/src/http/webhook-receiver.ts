import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  /** The raw bytes as received (what a signature is verified against) */
  rawBody: string;
  receivedAt: Date;
}

/** How the receiver answers its n-th request (0-based): a status, optional headers and body (text, or bytes as they are), or 'hang'. */
export type ReceiverScript = (
  n: number,
  req: ReceivedWebhook,
) => { status: number; headers?: Record<string, string>; body?: string | Buffer } | 'hang';

/** A local HTTP endpoint standing in for a merchant's notifyUrl, recording what it receives. */
export class WebhookReceiver {
  readonly requests: ReceivedWebhook[] = [];
  private readonly hanging: ServerResponse[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(
    script: ReceiverScript = () => ({ status: 200 }),
    port = 0,
    host = '127.0.0.1',
  ): Promise<WebhookReceiver> {
    const self: { receiver?: WebhookReceiver } = {};
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const received = {
          headers: req.headers,
          rawBody: Buffer.concat(chunks).toString('utf8'),
          receivedAt: new Date(),
        };
        const r = self.receiver as WebhookReceiver;
        const n = r.requests.push(received) - 1;
        const answer = script(n, received);
        if (answer === 'hang') return void r.hanging.push(res);
        res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
        res.end(answer.body ?? 'ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(port, host, resolve));
    const actual = (server.address() as { port: number }).port;
    self.receiver = new WebhookReceiver(server, `http://127.0.0.1:${actual}/callback`);
    return self.receiver;
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
