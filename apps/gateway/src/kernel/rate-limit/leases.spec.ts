import { LEASE_TTL_MS, Leases } from './leases';

const policy = { limit: 100, windowSeconds: 1 };
const key = '7:read';

/** Asks and is granted what it asked for (a bucket with room), at `now`. */
function lease(leases: Leases, now: number, p = policy): number {
  const want = leases.ask(key, p, now);
  leases.grant(key, p, want, 50, now + 500, now);
  return want;
}

/** Takes every cell left at `now`: how many there were. */
function drain(leases: Leases, now: number): number {
  let n = 0;
  while (leases.take(key, now)) n++;
  return n;
}

describe('Leases', () => {
  it('asks for one cell first, twice as many each time a lease is used up in time, up to a tenth of the burst', () => {
    const leases = new Leases();
    const asked: number[] = [];
    for (let i = 0; i < 7; i++) {
      asked.push(lease(leases, 1_000 + i));
      drain(leases, 1_000 + i);
    }
    expect(asked).toEqual([1, 2, 4, 8, 10, 10, 10]);
  });

  it("serves a lease's cells (the asking request took one) until LEASE_TTL_MS after the grant, and says what is left", () => {
    const leases = new Leases();
    expect(lease(leases, 1_000)).toBe(1);
    expect(leases.take(key, 1_000)).toBeUndefined();
    expect(lease(leases, 1_001)).toBe(2);
    expect(leases.take(key, 1_001)).toEqual({ policy, remaining: 50, resetAt: 1_501 });
    expect(leases.take(key, 1_001)).toBeUndefined();
    expect(lease(leases, 1_002)).toBe(4);
    expect(leases.holds(key, 1_002)).toBe(true);
    expect(leases.take(key, 1_002)).toEqual({ policy, remaining: 52, resetAt: 1_502 });
    expect(leases.take(key, 1_002 + LEASE_TTL_MS)).toBeUndefined();
    expect(leases.holds(key, 1_002 + LEASE_TTL_MS)).toBe(false);
  });

  it('sizes the next lease to what was used when one expires with cells left', () => {
    const leases = new Leases();
    for (let i = 0; i < 4; i++) {
      lease(leases, 1_000 + i);
      drain(leases, 1_000 + i);
    }
    expect(lease(leases, 1_010)).toBe(10);
    leases.take(key, 1_010);
    leases.take(key, 1_010);
    // Expired with 7 of 10 left: the asking request and two more were served.
    expect(leases.ask(key, policy, 1_010 + LEASE_TTL_MS)).toBe(3);
  });

  it('always asks for one cell for a class whose burst is under 20 (exports, low limits of its own)', () => {
    const leases = new Leases();
    const low = { limit: 19, windowSeconds: 1 };
    for (let i = 0; i < 4; i++) expect(lease(leases, 1_000 + i, low)).toBe(1);
    expect(leases.take(key, 1_003)).toBeUndefined();
  });

  it('makes the requests that come while one asks wait for its answer, and sizes the next lease to them', async () => {
    const leases = new Leases();
    expect(leases.ask(key, policy, 1_000)).toBe(1);
    const waiting = [leases.pending(key), leases.pending(key), leases.pending(key)];
    expect(waiting.every((w) => w instanceof Promise)).toBe(true);
    let woken = 0;
    for (const w of waiting) void w?.then(() => woken++);
    leases.grant(key, policy, 1, 50, 1_500, 1_001);
    await Promise.resolve();
    expect(woken).toBe(3);
    expect(leases.pending(key)).toBeUndefined();
    // Three requests waited and found no cell: the next ask covers them and itself.
    expect(leases.ask(key, policy, 1_002)).toBe(4);
  });

  it('after a refusal or a failure (drop) holds nothing, wakes the waiting requests, and starts again at one cell', async () => {
    const leases = new Leases();
    for (let i = 0; i < 3; i++) {
      lease(leases, 1_000 + i);
      drain(leases, 1_000 + i);
    }
    lease(leases, 1_003);
    leases.ask(key, policy, 1_004);
    const waiting = leases.pending(key);
    leases.drop(key);
    await expect(waiting).resolves.toBeUndefined();
    expect(leases.take(key, 1_004)).toBeUndefined();
    expect(leases.ask(key, policy, 1_005)).toBe(1);
  });
});
