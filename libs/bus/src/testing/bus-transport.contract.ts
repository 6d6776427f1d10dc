import { randomUUID } from 'node:crypto';
import {
  BusTransport,
  deadLetterTopic,
  DLQ_HEADERS,
  IncomingRecord,
  OutgoingRecord,
} from '../transport/bus-transport.interface';

/** What the contract needs from one transport kind; each test gets a fresh harness (own namespace). */
export interface TransportHarness {
  /** A new transport with its own connections, as a separate process would have. */
  transport(overrides?: { maxDeliveries?: number }): BusTransport;
  /** A topic name unique to this test, which dispose() cleans up. */
  topic(base: string): string;
  /** Records delivered to `group` but not acknowledged yet (Redis: XPENDING; Kafka: committed-offset lag). */
  unacknowledged(topic: string, group: string): Promise<number>;
  /** Closes every transport it made and deletes what the test created on the broker. */
  dispose(): Promise<void>;
  /** Time for a freshly subscribed group to settle its partition assignment. */
  settleMs: number;
  /** Upper bound for any single wait in a test. */
  waitMs: number;
}

export const uniqueName = (base: string): string => `${base}-${randomUUID().slice(0, 8)}`;

export const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitFor(
  what: string,
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for: ${what}`);
    await delay(20);
  }
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) map.set(key(item), [...(map.get(key(item)) ?? []), item]);
  return map;
}

/** One suite, every transport: proves the guarantees of BusTransport by outcomes, not by calls. */
export function describeTransportContract(
  name: string,
  makeHarness: () => TransportHarness,
  testTimeoutMs = 20_000,
): void {
  const it = (title: string, fn: () => Promise<void>): void => test(title, fn, testTimeoutMs);

  describe(`BusTransport contract: ${name}`, () => {
    let h: TransportHarness;
    let timeout: number;

    beforeEach(() => {
      h = makeHarness();
      timeout = h.waitMs;
    });

    afterEach(async () => {
      await h.dispose();
    });

    it('delivers every published record with key, value and headers intact', async () => {
      const topic = h.topic('contract.delivery');
      const bus = h.transport();
      const received: IncomingRecord[] = [];
      await bus.subscribe({ topic, group: 'g', handler: async (r) => void received.push(r) });
      const sent: OutgoingRecord[] = Array.from({ length: 25 }, (_, i) => ({
        key: `merchant-${i % 5}`,
        value: JSON.stringify({ n: i, amount: '1050', note: 'ünïcødé' }),
        headers: { 'x-log-id': `log-${i}`, 'content-type': 'application/json' },
      }));
      await bus.publish(topic, sent);

      await waitFor('all 25 records', () => received.length >= 25, timeout);
      const project = (r: OutgoingRecord): string => JSON.stringify([r.key, r.value, r.headers]);
      expect(received.map(project).sort()).toEqual(sent.map(project).sort());
      expect(received.every((r) => r.topic === topic && r.deliveryCount === 1)).toBe(true);
      expect(new Set(received.map((r) => r.id)).size).toBe(25);
    });

    it('handles each key in publish order, exactly once, spread over the members of a group', async () => {
      const topic = h.topic('contract.order');
      const handled: { consumer: string; key: string; seq: number }[] = [];
      const active = new Set<string>();
      let overlaps = 0;
      for (const consumer of ['c0', 'c1', 'c2']) {
        await h.transport().subscribe({
          topic,
          group: 'ordered',
          consumerName: consumer,
          handler: async (r) => {
            const { seq } = JSON.parse(r.value) as { seq: number };
            if (active.has(r.key)) overlaps++; // same key must never run twice at once, across members
            active.add(r.key);
            await delay(seq % 7 === 0 ? 3 : 0);
            handled.push({ consumer, key: r.key, seq });
            active.delete(r.key);
          },
        });
      }
      await delay(h.settleMs);

      const publisher = h.transport();
      const keys = Array.from({ length: 10 }, (_, i) => `key-${i}`);
      for (let seq = 0; seq < 20; seq++)
        await publisher.publish(
          topic,
          keys.map((key) => ({ key, value: JSON.stringify({ seq }) })),
        );

      await waitFor('200 records handled', () => handled.length >= 200, timeout);
      await delay(100); // a duplicate would show up here
      expect(handled).toHaveLength(200);
      const byKey = groupBy(handled, (x) => x.key);
      expect([...byKey.keys()].sort()).toEqual([...keys].sort());
      for (const records of byKey.values())
        expect(records.map((x) => x.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i));
      expect(overlaps).toBe(0);
      expect(new Set(handled.map((x) => x.consumer)).size).toBeGreaterThan(1);
    });

    it('acknowledges only after the handler succeeds: two failures, then success on delivery 3', async () => {
      const topic = h.topic('contract.ack');
      const bus = h.transport();
      const deliveries: number[] = [];
      let done = false;
      await bus.subscribe({
        topic,
        group: 'acks',
        handler: async (r) => {
          deliveries.push(r.deliveryCount);
          if (deliveries.length <= 2) throw new Error(`transient failure ${deliveries.length}`);
          done = true;
        },
      });
      await bus.publish(topic, [{ key: 'k', value: '{"x":1}' }]);

      await waitFor('handler success', () => done, timeout);
      expect(deliveries).toEqual([1, 2, 3]);
      await waitFor('nothing left unacknowledged', async () => (await h.unacknowledged(topic, 'acks')) === 0, timeout);
      await delay(200);
      expect(deliveries).toHaveLength(3);
    });

    it('dead-letters a record after max deliveries, then goes on with the same key', async () => {
      const topic = h.topic('contract.dlq');
      const bus = h.transport({ maxDeliveries: 3 });
      let poisonAttempts = 0;
      const handledAfter: string[] = [];
      await bus.subscribe({
        topic,
        group: 'dlq-group',
        handler: async (r) => {
          if (r.value === '"poison"') {
            poisonAttempts++;
            throw new Error('cannot process poison');
          }
          handledAfter.push(r.value);
        },
      });
      const dead: IncomingRecord[] = [];
      await bus.subscribe({
        topic: deadLetterTopic(topic),
        group: 'dlq-reader',
        handler: async (r) => void dead.push(r),
      });

      await bus.publish(topic, [
        { key: 'm-1', value: '"poison"', headers: { 'x-log-id': 'L-poison' } },
        { key: 'm-1', value: '"after"' },
      ]);

      await waitFor('dead letter', () => dead.length === 1, timeout);
      await waitFor('next record of the key', () => handledAfter.length === 1, timeout);
      expect(poisonAttempts).toBe(3);
      expect(handledAfter).toEqual(['"after"']);
      const [letter] = dead;
      expect(letter.key).toBe('m-1');
      expect(letter.value).toBe('"poison"');
      expect(letter.headers['x-log-id']).toBe('L-poison');
      expect(letter.headers[DLQ_HEADERS.error]).toBe('cannot process poison');
      expect(letter.headers[DLQ_HEADERS.originalTopic]).toBe(topic);
      expect(letter.headers[DLQ_HEADERS.originalId]).toMatch(/^\d+:/);
      expect(letter.headers[DLQ_HEADERS.deliveryCount]).toBe('3');
      expect(letter.headers[DLQ_HEADERS.fault]).toBe('unknown');
      await waitFor('poison acknowledged', async () => (await h.unacknowledged(topic, 'dlq-group')) === 0, timeout);
    });

    it('dead-letters a record that can never succeed at once, with its fault', async () => {
      const topic = h.topic('contract.permanent');
      const bus = h.transport({ maxDeliveries: 5 });
      let attempts = 0;
      await bus.subscribe({
        topic,
        group: 'permanent-group',
        handler: async (r) => {
          attempts++;
          JSON.parse(r.value); // not JSON: a SyntaxError never becomes valid
        },
      });
      const dead: IncomingRecord[] = [];
      await bus.subscribe({
        topic: deadLetterTopic(topic),
        group: 'dlq-reader',
        handler: async (r) => void dead.push(r),
      });
      await bus.publish(topic, [{ key: 'm-1', value: '{not json' }]);

      await waitFor('dead letter', () => dead.length === 1, timeout);
      expect(attempts).toBe(1);
      expect(dead[0].headers[DLQ_HEADERS.fault]).toBe('permanent');
      expect(dead[0].headers[DLQ_HEADERS.deliveryCount]).toBe('1');
    });

    it('retries a transient failure past maxDeliveries, in order, and never dead-letters it', async () => {
      const topic = h.topic('contract.transient');
      const bus = h.transport({ maxDeliveries: 2 });
      let failuresLeft = 6;
      const handled: string[] = [];
      await bus.subscribe({
        topic,
        group: 'transient-group',
        handler: async (r) => {
          if (r.value === '"first"' && failuresLeft-- > 0)
            throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
          handled.push(r.value);
        },
      });
      const dead: IncomingRecord[] = [];
      await bus.subscribe({
        topic: deadLetterTopic(topic),
        group: 'dlq-reader',
        handler: async (r) => void dead.push(r),
      });
      await bus.publish(topic, [
        { key: 'm-1', value: '"first"' },
        { key: 'm-1', value: '"second"' },
      ]);

      await waitFor('both handled', () => handled.length === 2, timeout);
      expect(handled).toEqual(['"first"', '"second"']);
      expect(failuresLeft).toBe(-1);
      await delay(200);
      expect(dead).toHaveLength(0);
      await waitFor(
        'nothing left unacknowledged',
        async () => (await h.unacknowledged(topic, 'transient-group')) === 0,
        timeout,
      );
    });

    describe('batches (group commit)', () => {
      const refused = (): Error =>
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      const valueOf = (r: IncomingRecord): { key: string; seq: number } => ({
        key: r.key,
        ...(JSON.parse(r.value) as { seq: number }),
      });

      it('hands the records waiting on a partition to the batch handler together, in order, each exactly once', async () => {
        const topic = h.topic('contract.batch');
        const keys = ['m-1', 'm-2', 'm-3'];
        // Published before anyone subscribes, so they wait and come in batches.
        await h.transport().publish(
          topic,
          Array.from({ length: 60 }, (_, i) => ({
            key: keys[i % 3],
            value: JSON.stringify({ seq: Math.floor(i / 3) }),
          })),
        );
        const committed: { key: string; seq: number }[] = [];
        const sizes: number[] = [];
        await h.transport().subscribe({
          topic,
          group: 'batches',
          handler: async (r) => void committed.push(valueOf(r)),
          batchHandler: async (records) => {
            sizes.push(records.length);
            committed.push(...records.map(valueOf));
          },
        });

        await waitFor('60 records', () => committed.length >= 60, timeout);
        await delay(100);
        expect(committed).toHaveLength(60);
        for (const [, got] of groupBy(committed, (c) => c.key))
          expect(got.map((c) => c.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i));
        expect(Math.max(...sizes)).toBeGreaterThan(1);
        await waitFor(
          'nothing left unacknowledged',
          async () => (await h.unacknowledged(topic, 'batches')) === 0,
          timeout,
        );
      });

      it('retries a batch whole while a dependency is away, then commits it once, in order', async () => {
        const topic = h.topic('contract.batch-transient');
        await h.transport().publish(
          topic,
          Array.from({ length: 10 }, (_, seq) => ({ key: 'm-1', value: JSON.stringify({ seq }) })),
        );
        const committed: number[] = [];
        let outage = 2;
        await h.transport({ maxDeliveries: 1 }).subscribe({
          topic,
          group: 'batch-transient',
          handler: async (r) => void committed.push(valueOf(r).seq),
          batchHandler: async (records) => {
            if (outage-- > 0) throw refused(); // all or nothing: a failed batch commits none of its records
            committed.push(...records.map((r) => valueOf(r).seq));
          },
        });
        const dead: IncomingRecord[] = [];
        await h
          .transport()
          .subscribe({ topic: deadLetterTopic(topic), group: 'dlq-reader', handler: async (r) => void dead.push(r) });

        await waitFor('10 records', () => committed.length >= 10, timeout);
        await delay(200);
        expect(committed).toEqual(Array.from({ length: 10 }, (_, i) => i));
        expect(outage).toBeLessThan(0);
        expect(dead).toHaveLength(0);
      });

      it('finds the record a batch cannot take by delivering them one at a time: it alone is dead-lettered, the others commit once', async () => {
        const topic = h.topic('contract.batch-poison');
        await h.transport().publish(
          topic,
          Array.from({ length: 6 }, (_, seq) => ({ key: 'm-1', value: JSON.stringify({ seq }) })),
        );
        const committed: number[] = [];
        const poison = (r: IncomingRecord): boolean => valueOf(r).seq === 2;
        await h.transport({ maxDeliveries: 2 }).subscribe({
          topic,
          group: 'batch-poison',
          handler: async (r) => {
            if (poison(r)) throw new Error('cannot process poison');
            committed.push(valueOf(r).seq);
          },
          batchHandler: async (records) => {
            if (records.some(poison)) throw new Error('cannot process poison');
            committed.push(...records.map((r) => valueOf(r).seq));
          },
        });
        const dead: IncomingRecord[] = [];
        await h
          .transport()
          .subscribe({ topic: deadLetterTopic(topic), group: 'dlq-reader', handler: async (r) => void dead.push(r) });

        await waitFor('dead letter', () => dead.length === 1, timeout);
        await waitFor('the others', () => committed.length >= 5, timeout);
        await delay(200);
        expect(committed).toEqual([0, 1, 3, 4, 5]);
        expect(valueOf(dead[0]).seq).toBe(2);
        await waitFor(
          'nothing left unacknowledged',
          async () => (await h.unacknowledged(topic, 'batch-poison')) === 0,
          timeout,
        );
      });
    });

    it('gathers a trickle into few reads for a stand-by subscription (gatherMs), each record once and in order', async () => {
      const topic = h.topic('contract.gather');
      const groups = [
        { group: 'at-once', gatherMs: 0, reads: 0, seqs: [] as number[] },
        { group: 'gathering', gatherMs: 700, reads: 0, seqs: [] as number[] },
      ];
      for (const g of groups) {
        const take = async (records: IncomingRecord[]): Promise<void> => {
          g.reads += 1;
          g.seqs.push(...records.map((r) => (JSON.parse(r.value) as { seq: number }).seq));
        };
        await h
          .transport()
          .subscribe({ topic, group: g.group, gatherMs: g.gatherMs, handler: (r) => take([r]), batchHandler: take });
      }
      await delay(h.settleMs);

      // 40 records over about 1.4 s, one key (one partition), each published alone.
      const publisher = h.transport();
      for (let seq = 0; seq < 40; seq++) {
        await publisher.publish(topic, [{ key: 'm-1', value: JSON.stringify({ seq }) }]);
        await delay(35);
      }

      await waitFor('both groups have every record', () => groups.every((g) => g.seqs.length >= 40), timeout);
      await delay(1_000); // a duplicate would show up here
      for (const g of groups) expect(g.seqs).toEqual(Array.from({ length: 40 }, (_, i) => i));
      // Read as they come: many small reads. Gathered: one read per 700 ms of the trickle, give or take one.
      const [atOnce, gathering] = groups;
      expect(atOnce.reads).toBeGreaterThanOrEqual(10);
      expect(gathering.reads).toBeLessThanOrEqual(5);
      await waitFor(
        'nothing left unacknowledged',
        async () => (await h.unacknowledged(topic, 'gathering')) === 0,
        timeout,
      );
    });

    it('gives every record to each of two groups', async () => {
      const topic = h.topic('contract.groups');
      const seen = new Map<string, string[]>([
        ['ledger', []],
        ['audit', []],
      ]);
      for (const group of seen.keys()) {
        await h.transport().subscribe({ topic, group, handler: async (r) => void seen.get(group)?.push(r.value) });
      }
      const values = Array.from({ length: 30 }, (_, i) => JSON.stringify({ i }));
      await h.transport().publish(
        topic,
        values.map((value, i) => ({ key: `k${i % 4}`, value })),
      );

      await waitFor('both groups complete', () => [...seen.values()].every((v) => v.length >= 30), timeout);
      await delay(100);
      for (const got of seen.values()) expect([...got].sort()).toEqual([...values].sort());
    });
  });
}
