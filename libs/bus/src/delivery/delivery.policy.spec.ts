import { PermanentError, TransientError } from '@pay/platform';
import { IncomingRecord } from '../transport/bus-transport.interface';
import {
  backoffDelay,
  deliverOnce,
  deliverWithRetry,
  DeliveryPolicy,
  type FailureReport,
  transientRetry,
} from './delivery.policy';

const record: IncomingRecord = {
  topic: 't',
  key: 'k',
  value: '{}',
  headers: {},
  partition: 0,
  id: '0:1-0',
  deliveryCount: 1,
};
const policy: DeliveryPolicy = { maxDeliveries: 3, backoff: { initialMs: 1, maxMs: 4 } };
const connectionTerminated = (): Error =>
  Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });

describe('deliverWithRetry', () => {
  it('retries an unknown failure until it succeeds, counting deliveries', async () => {
    const seen: number[] = [];
    const outcome = await deliverWithRetry(
      record,
      async (r) => {
        seen.push(r.deliveryCount);
        if (seen.length < 3) throw new Error('boom');
      },
      policy,
      { canContinue: () => true },
    );
    expect(outcome).toEqual({ kind: 'handled', deliveryCount: 3 });
    expect(seen).toEqual([1, 2, 3]);
  });

  it('dead-letters an unknown failure after maxDeliveries with the last error', async () => {
    const outcome = await deliverWithRetry(record, async () => Promise.reject(new Error('nope')), policy, {
      canContinue: () => true,
    });
    expect(outcome.kind).toBe('dead-letter');
    expect(outcome.deliveryCount).toBe(3);
    expect(outcome.kind === 'dead-letter' && outcome.fault).toBe('unknown');
    expect(outcome.kind === 'dead-letter' && (outcome.error as Error).message).toBe('nope');
  });

  it('never dead-letters a transient failure: 50 failures in a row (a database outage), then it succeeds', async () => {
    let calls = 0;
    const persisted: number[] = [];
    const reports: FailureReport[] = [];
    const outcome = await deliverWithRetry(
      record,
      async () => {
        if (++calls <= 50) throw calls % 2 ? connectionTerminated() : new TransientError('redis away');
      },
      policy,
      {
        canContinue: () => true,
        beforeRetry: async (n) => void persisted.push(n),
        onFailure: (r) => void reports.push(r),
      },
    );
    expect(outcome).toEqual({ kind: 'handled', deliveryCount: 1 });
    expect(calls).toBe(51);
    // Transient failures do not use up deliveries: the persisted count stays 1.
    expect(new Set(persisted)).toEqual(new Set([1]));
    expect(
      reports.every((r) => r.fault === 'transient' && r.retryInMs !== null && r.retryInMs <= policy.backoff.maxMs),
    ).toBe(true);
    expect(reports.at(-1)?.transientFailures).toBe(50);
  });

  it('dead-letters a permanent failure at once, without retrying', async () => {
    let calls = 0;
    const outcome = await deliverWithRetry(
      record,
      async () => {
        calls++;
        JSON.parse('{not json');
      },
      policy,
      { canContinue: () => true },
    );
    expect(outcome.kind === 'dead-letter' && outcome.fault).toBe('permanent');
    expect(calls).toBe(1);
    const invalid = await deliverWithRetry(
      record,
      async () => Promise.reject(new PermanentError('unknown contract version')),
      policy,
      { canContinue: () => true },
    );
    expect(invalid).toMatchObject({ kind: 'dead-letter', fault: 'permanent', deliveryCount: 1 });
  });

  it('gives a reclaimed record above the limit one more delivery instead of dead-lettering it unseen', async () => {
    let calls = 0;
    const outcome = await deliverWithRetry({ ...record, deliveryCount: 7 }, async () => void calls++, policy, {
      canContinue: () => true,
    });
    expect(outcome).toEqual({ kind: 'handled', deliveryCount: 7 });
    expect(calls).toBe(1);
    const failing = await deliverWithRetry(
      { ...record, deliveryCount: 7 },
      async () => Promise.reject(new Error('bug')),
      policy,
      { canContinue: () => true },
    );
    expect(failing).toMatchObject({ kind: 'dead-letter', fault: 'unknown', deliveryCount: 7 });
  });

  it('aborts instead of retrying once it may not continue', async () => {
    let calls = 0;
    const outcome = await deliverWithRetry(
      record,
      async () => {
        calls++;
        throw connectionTerminated();
      },
      policy,
      { canContinue: () => false },
    );
    expect(outcome).toEqual({ kind: 'aborted', deliveryCount: 1 });
    expect(calls).toBe(1);
  });

  it('grows the backoff exponentially up to the cap', () => {
    expect([1, 2, 3, 4, 5, 500].map((n) => backoffDelay({ initialMs: 100, maxMs: 500 }, n))).toEqual([
      100, 200, 400, 500, 500, 500,
    ]);
  });
});

