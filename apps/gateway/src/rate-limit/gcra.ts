import type Redis from 'ioredis';

/**
 * GCRA (the generic cell rate algorithm, a leaky bucket kept as one timestamp per key) in one
 * atomic script: every gateway replica shares the bucket, and a request costs one EVALSHA.
 * The clock is Redis' own TIME, so replicas with skewed clocks still agree.
 *
 * The key holds the theoretical arrival time (TAT, ms): the instant the bucket would be empty
 * again. A request is allowed while TAT + interval - burst * interval <= now; allowed, it moves
 * TAT on by one interval (window / limit) and the key expires when the bucket is full again.
 * Returns { allowed (1|0), remaining, retry after ms, ms until the bucket is full again }.
 */
const GCRA_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local next_tat = tat + interval
local allow_at = next_tat - burst * interval
if now < allow_at then
  return { 0, 0, math.ceil(allow_at - now), math.ceil(tat - now) }
end
redis.call('SET', KEYS[1], string.format('%.3f', next_tat), 'PX', math.ceil(next_tat - now))
return { 1, math.floor((now - allow_at) / interval), 0, math.ceil(next_tat - now) }
`;

export interface GcraResult {
  allowed: boolean;
  remaining: number;
  retryAfterMs: number;
  resetMs: number;
}

type GcraRedis = Redis & { gcra(key: string, intervalMs: number, burst: number): Promise<[number, number, number, number]> };

/** Defines the script on the connection (ioredis sends EVALSHA, and EVAL once if Redis lost the script). */
export function withGcra(redis: Redis): (key: string, limit: number, windowMs: number) => Promise<GcraResult> {
  redis.defineCommand('gcra', { numberOfKeys: 1, lua: GCRA_LUA });
  const r = redis as GcraRedis;
  return async (key, limit, windowMs) => {
    const [allowed, remaining, retryAfterMs, resetMs] = await r.gcra(key, windowMs / limit, limit);
    return { allowed: allowed === 1, remaining, retryAfterMs, resetMs };
  };
}
