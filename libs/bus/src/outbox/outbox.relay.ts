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
  /**
   * The safety net: every this often (default 5 s) the relay lists every topic with unpublished
   * rows and relays them, whoever usually does. Notifications do the everyday work.
   */
  pollIntervalMs?: number;
  /**
   * The topics a notification wakes this relay for (default: every topic). Each service relays
   * the topics it is the natural home of at once, and the others only at its safety-net poll, so
   * one commit wakes one relay rather than every relay of every service (which would each spend
   * a transaction finding the topic's lock taken).
   */
  wakeTopics?: readonly string[];
  /**
   * After a batch of a topic that was no full batch, a notification that came in while it was
   * read waits this long before the next batch, so the commits of a burst go out in one batch (one
   * transaction) instead of one each. Never after an idle spell: a lone commit goes out at once.
   * 0 turns it off.
   */
  lingerMs?: number;
  /** Between attempts of a topic whose batch failed (each topic backs off on its own). */
  errorBackoff?: RetryBackoff;
  logger?: BusLogger;
}

/** A topic being relayed, and whether rows were announced for it since its last batch was read. */
interface Lane {
  dirty: boolean;
  done: Promise<void>;
}

/**
 * Moves committed outbox rows to the bus, at least once, in id order per topic (so per key).
 * Each topic with rows waiting gets a lane of its own that publishes and marks its batches: a
 * topic the broker refuses backs off and retries while the other topics go on.
 * A notification names its topic (the outbox trigger's payload): that topic's lane runs, with
 * no listing of the others; a notification without one (a reconnected LISTEN) and the
 * safety-net poll list every pending topic.
 */
export class OutboxRelay {
  private readonly batchSize: number;
  private readonly pollIntervalMs: number;
  private readonly lingerMs: number;
  private readonly wakeTopics: ReadonlySet<string> | null;
  private readonly errorBackoff: RetryBackoff;
  private readonly logger: BusLogger;
  private loop: Promise<void> | null = null;
  private readonly lanes = new Map<string, Lane>();
  private stopping = new AbortController();
  private wake = new AbortController();

  constructor(private readonly options: OutboxRelayOptions) {
    this.batchSize = options.batchSize ?? 100;
    this.pollIntervalMs = options.pollIntervalMs ?? 5000;
    this.lingerMs = options.lingerMs ?? 3;
    this.wakeTopics = options.wakeTopics ? new Set(options.wakeTopics) : null;
    this.errorBackoff = options.errorBackoff ?? { initialMs: 200, maxMs: 10_000 };
    this.logger = options.logger ?? noopLogger;
  }

  start(): void {
    if (this.loop) return;
    this.stopping = new AbortController();
    this.loop = this.run();
  }

  /**
   * Rows were committed: of `topic` (relayed now if it is one this relay wakes for, else left to
   * its owner and the safety net), or of unknown topics (every pending topic is listed now).
   */
  notify(topic?: string): void {
    if (this.stopping.signal.aborted || !this.loop) return;
    if (!topic) this.wake.abort();
    else if (!this.wakeTopics || this.wakeTopics.has(topic)) this.relay(topic);
  }

  /** Lets the batches in progress finish (publish + mark), then returns. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.loop;
    await Promise.all([...this.lanes.values()].map((l) => l.done));
    this.loop = null;
  }

  /** The safety net: lists every pending topic at start, on a notification without a topic, and every poll interval. */
  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopping.signal.aborted) {
      try {
        if (this.wake.signal.aborted) this.wake = new AbortController();
        for (const topic of await this.options.store.pendingTopics()) this.relay(topic);
        failures = 0;
        await sleep(this.pollIntervalMs, AbortSignal.any([this.stopping.signal, this.wake.signal]));
      } catch (error) {
        failures += 1;
        await this.backOff(error, failures, 'outbox relay could not list the pending topics');
      }
    }
  }

  /** Runs `topic`'s lane, or tells the running one to read again once its batch is done. */
  private relay(topic: string): void {
    const running = this.lanes.get(topic);
    if (running) {
      running.dirty = true;
      return;
    }
    const lane: Lane = { dirty: false, done: Promise.resolve() };
    this.lanes.set(topic, lane);
    lane.done = this.drain(topic, lane).finally(() => {
      if (this.lanes.get(topic) === lane) this.lanes.delete(topic);
    });
  }

  /**
   * Relays `topic` until a batch finds no backlog and nothing new was announced meanwhile; a
   * failed batch is retried, with backoff, by this lane only.
   */
  private async drain(topic: string, lane: Lane): Promise<void> {
    let failures = 0;
    while (!this.stopping.signal.aborted) {
      try {
        lane.dirty = false;
        const published = await this.options.store.relayBatch(topic, this.batchSize, (rows) =>
          this.publish(topic, rows),
        );
        failures = 0;
        if (published >= this.batchSize) continue; // a backlog: no wait
        if (!lane.dirty) {
          // Gone from the map in the same turn as the decision: a notification from now on starts a new lane.
          this.lanes.delete(topic);
          return;
        }
        // Rows were committed while this batch was read: under a trickle, let a few more come.
        if (published > 0 && this.lingerMs > 0) await sleep(this.lingerMs, this.stopping.signal);
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

  private publish(topic: string, rows: OutboxRow[]): Promise<void> {
    return this.options.transport.publish(
      topic,
      rows.map((row) => ({
        key: row.key,
        value: row.payload,
        headers: { ...row.headers, [OUTBOX_ID_HEADER]: row.id.toString() },
      })),
    );
  }
}
