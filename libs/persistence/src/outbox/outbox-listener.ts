import { Client } from 'pg';

export const OUTBOX_CHANNEL = 'outbox_inserted';

/**
 * Calls `onInsert` whenever a transaction that wrote outbox rows commits (trigger +
 * LISTEN/NOTIFY), so the relay publishes at once rather than at its next poll. Reconnects
 * after a dropped connection; the relay's poll covers any notification missed meanwhile.
 */
export class OutboxListener {
  private client: Client | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly databaseUrl: string,
    private readonly onInsert: () => void,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  async start(): Promise<void> {
    const client = new Client({ connectionString: this.databaseUrl });
    client.on('notification', () => this.onInsert());
    client.on('error', (err) => {
      this.onError(err);
      this.reconnect();
    });
    await client.connect();
    await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
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
