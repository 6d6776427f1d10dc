/**
 * One commit in flight at a time. A request while one is in flight shares a single follow-up,
 * sent when the in-flight one ends (whether it succeeded or not); every request made meanwhile
 * waits for that follow-up. So each caller's promise settles with a commit that began after it
 * asked, which carries whatever it resolved before asking, as its own commit would have.
 */
export class CoalescedCommits {
  private inFlight: Promise<void> | null = null;
  private followUp: Promise<void> | null = null;

  constructor(private readonly commit: () => Promise<void>) {}

  request(): Promise<void> {
    if (this.followUp) return this.followUp;
    if (!this.inFlight) return this.start();
    const followUp = this.inFlight
      .catch(() => undefined) // its own callers hear of its failure
      .then(() => {
        this.followUp = null;
        return this.start();
      });
    this.followUp = followUp;
    return followUp;
  }

  private start(): Promise<void> {
    const commit = this.commit().finally(() => {
      if (this.inFlight === commit) this.inFlight = null;
    });
    this.inFlight = commit;
    return commit;
  }
}

const COMMITS = Symbol('pay.bus.kafkajs.coalescedCommits');
const PATCHED = Symbol.for('pay.bus.kafkajs.coalescedOffsetCommits');

/** What the patch relies on in kafkajs's (untyped, internal) OffsetManager: one per group generation. */
interface OffsetManagerInternals {
  commitOffsets(offsets?: { topics?: unknown[] }): Promise<void>;
  [COMMITS]?: CoalescedCommits;
}

type OffsetManagerPrototype = OffsetManagerInternals & { [PATCHED]?: true };

/** The kafkajs this patch was written against (its latest release); another must be reviewed first. */
const KAFKAJS_VERSION = '2.2.4';

/**
 * Stops kafkajs from committing the same offsets several times over.
 *
 * With `autoCommit`, kafkajs 2.2.4 commits after every partition's batch: the OffsetManager reads
 * the offsets resolved and not yet committed, sends them, and marks them committed when the
 * broker answers. The batches of one fetch run side by side (`partitionsConsumedConcurrently`)
 * and end within moments of each other (the ledger applies them in one transaction), so each
 * sends its own OffsetCommit before the first is answered, every one of them carrying the offsets
 * of all the partitions. Counted through a Kafka run of the transfer bench: the ledger sent 6,450
 * OffsetCommit requests against 1,270 fetches and 3,061 produces.
 *
 * Patched: a commit of the resolved offsets (no explicit offsets given) waits while another is in
 * flight and then goes once for everyone who asked meanwhile (CoalescedCommits). Nothing is
 * committed later than one round trip after kafkajs would have committed it, and each caller still
 * returns only once its offsets are committed (or with the error of the commit that carried them),
 * so an offset is never committed before its record is handled and a rebalance redelivers no
 * more than before. Explicit offsets (`consumer.commitOffsets`) go as kafkajs sends them.
 *
 * Applied once per process when the Kafka transport's module loads, with the RequestQueue patches
 * (kafkajs-request-queue.ts); idempotent. Another kafkajs version is refused until reviewed.
 */
export function coalesceKafkaOffsetCommits(): void {
  // kafkajs has no "exports" map: its internal modules are reachable by path, untyped.
  const OffsetManager = require('kafkajs/src/consumer/offsetManager') as { prototype: OffsetManagerPrototype };
  const proto = OffsetManager.prototype;
  if (proto[PATCHED]) return;
  const { version } = require('kafkajs/package.json') as { version: string };
  if (version !== KAFKAJS_VERSION)
    throw new Error(
      `kafkajs ${version} is installed; coalesceKafkaOffsetCommits patches ${KAFKAJS_VERSION}'s OffsetManager: review it against the new version first`,
    );
  const commitOffsets = proto.commitOffsets;
  proto.commitOffsets = function commitResolvedOffsets(this: OffsetManagerInternals, offsets = {}): Promise<void> {
    if (offsets.topics) return commitOffsets.call(this, offsets);
    this[COMMITS] ??= new CoalescedCommits(() => commitOffsets.call(this));
    return this[COMMITS].request();
  };
  proto[PATCHED] = true;
}
