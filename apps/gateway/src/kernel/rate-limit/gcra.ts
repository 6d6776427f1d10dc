import type Redis from 'ioredis';

/**
 * GCRA (the generic cell rate algorithm, a leaky bucket kept as one timestamp per key) in one
 * atomic script: every gateway replica shares the bucket, and a request costs one EVALSHA, or
 * less when a replica takes several cells at once (a lease, decision 0045).
 * The clock is Redis' own TIME, so replicas with skewed clocks still agree.
 *
 * The key holds the theoretical arrival time (TAT, ms): the instant the bucket would be empty
 * again. A cell is allowed while TAT + interval - burst * interval <= now, so `room`, the cells
 * that fit now, is floor((now - TAT) / interval) + burst. Up to `want` of them are granted, each
 * moving TAT on by one interval; the key expires when the bucket is full again.
 * Returns { cells granted (0: refused), remaining after them, retry after ms, ms until the bucket is full again }.
 */
const GCRA_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local want = tonumber(ARGV[3])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local room = math.floor((now - tat) / interval + 1e-9) + burst
if room < 1 then
  return { 0, 0, math.ceil(tat + interval - burst * interval - now), math.ceil(tat - now) }
end
local granted = math.min(want, room)
local next_tat = tat + granted * interval
redis.call('SET', KEYS[1], string.format('%.3f', next_tat), 'PX', math.ceil(next_tat - now))
return { granted, room - granted, 0, math.ceil(next_tat - now) }
`;

export interface GcraResult {
  allowed: boolean;
  remaining: number;
  retryAfterMs: number;
  resetMs: number;
}

/** A GCRA answer for `want` cells: `granted` of them (at least 1 when allowed). */
export interface GcraGrant extends GcraResult {
  granted: number;
}

type GcraRedis = Redis & {
  gcra(key: string, intervalMs: number, burst: number, want: number): Promise<[number, number, number, number]>;
};

/** Defines the script on the connection (ioredis sends EVALSHA, and EVAL once if Redis lost the script). */
export function withGcra(
  redis: Redis,
): (key: string, limit: number, windowMs: number, want?: number) => Promise<GcraGrant> {
  redis.defineCommand('gcra', { numberOfKeys: 1, lua: GCRA_LUA });
  const r = redis as GcraRedis;
  return async (key, limit, windowMs, want = 1) => {
    const [granted, remaining, retryAfterMs, resetMs] = await r.gcra(key, windowMs / limit, limit, want);
    return { allowed: granted > 0, granted, remaining, retryAfterMs, resetMs };
  };
}
