import type Redis from 'ioredis';

// Scripts read the clock with TIME so members on different hosts agree on expiry without synchronised clocks.
const HEARTBEAT_MEMBER = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('PEXPIRE', KEYS[1], ttl * 10)
return redis.call('ZRANGE', KEYS[1], 0, -1)
`;

// Compare-and-act so a member can never extend or delete a lease another member has taken since.
// Every lease of one member in one round trip: 1 where still held (and extended), 0 where taken or gone.
const RENEW_LEASES = `
local renewed = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then renewed[i] = redis.call('PEXPIRE', key, ARGV[2]) else renewed[i] = 0 end
end
return renewed
`;

const RELEASE_LEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/** Refreshes this member's heartbeat and returns the live members, sorted so every member computes the same split. */
export async function heartbeatMember(
  redis: Redis,
  membersKey: string,
  member: string,
  ttlMs: number,
): Promise<string[]> {
  const reply: unknown = await redis.eval(HEARTBEAT_MEMBER, 1, membersKey, member, ttlMs);
  if (!Array.isArray(reply)) throw new TypeError('unexpected heartbeat reply');
  return reply.map(String).sort();
}

export async function leaveMembers(redis: Redis, membersKey: string, member: string): Promise<void> {
  await redis.zrem(membersKey, member);
}

export async function acquireLease(redis: Redis, leaseKey: string, member: string, ttlMs: number): Promise<boolean> {
  return (await redis.set(leaseKey, member, 'PX', ttlMs, 'NX')) === 'OK';
}

/** Extends each lease this member still holds, in one script call per heartbeat (not one per partition); same order as `leaseKeys`. */
export async function renewLeases(
  redis: Redis,
  leaseKeys: readonly string[],
  member: string,
  ttlMs: number,
): Promise<boolean[]> {
  if (leaseKeys.length === 0) return [];
  const reply: unknown = await redis.eval(RENEW_LEASES, leaseKeys.length, ...leaseKeys, member, ttlMs);
  if (!Array.isArray(reply)) throw new TypeError('unexpected lease renewal reply');
  return reply.map((n) => Number(n) === 1);
}

export async function releaseLease(redis: Redis, leaseKey: string, member: string): Promise<boolean> {
  return Number(await redis.eval(RELEASE_LEASE, 1, leaseKey, member)) === 1;
}

/** Round-robin split: partition p belongs to the member at index p mod memberCount. */
export function assignPartitions(members: readonly string[], member: string, partitions: number): Set<number> {
  const index = members.indexOf(member);
  const mine = new Set<number>();
  if (index < 0) return mine;
  for (let p = 0; p < partitions; p++) if (p % members.length === index) mine.add(p);
  return mine;
}
