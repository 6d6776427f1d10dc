import { Client } from 'pg';

export interface PgListenerHooks {
  /** A connection was lost or could not be made (called on every failed attempt: throttle in the logger). */
  onError?: (err: unknown) => void;
  /** LISTENing again after a lost connection: notifications sent meanwhile are lost, so look again. */
  onReconnect?: () => void;
}

const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 5000;

/**
 * One dedicated connection LISTENing on a channel: `onNotify` gets each notification's payload
 * (notifications are sent when the notifying transaction commits).
 *
 * Reconnect story: a dropped connection (server restart, failover, pg_terminate_backend) is
 * reported to onError and re-established in the background, retrying every 0.5 s backing off
 * to 5 s for as long as it takes; once LISTENing again, onReconnect runs, because
 * notifications sent meanwhile are lost: every user of a listener keeps a slower poll as the
 * safety net. `start` resolves even when the database is down or refuses us (the retries take
 * over and onError hears each failure): a wrong DATABASE_URL is the service's start-up check's
 * to report (waitForDatabase), once and clearly.
 */
export class PgListener {
  private client: Client | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  private failures = 0;
  private listeningOn: Client | undefined;

  constructor(
    private readonly databaseUrl: string,
    private readonly channel: string,
    private readonly onNotify: (payload: string) => void,
    private readonly hooks: PgListenerHooks = {},
  ) {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`invalid channel name ${channel}`);
  }

  /** True while the LISTEN is in place (false before start, while reconnecting, after stop). */
  get listening(): boolean {
    return this.listeningOn !== undefined && this.listeningOn === this.client;
  }

  async start(): Promise<void> {
    await this.connect().catch((err: unknown) => this.lost(err));
  }

  async stop(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client({ connectionString: this.databaseUrl, connectionTimeoutMillis: 5000, keepAlive: true });
    // Only the current connection may trigger a reconnect: a late error from an abandoned one is ignored.
    this.client = client;
    client.on('notification', (msg) => {
      if (msg.channel === this.channel) this.onNotify(msg.payload ?? '');
    });
    client.on('error', (err) => {
      if (this.client === client) this.lost(err);
    });
    await client.connect();
    await client.query(`LISTEN ${this.channel}`);
    if (this.closed) await client.end().catch(() => undefined);
    else this.listeningOn = client;
  }

  private lost(err: unknown): void {
    const client = this.client;
    this.client = undefined;
    void client?.end().catch(() => undefined);
    if (this.closed) return;
    this.hooks.onError?.(err);
    clearTimeout(this.retry);
    const delay = Math.min(RETRY_MIN_MS * 2 ** this.failures, RETRY_MAX_MS);
    this.failures += 1;
    this.retry = setTimeout(() => {
      this.connect().then(
        () => {
          this.failures = 0;
          if (!this.closed) this.hooks.onReconnect?.();
        },
        (e: unknown) => this.lost(e),
      );
    }, delay);
  }
}
