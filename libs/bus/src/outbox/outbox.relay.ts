import { classifyFault } from '@pay/platform';
import { backoffDelay, RetryBackoff, sleep } from '../delivery/delivery.policy';
import { BusLogger, errorDetails, noopLogger } from '../logging/bus-logger.interface';
import { BusTransport } from '../transport/bus-transport.interface';
import { OutboxRow, OutboxStore } from './outbox-store.interface';

/** Header carrying the outbox row id: a deterministic id consumers can deduplicate on. */
export const OUTBOX_ID_HEADER = 'x-outbox-id';

export interface OutboxRelayOptions {
  store: OutboxStore;
  transport: Pick<BusTransport, 'publish'>;
  batchSize?: number;
  /** Wait between polls when the outbox is empty; `notify()` cuts it short, so this is only a safety net (default 5 s). */
  pollIntervalMs?: number;
  /**
   * After a round that relayed rows but no full batch (a steady trickle of commits), a wake-up
   * waits this long before the next round, so the commits of a burst go out in one batch (one
   * transaction) instead of one each. Never after an idle round: a lone commit goes out at once.
   * 0 turns it off.
   */
  lingerMs?: number;
  /** Between attempts of a topic whose batch failed (each topic backs off on its own). */
  errorBackoff?: RetryBackoff;
  logger?: BusLogger;
}

/**
 * Moves committed outbox rows to the bus, at least once, in id order per topic (so per key).
 * Each topic with rows waiting gets a lane of its own that publishes and marks its batches: a
 * topic the broker refuses backs off and retries while the other topics go on.
 */
export class OutboxRelay {
  private readonly batchSize: number;
  private readonly pollIntervalMs: number;
  private readonly lingerMs: number;
  /** Rows relayed since the last round began, and whether one of its batches was full. */
  private relayedInRound = 0;
  private fullBatchInRound = false;
  private readonly errorBackoff: RetryBackoff;
  private readonly logger: BusLogger;
  private loop: Promise<void> | null = null;
  private readonly lanes = new Map<string, Promise<void>>();
  private stopping = new AbortController();
  private wake = new AbortController();
  /** Bumped by each notify(): a lane can tell that rows were committed after its last batch was read. */
  private notifications = 0;

  constructor(private readonly options: OutboxRelayOptions) {
    this.batchSize = options.batchSize ?? 100;
    this.pollIntervalMs = options.pollIntervalMs ?? 5000;
    this.lingerMs = options.lingerMs ?? 3;
    this.errorBackoff = options.errorBackoff ?? { initialMs: 200, maxMs: 10_000 };
    this.logger = options.logger ?? noopLogger;
  }

  start(): void {
    if (this.loop) return;
    this.stopping = new AbortController();
    this.loop = this.run();
  }

  /** Wakes an idle relay at once, e.g. from a LISTEN/NOTIFY callback after a commit that wrote outbox rows. */
  notify(): void {
    this.notifications += 1;
    this.wake.abort();
  }

  /** Lets the batches in progress finish (publish + mark), then returns. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.loop;
    await Promise.all(this.lanes.values());
    this.loop = null;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopping.signal.aborted) {
      try {
        for (const topic of await this.options.store.pendingTopics()) {
          if (!this.lanes.has(topic)) this.lanes.set(topic, this.drain(topic).finally(() => this.lanes.delete(topic)));
        }
        failures = 0;
        await this.idle(this.pollIntervalMs);
      } catch (error) {
        failures += 1;
        await this.backOff(error, failures, 'outbox relay could not list the pending topics');
      }
    }
  }

  /** Relays `topic` until it has no full batch left; a failed batch is retried, with backoff, by this lane only. */
  private async drain(topic: string): Promise<void> {
    let failures = 0;
    while (!this.stopping.signal.aborted) {
      try {
        const seen = this.notifications;
        const published = await this.options.store.relayBatch(topic, this.batchSize, (rows) => this.publish(topic, rows));
        failures = 0;
        this.relayedInRound += published;
        if (published >= this.batchSize) this.fullBatchInRound = true;
        if (published < this.batchSize) {
          // A notify() while this batch was read found this lane busy and was not acted on: its rows
          // (of this topic or another) would wait for the next poll. Have the main loop look again now.
          if (this.notifications !== seen) this.wake.abort();
          return;
        }
      } catch (error) {
        failures += 1;
        await this.backOff(error, failures, 'outbox relay batch failed; this topic retries, the others go on', topic);
      }
    }
  }

  private async backOff(error: unknown, failures: number, message: string, topic?: string): Promise<void> {
    const delay = backoffDelay(this.errorBackoff, failures);
    // A dependency that is away (PostgreSQL, the broker) is expected and waited out: warn, with backoff; anything else is an error.
    const level = classifyFault(error) === 'transient' ? 'warn' : 'error';
    this.logger[level]({ err: errorDetails(error), topic, failures, retryInMs: delay }, message);
    await sleep(delay, this.stopping.signal);
  }

  private async idle(ms: number): Promise<void> {
    // A notify() that arrived during the last poll means new rows: go again at once.
    if (!this.wake.signal.aborted) await sleep(ms, AbortSignal.any([this.stopping.signal, this.wake.signal]));
    // Under a trickle of commits, let a few more come before the next round (a full batch means a backlog: no wait).
    const trickle = this.relayedInRound > 0 && !this.fullBatchInRound;
    this.relayedInRound = 0;
    this.fullBatchInRound = false;
    if (trickle && this.wake.signal.aborted && this.lingerMs > 0) await sleep(this.lingerMs, this.stopping.signal);
    if (this.wake.signal.aborted) this.wake = new AbortController();
  }

  private publish(topic: string, rows: OutboxRow[]): Promise<void> {
    return this.options.transport.publish(
      topic,
      rows.map((row) => ({ key: row.key, value: row.payload, headers: { ...row.headers, [OUTBOX_ID_HEADER]: row.id.toString() } })),
    );
  }
}
