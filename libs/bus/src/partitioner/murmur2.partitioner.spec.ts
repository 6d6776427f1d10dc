import { murmur2, partitionForKey } from './murmur2.partitioner';

describe('murmur2 partitioner', () => {
  // Vectors from Kafka's UtilsTest (Java client), so partitions match Kafka's default partitioner.
  it.each([
    ['21', -973932308],
    ['foobar', -790332482],
    ['a-little-bit-long-string', -985981536],
    ['a-little-bit-longer-string', -1486304829],
    ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
    ['abc', 479470107],
  ])('hashes %p like Kafka', (key, expected) => {
    expect(murmur2(key)).toBe(expected);
  });

  it('hashes UTF-8 bytes, not UTF-16 code units', () => {
    expect(murmur2('ключ')).toBe(2122343024);
  });

  it('maps a key to a stable partition in range', () => {
    for (let i = 0; i < 1000; i++) {
      const p = partitionForKey(`merchant-${i}`, 12);
      expect(p).toBeGreaterThanOrEqual(0);
      expect(p).toBeLessThan(12);
      expect(partitionForKey(`merchant-${i}`, 12)).toBe(p);
    }
    expect(partitionForKey('merchant-42', 12)).toBe(9);
  });

  it('spreads keys over every partition', () => {
    const used = new Set(Array.from({ length: 500 }, (_, i) => partitionForKey(`k${i}`, 12)));
    expect(used.size).toBe(12);
  });

  it('rejects a bad partition count', () => {
    expect(() => partitionForKey('k', 0)).toThrow(RangeError);
  });
});
