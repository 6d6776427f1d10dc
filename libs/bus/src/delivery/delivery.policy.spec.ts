import { IncomingRecord } from '../transport/bus-transport.interface';
import { backoffDelay, deliverWithRetry, DeliveryPolicy } from './delivery.policy';

const record: IncomingRecord = { topic: 't', key: 'k', value: '{}', headers: {}, partition: 0, id: '0:1-0', deliveryCount: 1 };
const policy: DeliveryPolicy = { maxDeliveries: 3, backoff: { initialMs: 1, maxMs: 4 } };

describe('deliverWithRetry', () => {
  it('retries a failing handler until it succeeds, counting deliveries', async () => {
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

  it('dead-letters after maxDeliveries with the last error', async () => {
    const outcome = await deliverWithRetry(record, async () => Promise.reject(new Error('nope')), policy, { canContinue: () => true });
    expect(outcome.kind).toBe('dead-letter');
    expect(outcome.deliveryCount).toBe(3);
    expect(outcome.kind === 'dead-letter' && (outcome.error as Error).message).toBe('nope');
  });

  it('dead-letters without calling the handler when a reclaimed record already exceeded the limit', async () => {
    let calls = 0;
    const outcome = await deliverWithRetry({ ...record, deliveryCount: 4 }, async () => void calls++, policy, { canContinue: () => true });
    expect(outcome.kind).toBe('dead-letter');
    expect(calls).toBe(0);
  });

  it('aborts instead of retrying once it may not continue', async () => {
    let calls = 0;
    const outcome = await deliverWithRetry(
      record,
      async () => {
        calls++;
        throw new Error('x');
      },
      policy,
      { canContinue: () => false },
    );
    expect(outcome).toEqual({ kind: 'aborted', deliveryCount: 1 });
    expect(calls).toBe(1);
  });

  it('grows the backoff exponentially up to the cap', () => {
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay({ initialMs: 100, maxMs: 500 }, n))).toEqual([100, 200, 400, 500, 500]);
  });
});