describe('deliverOnce (Kafka: one delivery per fetch, the state kept between pauses)', () => {
  const fresh = { deliveryCount: 1, transientFailures: 0 };

  it('hands the handler the kept delivery count and reports success', async () => {
    const seen: number[] = [];
    const step = await deliverOnce(record, async (r) => void seen.push(r.deliveryCount), policy, {
      deliveryCount: 2,
      transientFailures: 4,
    });
    expect(step).toEqual({ kind: 'handled', deliveryCount: 2 });
    expect(seen).toEqual([2]);
  });

  it('counts unknown failures across steps until maxDeliveries, then dead-letters with the last error', async () => {
    const failing = async (): Promise<void> => Promise.reject(new Error('bug'));
    const first = await deliverOnce(record, failing, policy, fresh);
    expect(first).toMatchObject({
      kind: 'retry',
      fault: 'unknown',
      delayMs: 1,
      next: { deliveryCount: 2, transientFailures: 0 },
    });
    const second = first.kind === 'retry' ? await deliverOnce(record, failing, policy, first.next) : first;
    expect(second).toMatchObject({ kind: 'retry', delayMs: 2, next: { deliveryCount: 3 } });
    const third = second.kind === 'retry' ? await deliverOnce(record, failing, policy, second.next) : second;
    expect(third).toMatchObject({ kind: 'dead-letter', fault: 'unknown', deliveryCount: 3 });
  });

  it('keeps a transient failure from spending deliveries, its backoff growing to the cap across steps', async () => {
    const reports: FailureReport[] = [];
    let state = { deliveryCount: 2, transientFailures: 0 };
    const delays: number[] = [];
    for (let i = 0; i < 5; i++) {
      const step = await deliverOnce(
        record,
        async () => Promise.reject(connectionTerminated()),
        policy,
        state,
        (r) => void reports.push(r),
      );
      if (step.kind !== 'retry') throw new Error(`expected a retry, got ${step.kind}`);
      delays.push(step.delayMs);
      state = step.next;
    }
    expect(delays).toEqual([1, 2, 4, 4, 4]);
    expect(state).toEqual({ deliveryCount: 2, transientFailures: 5 });
    expect(reports.map((r) => r.transientFailures)).toEqual([1, 2, 3, 4, 5]);
  });

  it('dead-letters a permanent failure at the first step', async () => {
    const step = await deliverOnce(record, async () => Promise.reject(new PermanentError('invalid')), policy, fresh);
    expect(step).toMatchObject({ kind: 'dead-letter', fault: 'permanent', deliveryCount: 1 });
  });

  it('waits after a failed dead-letter write as for a dependency away, without spending a delivery', () => {
    expect(transientRetry(policy, { deliveryCount: 3, transientFailures: 2 })).toEqual({
      delayMs: 4,
      next: { deliveryCount: 3, transientFailures: 3 },
    });
  });
});
