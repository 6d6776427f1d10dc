import { assignPartitions } from './lease.scripts';

describe('assignPartitions', () => {
  it('gives every partition to exactly one member', () => {
    const members = ['a', 'b', 'c'];
    const sets = members.map((m) => assignPartitions(members, m, 12));
    expect(sets.map((s) => s.size)).toEqual([4, 4, 4]);
    const all = sets.flatMap((s) => [...s]).sort((x, y) => x - y);
    expect(all).toEqual(Array.from({ length: 12 }, (_, i) => i));
  });

  it('gives nothing to a member not (yet) in the list', () => {
    expect(assignPartitions(['a'], 'z', 12).size).toBe(0);
  });
});
