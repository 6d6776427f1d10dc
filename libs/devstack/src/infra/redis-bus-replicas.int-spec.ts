import { randomBytes } from 'node:crypto';
import { RedisStreamsTransport } from '@pay/bus';
import { classifyFault, createRedis } from '@pay/platform';
import { waitFor } from '@pay/testing';
import { PrivateRedis } from './private-redis';
import { SilentRelay } from './silent-relay';

// Redis replicates asynchronously: a publish the primary acknowledged can be gone after a
// failover to a replica that had not received it. Here the replica's link goes silent (a lagging
// or partitioned replica), a record is published, the primary dies and the replica is promoted.
// BUS_REDIS_WAIT_REPLICAS=1 (replicasToAck) makes the publish fail until a replica holds it, so
// the outbox keeps the row and sends it again; without it the record is acknowledged and lost.
describe('Redis Streams bus: a publish that a failover would lose', () => {
  const servers: PrivateRedis[] = [];
  const relays: SilentRelay[] = [];
  afterEach(async () => {
    await Promise.all(relays.splice(0).map((r) => r.stop()));
    await Promise.all(servers.splice(0).map((s) => s.destroy()));
  });

  const replicaOf = async (primaryUrl: string) => {
    const replica = await PrivateRedis.start({ args: ['--replicaof', '127.0.0.1', new URL(primaryUrl).port] });
    servers.push(replica);
    const redis = createRedis(replica.url).on('error', () => undefined);
    try {
      await waitFor(
        async () => /master_link_status:up/.test(await redis.info('replication')),
        10_000,
        'the replica in sync',
      );
    } finally {
      redis.disconnect();
    }
    return replica;
  };

  /** Every stream entry under `prefix` on the server of `url`, as the text of its fields. */
  const entries = async (url: string, prefix: string): Promise<string[]> => {
    const redis = createRedis(url).on('error', () => undefined);
    try {
      const keys = await redis.keys(`${prefix}*`);
      const all: string[] = [];
      for (const key of keys) {
        if ((await redis.type(key)) !== 'stream') continue;
        for (const [, fields] of (await redis.xrange(key, '-', '+')) as [string, string[]][])
          all.push(fields.join(' '));
      }
      return all;
    } finally {
      redis.disconnect();
    }
  };

  it('an acknowledged publish survives the failover only with replicasToAck', async () => {
    const primary = await PrivateRedis.start();
    servers.push(primary);
    // The replica reaches its primary through a relay that can go silent; the services reach the primary through another (the name a failover moves).
    const link = await SilentRelay.start(primary.url);
    const front = await SilentRelay.start(primary.url);
    relays.push(link, front);
    const replica = await replicaOf(link.url);
    const prefix = `replicas_${randomBytes(3).toString('hex')}:`;
    const options = { keyPrefix: prefix, partitions: 2, redisUrl: front.url };
    const unguarded = new RedisStreamsTransport(options);
    const guarded = new RedisStreamsTransport({ ...options, replicasToAck: 1, replicaAckTimeoutMs: 300 });
    try {
      // With the replica in sync, both publish.
      await guarded.publish('ha', [{ key: 'k', value: 'replicated-guarded' }]);
      await unguarded.publish('ha', [{ key: 'k', value: 'replicated-unguarded' }]);

      link.freeze();
      await unguarded.publish('ha', [{ key: 'k', value: 'acknowledged-unguarded' }]);
      const refused = await guarded.publish('ha', [{ key: 'k', value: 'acknowledged-guarded' }]).then(
        () => null,
        (err: unknown) => err,
      );
      expect(refused).toBeInstanceOf(Error);
      expect((refused as Error).message).toMatch(/0 of 1 Redis replicas acknowledged/);
      expect(classifyFault(refused)).toBe('transient');
      expect(await entries(primary.url, prefix)).toEqual(
        expect.arrayContaining([
          expect.stringContaining('acknowledged-unguarded'),
          expect.stringContaining('acknowledged-guarded'),
        ]),
      );

      // The failover: the primary dies, the replica (without the last writes) is promoted, the name moves to it.
      await primary.stop();
      const promoter = createRedis(replica.url).on('error', () => undefined);
      await promoter.call('REPLICAOF', 'NO', 'ONE');
      promoter.disconnect();
      front.redirect(replica.url);
      // The old primary comes back as the new one's replica (what a Sentinel does with it).
      await replicaOf(replica.url);

      // The outbox sends the refused row again (its relay retries a transient failure); it now holds.
      await waitFor(
        async () =>
          guarded.publish('ha', [{ key: 'k', value: 'acknowledged-guarded' }]).then(
            () => true,
            () => false,
          ),
        20_000,
        'the guarded publish on the new primary',
      );
      const after = await entries(replica.url, prefix);
      // At least once: an attempt that wrote and then timed out waiting leaves a copy, which consumers drop as a repeat.
      expect(after.filter((e) => e.includes('acknowledged-guarded')).length).toBeGreaterThanOrEqual(1);
      expect(after.some((e) => e.includes('replicated-guarded'))).toBe(true);
      expect(after.some((e) => e.includes('replicated-unguarded'))).toBe(true);
      // Without the wait, a publish the primary acknowledged (its outbox row marked) is gone.
      expect(after.some((e) => e.includes('acknowledged-unguarded'))).toBe(false);
    } finally {
      await Promise.all([unguarded.close(), guarded.close()]);
    }
  }, 60_000);
});
