import { requestTimeoutCheckMs } from './kafkajs-request-queue';

describe('requestTimeoutCheckMs: how often a connection looks for requests past their timeout', () => {
  it.each([
    [30_000, 1_000],
    [60_000, 1_000],
    [5_000, 500],
    [1_000, 100],
    [500, 100],
    [50, 50],
  ])('a %i ms request timeout is checked every %i ms (a tenth of it, from 100 ms up to 1 s, never less often than it)', (timeoutMs, everyMs) => {
    expect(requestTimeoutCheckMs(timeoutMs)).toBe(everyMs);
  });
});
