import { DLQ_HEADERS } from '@pay/bus';
import { type PrismaClient } from '@pay/persistence';
import { createRedis } from '@pay/platform';

export interface DeadLetter {
  /** `<topic>.dlq` */
  dlqTopic: string;
  /** `<partition>:<stream entry id>`, as the bus names a Redis Streams record */
  id: string;
  /** Where it was seen: the bus' dlq stream, the dead_letters table (the workers archive it there), or both */
  seenIn: 'stream' | 'table' | 'both';
  originalTopic?: string;
  key?: string;
  group?: string;
  deliveryCount?: string;
  fault?: string;
  error?: string;
  /** The record's value (the command or event), cut to 300 characters */
  value: string;
}

/**
 * Every record dead-lettered under one bus key prefix: the entries of its `*.dlq` streams (keys as
 * RedisKeys.stream writes them, `<prefix><topic>.dlq:<partition>`) and the rows of the
 * dead_letters table, one entry per record however many places hold it.
 */
export async function readDeadLetters(redisUrl: string, prefix: string, prisma: PrismaClient): Promise<DeadLetter[]> {
  const found = new Map<string, DeadLetter>();
  for (const d of await readStreams(redisUrl, prefix)) found.set(`${d.dlqTopic}|${d.id}`, d);
  for (const row of await prisma.deadLetter.findMany({ orderBy: { id: 'asc' } })) {
    const at = `${row.dlqTopic}|${row.dlqRecordId}`;
    const seen = found.get(at);
    if (seen) seen.seenIn = 'both';
    else
      found.set(at, {
        dlqTopic: row.dlqTopic,
        id: row.dlqRecordId,
        seenIn: 'table',
        originalTopic: row.topic,
        key: row.key,
        group: row.consumerGroup,
        deliveryCount: String(row.deliveryCount),
        fault: row.fault,
        error: row.error,
        value: row.value.slice(0, 300),
      });
  }
  return [...found.values()];
}

async function readStreams(redisUrl: string, prefix: string): Promise<DeadLetter[]> {
  // Reconnect errors (the chaos run restarts this Redis) surface as failed commands below, which the caller reports.
  const redis = createRedis(redisUrl, { maxRetriesPerRequest: 3 }).on('error', () => undefined);
  try {
    const found: DeadLetter[] = [];
    const keys = new Set<string>();
    for await (const batch of redis.scanStream({ match: `${prefix}*.dlq:*`, count: 1000 }) as AsyncIterable<string[]>)
      for (const k of batch) keys.add(k);
    for (const stream of [...keys].sort()) {
      // The consumers of a dlq topic (the archiver) have lease and member keys that match too.
      const [, dlqTopic, partition] = /^(.*\.dlq):(\d+)$/.exec(stream.slice(prefix.length)) ?? [];
      if (!dlqTopic || stream.startsWith(`${prefix}_bus:`) || (await redis.type(stream)) !== 'stream') continue;
      for (const [entryId, fields] of await redis.xrange(stream, '-', '+')) {
        const f = Object.fromEntries(fields.flatMap((v, i) => (i % 2 ? [] : [[v, fields[i + 1]]]))) as Record<
          string,
          string
        >;
        const h = JSON.parse(f.h ?? '{}') as Record<string, string>;
        found.push({
          dlqTopic,
          id: `${partition}:${entryId}`,
          seenIn: 'stream',
          key: f.k,
          originalTopic: h[DLQ_HEADERS.originalTopic],
          group: h[DLQ_HEADERS.group],
          deliveryCount: h[DLQ_HEADERS.deliveryCount],
          fault: h[DLQ_HEADERS.fault],
          error: h[DLQ_HEADERS.error],
          value: (f.v ?? '').slice(0, 300),
        });
      }
    }
    return found;
  } finally {
    redis.disconnect();
  }
}
