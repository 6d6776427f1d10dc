import { classifyFault } from '@pay/platform';
import { backoffDelay, RetryBackoff, sleep } from '../delivery/delivery.policy';
import { BusLogger, errorDetails, noopLogger } from '../logging/bus-logger.interface';
import { BusTransport, OutgoingRecord } from '../transport/bus-transport.interface';
import { OutboxRow, OutboxStore } from './outbox-store.interface';

/** Header carrying the outbox row id: a deterministic id consumers can deduplicate on. */
export const OUTBOX_ID_HEADER = 'x-outbox-id';

export interface OutboxRelayOptions {
  store: OutboxStore;
  transport: Pick<BusTransport, 'publish'>;
  batchSize?: number;
  /** Wait between polls when the outbox is empty; `notify()` cuts it short. */
  pollIntervalMs?: number;
  errorBackoff?: RetryBackoff;
  logger?: BusLogger;
}

/** Moves committed outbox rows to the bus, in id order, at least once. */
export class OutboxRelay {
  private readonly batchSize: number;
  private readonly pollIntervalMs: number;
  private readonly errorBackoff: RetryBackoff;
  private readonly logger: BusLogger;
  private loop: Promise<void> | null = null;
  private stopping = new AbortController();
  private wake = new AbortController();

  constructor(private readonly options: OutboxRelayOptions) {
    this.batchSize = options.batchSize ?? 100;
    this.pollIntervalMs = options.pollIntervalMs ?? 100;
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
    this.wake.abort();
  }

  /** Lets the batch in progress finish (publish + mark), then returns. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.loop;
    this.loop = null;
  }

  /** One batch; returns how many rows went out. */
  relayOnce(): Promise<number> {
    return this.options.store.relayBatch(this.batchSize, (rows) => this.publish(rows));
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopping.signal.aborted) {
      try {
        const published = await this.relayOnce();
        failures = 0;
        // A full batch means more may be waiting: go again without sleeping.
        if (published < this.batchSize) await this.idle(this.pollIntervalMs);
      } catch (error) {
        failures += 1;
        const delay = backoffDelay(this.errorBackoff, failures);
        // A dependency that is away (PostgreSQL, the broker) is expected and waited out: warn, with backoff; anything else is an error.
        const level = classifyFault(error) === 'transient' ? 'warn' : 'error';
        this.logger[level]({ err: errorDetails(error), failures, retryInMs: delay }, 'outbox relay batch failed');
        await sleep(delay, this.stopping.signal);
      }
    }
  }

  private async idle(ms: number): Promise<void> {
    // A notify() that arrived during the last batch means new rows: go again at once.
    if (!this.wake.signal.aborted) await sleep(ms, AbortSignal.any([this.stopping.signal, this.wake.signal]));
    if (this.wake.signal.aborted) this.wake = new AbortController();
  }

  /** Rows are grouped per topic but keep their id order inside each topic, so per-key order holds. */
  private async publish(rows: OutboxRow[]): Promise<void> {
    const byTopic = new Map<string, OutgoingRecord[]>();
    for (const row of rows) {
      const records = byTopic.get(row.topic) ?? [];
      records.push({ key: row.key, value: row.payload, headers: { ...row.headers, [OUTBOX_ID_HEADER]: row.id.toString() } });
      byTopic.set(row.topic, records);
    }
    for (const [topic, records] of byTopic) await this.options.transport.publish(topic, records);
  }
}
