/**
 * Kafka's default (Java-compatible) murmur2 hash, so a key lands on the same partition number on Redis Streams as
 * it does on Kafka when both have the same partition count.
 */
export function murmur2(key: string): number {
  const data = Buffer.from(key, 'utf8');
  const length = data.length;
  const seed = 0x9747b28c;
  const m = 0x5bd1e995;
  const r = 24;
  let h = seed ^ length;
  const length4 = Math.floor(length / 4);

  for (let i = 0; i < length4; i++) {
    const i4 = i * 4;
    let k =
      (data[i4] & 0xff) + ((data[i4 + 1] & 0xff) << 8) + ((data[i4 + 2] & 0xff) << 16) + ((data[i4 + 3] & 0xff) << 24);
    k = Math.imul(k, m);
    k ^= k >>> r;
    k = Math.imul(k, m);
    h = Math.imul(h, m);
    h ^= k;
  }

  const tail = length4 * 4;
  const rest = length % 4;
  if (rest >= 3) h ^= (data[tail + 2] & 0xff) << 16;
  if (rest >= 2) h ^= (data[tail + 1] & 0xff) << 8;
  if (rest >= 1) {
    h ^= data[tail] & 0xff;
    h = Math.imul(h, m);
  }

  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h | 0;
}

export function partitionForKey(key: string, partitions: number): number {
  if (!Number.isInteger(partitions) || partitions < 1)
    throw new RangeError(`partitions must be a positive integer, got ${partitions}`);
  // Same as Kafka's toPositive(): mask the sign bit rather than Math.abs (abs(MIN_INT) overflows in Java).
  return (murmur2(key) & 0x7fffffff) % partitions;
}
