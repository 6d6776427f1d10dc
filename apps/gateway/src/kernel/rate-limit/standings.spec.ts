import { Standings } from './standings';

const policy = { limit: 100, windowSeconds: 1 };
const key = '7:read';

describe('Standings', () => {
  it('keeps nothing for a class with room left', () => {
    const standings = new Standings();
    standings.learn(key, policy, { allowed: true, remaining: 5, retryAfterMs: 0, resetMs: 60 }, 1_000);
    expect(standings.admit(key, 1_000)).toBeUndefined();
  });

  it('refuses until the next request can be allowed, after a refusal and after an allowance that left nothing', () => {
    const standings = new Standings();
    standings.learn(key, policy, { allowed: false, remaining: 0, retryAfterMs: 8, resetMs: 998 }, 1_000);
    expect(standings.admit(key, 1_006)).toEqual({ refused: expect.objectContaining({ until: 1_007, resetAt: 1_998 }) });
    // Allowed with RateLimit-Reset at a full window: the next slot is one interval (10 ms) later.
    standings.learn(key, policy, { allowed: true, remaining: 0, retryAfterMs: 0, resetMs: 1_000 }, 2_000);
    expect(standings.admit(key, 2_008)).toEqual({ refused: expect.objectContaining({ until: 2_009 }) });
    expect(standings.refusal(key, 2_009)).toBeUndefined();
  });

  it('lets one request ask Redis once a slot is due, and the others wait for its answer', async () => {
    const standings = new Standings();
    standings.learn(key, policy, { allowed: false, remaining: 0, retryAfterMs: 5, resetMs: 1_000 }, 1_000);
    const probe = standings.admit(key, 1_010);
    expect(probe).toEqual({ release: expect.any(Function) });
    const waiting = standings.admit(key, 1_010);
    expect(waiting).toEqual({ wait: expect.any(Promise) });
    let woken = false;
    void (waiting as { wait: Promise<void> }).wait.then(() => (woken = true));
    standings.learn(key, policy, { allowed: true, remaining: 0, retryAfterMs: 0, resetMs: 1_000 }, 1_011);
    await Promise.resolve();
    expect(woken).toBe(true);
    expect(standings.admit(key, 1_012)).toEqual({ refused: expect.any(Object) });
  });

  it('lets the next request ask Redis when the probe ends without an answer, and forgets a class when the limiter fails', async () => {
    const standings = new Standings();
    standings.learn(key, policy, { allowed: false, remaining: 0, retryAfterMs: 5, resetMs: 1_000 }, 1_000);
    const probe = standings.admit(key, 1_010) as { release: () => void };
    const waiting = standings.admit(key, 1_010) as { wait: Promise<void> };
    probe.release();
    await waiting.wait;
    expect(standings.admit(key, 1_011)).toEqual({ release: expect.any(Function) });
    standings.forget(key);
    expect(standings.admit(key, 1_011)).toBeUndefined();
  });
});
