import { Client } from 'pg';

/**
 * One dedicated connection LISTENing on a channel: `onNotify` gets each notification's payload
 * (notifications are sent when the notifying transaction commits). Reconnects after a dropped
 * connection and then calls `onReconnect`, because notifications sent meanwhile are lost:
 * every user of a listener keeps a slower poll as the safety net.
 */
export class PgListener {
  private client: Client | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly databaseUrl: string,
    private readonly channel: string,
    private readonly onNotify: (payload: string) => void,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`invalid channel name ${channel}`);
  }

  async start(): Promise<void> {
    const client = new Client({ connectionString: this.databaseUrl });
    client.on('notification', (msg) => {
      if (msg.channel === this.channel) this.onNotify(msg.payload ?? '');
    });
    client.on('error', (err) => {
      this.onError(err);
      this.reconnect();
    });
    await client.connect();
    await client.query(`LISTEN ${this.channel}`);
    this.client = client;
  }

  async stop(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    await this.client?.end().catch(() => undefined);
  }

  private reconnect(): void {
    if (this.closed) return;
    void this.client?.end().catch(() => undefined);
    this.client = undefined;
    this.retry = setTimeout(() => {
      this.start().catch((err: unknown) => {
        this.onError(err);
        this.reconnect();
      });
    }, 1000);
  }
}
