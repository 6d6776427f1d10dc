import { waitAtMost, withTimeout } from '@pay/platform';
import { PrimaryClient, ReadOnlyServerError } from './primary-only';
import { KEEPALIVE_IDLE_MS } from './sql';

/** One channel a PgListener LISTENs on, and what its notifications go to. */
export interface PgChannel {
  /** A plain identifier (LISTEN takes it as written). */
  channel: string;
  /** Each notification's payload, as the notifying transaction commits. */
  onNotify: (payload: string) => void;
  /** LISTENing again after a lost connection: notifications sent meanwhile are lost, so look again. */
  onReconnect?: () => void;
}

export interface PgListenerOptions {
  /** The connection was lost or could not be made (called on every failed attempt: throttle in the logger). */
  onError?: (err: unknown) => void;
  /** How often the connection is asked `SELECT 1` (default 10 s). */
  heartbeatMs?: number;
  /** An answer slower than this counts the connection lost (default 5 s). */
  heartbeatTimeoutMs?: number;
}

const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 5000;
/** How often a LISTEN connection is asked `SELECT 1`, unless the options say otherwise. */
export const PG_LISTEN_HEARTBEAT_MS = 10_000;
const HEARTBEAT_TIMEOUT_MS = 5_000;
/** stop() waits at most this long for the server to close the connection: a silent one never does. */
const END_WAIT_MS = 2_000;
const CHANNEL_NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * One dedicated connection LISTENing on the channels its users added, one process's whole
 * share of LISTEN: every NOTIFY in a database wakes every listening backend of that database,
 * whatever its channels, so a process keeps one listening connection, not one per channel.
 *
 * Reconnect story: a dropped connection (server restart, failover, pg_terminate_backend) is
 * reported to onError and re-established in the background, retrying every 0.5 s backing off
 * to 5 s for as long as it takes; once LISTENing again, every channel's onReconnect runs,
 * because notifications sent meanwhile are lost: every user of a listener keeps a slower poll
 * as the safety net. `start` resolves even when the database is down or refuses us (the retries
 * take over and onError hears each failure): a wrong DATABASE_URL is the service's start-up
 * check's to report (waitForDatabase), once and clearly.
 *
 * A listening connection only reads, so a server that vanished without closing it (a failover
 * whose old primary drops packets) would leave it "listening" and deaf until TCP gave up, hours
 * later. A heartbeat asks `SELECT 1` every 10 s; no answer within 5 s counts the connection lost.
 * So does a server that is read-only (PrimaryClient): at the connection's start a standby, after a
 * heartbeat an old primary fenced by a failover; the new primary's NOTIFYs never reach it.
 *
 * The connection's application_name is the URL's with `:listen` after it (`gateway:listen`), so
 * pg_stat_activity tells it from the pools' connections: its query column shows the heartbeat.
 */
export class PgListener {
  private readonly channels = new Map<string, PgChannel[]>();
  private client: PrimaryClient | undefined;
  private started = false;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  private failures = 0;
  private listeningOn: PrimaryClient | undefined;
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(
    private readonly databaseUrl: string,
    private readonly options: PgListenerOptions = {},
  ) {}

  /** Adds a channel (two users may share one). Before start: the LISTENs are sent as the connection is made. */
  listen(channel: PgChannel): this {
    if (!CHANNEL_NAME.test(channel.channel)) throw new Error(`invalid channel name ${channel.channel}`);
    if (this.started) throw new Error(`channel ${channel.channel} added to a started PgListener`);
    this.channels.set(channel.channel, [...(this.channels.get(channel.channel) ?? []), channel]);
    return this;
  }

  /** True while the LISTENs are in place (false before start, while reconnecting, after stop, and with no channel). */
  get listening(): boolean {
    return this.listeningOn !== undefined && this.listeningOn === this.client;
  }

  /** Connects and LISTENs; with no channel added, does nothing. */
  async start(): Promise<void> {
    this.started = true;
    if (this.channels.size === 0) return;
    await this.connect().catch((err: unknown) => this.lost(err));
  }

  async stop(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    clearTimeout(this.heartbeat);
    const client = this.client;
    this.client = undefined;
    if (client) await waitAtMost(client.end(), END_WAIT_MS);
  }

  private async connect(): Promise<void> {
    const client = new PrimaryClient({
      connectionString: listenConnectionString(this.databaseUrl),
      connectionTimeoutMillis: 5000,
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEPALIVE_IDLE_MS,
    });
    // Only the current connection may trigger a reconnect: a late error from an abandoned one is ignored.
    this.client = client;
    client.on('notification', (msg) => {
      for (const channel of this.channels.get(msg.channel) ?? []) channel.onNotify(msg.payload ?? '');
    });
    client.on('error', (err) => {
      if (this.client === client) this.lost(err);
    });
    await client.connect();
    if (client.readOnlyServer) throw new ReadOnlyServerError();
    // One round trip, one implicit transaction: all the channels are heard from the same moment.
    await client.query([...this.channels.keys()].map((name) => `LISTEN ${name}`).join('; '));
    if (this.closed) await client.end().catch(() => undefined);
    else {
      this.listeningOn = client;
      this.beat(client);
    }
  }

  /** The next heartbeat of `client`, for as long as it is the current connection. */
  private beat(client: PrimaryClient): void {
    this.heartbeat = setTimeout(() => {
      if (this.client !== client) return;
      const timeoutMs = this.options.heartbeatTimeoutMs ?? HEARTBEAT_TIMEOUT_MS;
      withTimeout(
        client.query('SELECT 1'),
        timeoutMs,
        `no answer to the LISTEN connection's heartbeat within ${timeoutMs} ms`,
      ).then(
        // A server gone read-only hears no NOTIFY again: its writes now go to another primary.
        () =>
          this.client === client && (client.readOnlyServer ? this.lost(new ReadOnlyServerError()) : this.beat(client)),
        (err: unknown) => this.client === client && this.lost(err),
      );
    }, this.options.heartbeatMs ?? PG_LISTEN_HEARTBEAT_MS);
  }

  private lost(err: unknown): void {
    const client = this.client;
    this.client = undefined;
    clearTimeout(this.heartbeat);
    void client?.end().catch(() => undefined);
    if (this.closed) return;
    this.options.onError?.(err);
    clearTimeout(this.retry);
    const delay = Math.min(RETRY_MIN_MS * 2 ** this.failures, RETRY_MAX_MS);
    this.failures += 1;
    this.retry = setTimeout(() => {
      this.connect().then(
        () => {
          this.failures = 0;
          if (this.closed) return;
          for (const channel of [...this.channels.values()].flat()) channel.onReconnect?.();
        },
        (e: unknown) => this.lost(e),
      );
    }, delay);
  }
}

/** `databaseUrl` with `:listen` after its application_name, when it has one (see PgListener). */
function listenConnectionString(databaseUrl: string): string {
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    return databaseUrl; // not a URL this can name (the connection reports what is wrong with it)
  }
  const name = url.searchParams.get('application_name');
  if (name) url.searchParams.set('application_name', `${name}:listen`);
  return url.toString();
}
