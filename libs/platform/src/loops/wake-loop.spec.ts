import { WakeLoop } from './wake-loop';

describe('WakeLoop', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** A loop whose rounds wait for `release`, counting the rounds it ran. */
  function gatedLoop(result: () => { more?: boolean; nextDueAt?: Date | null } = () => ({})) {
    const state = { rounds: 0, release: () => undefined as void };
    const loop = new WakeLoop({
      round: () =>
        new Promise((resolve) => {
          state.rounds += 1;
          state.release = () => resolve(result());
        }),
      safetyIntervalMs: 5_000,
      onError: () => undefined,
    });
    return { loop, state };
  }
  const settle = () => jest.advanceTimersByTimeAsync(0);

  it('coalesces any number of wakeups during a round into exactly one more round', async () => {
    const { loop, state } = gatedLoop();
    loop.start();
    for (let i = 0; i < 50; i++) loop.wake();
    state.release();
    await settle();
    expect(state.rounds).toBe(2);
    state.release();
    await settle();
    expect(state.rounds).toBe(2);
    await loop.stop();
  });

  it('sleeps until the earliest due time a round reports, else the safety interval', async () => {
    const { loop, state } = gatedLoop(() => ({ nextDueAt: new Date(Date.now() + 1_000) }));
    loop.start();
    state.release();
    await jest.advanceTimersByTimeAsync(999);
    expect(state.rounds).toBe(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(state.rounds).toBe(2);
    state.release();
    await loop.stop();
  });

  it('runs again at once after a full batch, and at the safety interval when idle', async () => {
    let more = true;
    const { loop, state } = gatedLoop(() => ({ more }));
    loop.start();
    state.release();
    await settle();
    expect(state.rounds).toBe(2);
    more = false;
    state.release();
    await jest.advanceTimersByTimeAsync(4_999);
    expect(state.rounds).toBe(2);
    await jest.advanceTimersByTimeAsync(1);
    expect(state.rounds).toBe(3);
    state.release();
    await loop.stop();
  });

  it('retries a failed round with backoff instead of waiting for the safety interval', async () => {
    let fail = true;
    let rounds = 0;
    const loop = new WakeLoop({
      round: async () => {
        rounds += 1;
        if (fail) throw new Error('ECONNREFUSED');
        return {};
      },
      safetyIntervalMs: 5_000,
      onError: () => undefined,
    });
    loop.start();
    await settle();
    expect(rounds).toBe(1);
    await jest.advanceTimersByTimeAsync(250);
    expect(rounds).toBe(2);
    fail = false;
    await jest.advanceTimersByTimeAsync(500);
    expect(rounds).toBe(3);
    await loop.stop();
  });
});
