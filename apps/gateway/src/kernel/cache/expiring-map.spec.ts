import { ExpiringMap } from './expiring-map';

describe('ExpiringMap', () => {
  it('forgets an entry once it expires', () => {
    const map = new ExpiringMap<string, number>(10);
    map.set('a', 1, 1_000, 0);
    expect(map.get('a', 999)).toBe(1);
    expect(map.get('a', 1_000)).toBeUndefined();
    expect(map.size).toBe(0);
  });

  it('stays within its bound: expired entries go first, then the oldest', () => {
    const map = new ExpiringMap<number, number>(10);
    for (let n = 0; n < 10; n++) map.set(n, n, n < 5 ? 100 : 1_000, 0);
    map.set(10, 10, 1_000, 200);
    expect(map.size).toBe(6);
    expect(map.get(0, 200)).toBeUndefined();
    for (let n = 11; n < 1_000; n++) map.set(n, n, 1_000, 200);
    expect(map.size).toBeLessThanOrEqual(10);
    expect(map.get(999, 200)).toBe(999);
    expect(map.get(5, 200)).toBeUndefined();
  });
});
