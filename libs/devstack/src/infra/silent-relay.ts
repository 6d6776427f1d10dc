import { createServer, type Server, type Socket, connect } from 'node:net';

/**
 * A TCP relay to a real server (PostgreSQL, Redis) that can go silent: frozen, it forwards nothing
 * either way and closes nothing, as a failed-over primary whose packets are dropped. Thawed, the
 * connections it froze are cut (that server is gone) and new ones reach the server again.
 */
export class SilentRelay {
  private readonly frozen = new Set<Socket>();
  /** Every socket of the relay not yet closed, both sides of each connection. */
  private readonly open = new Set<Socket>();
  private readonly onFreeze: (() => void)[] = [];
  private silent = false;
  private readonly server: Server;
  url = '';

  private constructor(private target: URL) {
    this.server = createServer((client) => this.relay(client));
  }

  /** A relay to the server of `serverUrl` (its port given); `url` is the same URL through the relay. */
  static async start(serverUrl: string): Promise<SilentRelay> {
    const relay = new SilentRelay(new URL(serverUrl));
    await new Promise<void>((resolve) => relay.server.listen(0, '127.0.0.1', resolve));
    const url = new URL(serverUrl);
    url.hostname = '127.0.0.1';
    url.port = String((relay.server.address() as { port: number }).port);
    relay.url = url.toString();
    return relay;
  }

  private relay(client: Socket): void {
    this.track(client);
    if (this.silent) return void this.frozen.add(client);
    const upstream = this.track(connect(Number(this.target.port), this.target.hostname));
    client.pipe(upstream).pipe(client);
    this.onFreeze.push(() => {
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
      this.frozen.add(client).add(upstream);
    });
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  }

  /**
   * A failover behind a name or a proxy (a DNS record, a Kubernetes Service, HAProxy): new
   * connections reach the server of `serverUrl` (its host and port), the open ones stay on the
   * server they reached.
   */
  redirect(serverUrl: string): void {
    this.target = new URL(serverUrl);
  }

  /** Silent: the connections open go quiet, and new ones are taken and never answered. */
  freeze(): void {
    this.silent = true;
    this.failover();
  }

  /** A failover whose old primary drops packets: the connections open go quiet for good, new ones reach the server. */
  failover(): void {
    for (const silence of this.onFreeze.splice(0)) silence();
  }

  /** The silence ends: the quiet connections are cut (their server is gone), new ones reach the server. */
  thaw(): void {
    this.silent = false;
    for (const socket of this.frozen) socket.destroy();
    this.frozen.clear();
  }

  private track(socket: Socket): Socket {
    this.open.add(socket);
    socket.once('close', () => this.open.delete(socket));
    return socket;
  }

  /** Every connection through the relay is cut and its port closed. */
  async stop(): Promise<void> {
    this.thaw();
    for (const socket of this.open) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
