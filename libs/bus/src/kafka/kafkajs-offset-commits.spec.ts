import { CoalescedCommits, coalesceKafkaOffsetCommits } from './kafkajs-offset-commits';

/** kafkajs's own OffsetManager (internal, untyped): one per group generation of a consumer. */
interface OffsetManager {
  resolveOffset(tp: { topic: string; partition: number; offset: string }): void;
  commitOffsets(offsets?: { topics?: unknown[] }): Promise<void>;
  committedOffsets(): Record<string, Record<number, string>>;
}
type OffsetManagerClass = new (options: object) => OffsetManager;
interface CommitRequest {
  topics: { topic: string; partitions: { partition: string; offset: string }[] }[]; // partitions as kafkajs keys them
}

const TOPIC = 'ledger.commands.v1';
const PARTITIONS = Array.from({ length: 12 }, (_, p) => p);

/** A coordinator that records each OffsetCommit and answers only when the test lets it. */
function heldCoordinator() {
  const requests: CommitRequest[] = [];
  const answers: { answer: () => void; fail: (error: Error) => void }[] = [];
  const coordinator = {
    isConnected: () => true,
    offsetCommit: (payload: CommitRequest) => {
      requests.push(payload);
      return new Promise<void>((resolve, reject) => answers.push({ answer: resolve, fail: reject }));
    },
  };
  return { coordinator, requests, answers };
}

function offsetManager(coordinator: object): OffsetManager {
  const OffsetManager = require('kafkajs/src/consumer/offsetManager') as OffsetManagerClass;
  const committed = {}; // kafkajs keeps a group's committed offsets on its Cluster
  return new OffsetManager({
    cluster: { committedOffsets: () => committed },
    coordinator,
    memberAssignment: { [TOPIC]: PARTITIONS },
    autoCommit: true,
    autoCommitInterval: null,
    autoCommitThreshold: null,
    topicConfigurations: {},
    instrumentationEmitter: { emit: () => undefined },
    groupId: 'ledger',
    generationId: 1,
    memberId: 'member-1',
  });
}

const settled = (promise: Promise<void>): Promise<string> =>
  promise.then(
    () => 'committed',
    (error: Error) => `failed: ${error.message}`,
  );
const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * What kafkajs's runner does with autoCommit: the batches of one fetch (12 partitions side by
 * side) each resolve their last offset and commit, while the first commit is still unanswered.
 */
function batchesOfOneFetch(manager: OffsetManager, offset: (partition: number) => string): Promise<string>[] {
  return PARTITIONS.map((partition) => {
    manager.resolveOffset({ topic: TOPIC, partition, offset: offset(partition) });
    return settled(manager.commitOffsets());
  });
}

describe('kafkajs offset commits', () => {
  // Runs first, before the patch: the behaviour it fixes.
  it('unpatched, kafkajs sends one OffsetCommit per batch of a fetch, each with every offset resolved so far', async () => {
    const { coordinator, requests, answers } = heldCoordinator();
    const calls = batchesOfOneFetch(offsetManager(coordinator), (p) => String(10 + p));
    await flush();
    expect(requests).toHaveLength(12);
    for (const a of answers) a.answer();
    expect(await Promise.all(calls)).toEqual(PARTITIONS.map(() => 'committed'));
  });

  describe('patched (as every process using @pay/bus has it)', () => {
    beforeAll(() => coalesceKafkaOffsetCommits());

    it('sends the first batch its commit at once and the eleven that ask meanwhile one commit of all twelve partitions', async () => {
      const { coordinator, requests, answers } = heldCoordinator();
      const manager = offsetManager(coordinator);
      const calls = batchesOfOneFetch(manager, (p) => String(10 + p));
      await flush();
      expect(requests).toHaveLength(1);
      expect(requests[0].topics[0].partitions).toEqual([{ partition: '0', offset: '11' }]);

      answers[0].answer();
      await flush();
      expect(requests).toHaveLength(2);
      expect(requests[1].topics[0].partitions).toEqual(
        PARTITIONS.filter((p) => p > 0).map((p) => ({ partition: String(p), offset: String(11 + p) })),
      );
      // Nobody has returned before the commit that carries its offset is answered.
      const early = await Promise.race([Promise.all(calls).then(() => 'returned'), flush().then(() => 'waiting')]);
      expect(early).toBe('waiting');

      answers[1].answer();
      expect(await Promise.all(calls)).toEqual(PARTITIONS.map(() => 'committed'));
      expect(manager.committedOffsets()[TOPIC]).toEqual(Object.fromEntries(PARTITIONS.map((p) => [p, String(11 + p)])));
    });

    it('a failed commit fails only its own callers; the follow-up still goes for the others', async () => {
      const { coordinator, requests, answers } = heldCoordinator();
      const manager = offsetManager(coordinator);
      const calls = batchesOfOneFetch(manager, (p) => String(p));
      await flush();
      answers[0].fail(new Error('REBALANCE_IN_PROGRESS'));
      await flush();
      expect(requests).toHaveLength(2);
      // Partition 0's offset was not committed: it goes again with the others.
      expect(requests[1].topics[0].partitions.map((p) => p.partition)).toEqual(PARTITIONS.map(String));
      answers[1].answer();
      expect(await Promise.all(calls)).toEqual([
        'failed: REBALANCE_IN_PROGRESS',
        ...PARTITIONS.slice(1).map(() => 'committed'),
      ]);
    });

    it('commits explicit offsets (consumer.commitOffsets) as kafkajs does, beside one in flight', async () => {
      const { coordinator, requests, answers } = heldCoordinator();
      const manager = offsetManager(coordinator);
      manager.resolveOffset({ topic: TOPIC, partition: 0, offset: '5' });
      const resolved = settled(manager.commitOffsets());
      const explicit = settled(
        manager.commitOffsets({ topics: [{ topic: TOPIC, partitions: [{ partition: 3, offset: '42' }] }] }),
      );
      await flush();
      expect(requests).toHaveLength(2);
      for (const a of answers) a.answer();
      expect(await Promise.all([resolved, explicit])).toEqual(['committed', 'committed']);
    });
  });
});

describe('CoalescedCommits', () => {
  it('runs one commit at a time; requests meanwhile share the next, which starts after they asked', async () => {
    const started: number[] = [];
    const finish: (() => void)[] = [];
    let asked = 0;
    const commits = new CoalescedCommits(() => {
      started.push(asked);
      return new Promise<void>((resolve) => finish.push(resolve));
    });
    asked = 1;
    const first = commits.request();
    asked = 2;
    const second = commits.request();
    asked = 3;
    const third = commits.request();
    await flush();
    expect(started).toEqual([1]); // the second and third wait for the first to end
    finish[0]();
    await first;
    await flush();
    expect(started).toEqual([1, 3]); // one follow-up, begun after both had asked
    finish[1]();
    await Promise.all([second, third]);
    asked = 4;
    const fourth = commits.request(); // nothing in flight: at once
    expect(started).toEqual([1, 3, 4]);
    finish[2]();
    await fourth;
  });
});
