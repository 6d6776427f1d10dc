import { GroupWriter } from './group-writer';

/** Pure: writes are recorded calls that resolve when the test says. */
describe('GroupWriter', () => {
  function recorder(options: ConstructorParameters<typeof GroupWriter<number, string>>[2] = {}) {
    const writes: number[][] = [];
    const pending: (() => void)[] = [];
    const failOn = new Set<number>();
    const write = (items: number[]) =>
      new Promise<string[]>((resolve, reject) => {
        writes.push(items);
        pending.push(() =>
          items.some((i) => failOn.has(i)) ? reject(new Error(`bad ${items}`)) : resolve(items.map((i) => `ok ${i}`)),
        );
      });
    const writer = new GroupWriter<number, string>(write, async (i) => (await write([i]))[0], options);
    const release = async () => {
      while (pending.length) pending.shift()?.();
      await new Promise((r) => setImmediate(r));
    };
    return { writer, writes, failOn, release };
  }

  it('items of one turn go in one write; items added while it is in flight go together in the next; each gets its own result', async () => {
    const { writer, writes, release } = recorder();
    const first = [1, 2, 3].map((i) => writer.add(i));
    await new Promise((r) => setImmediate(r));
    const second = [4, 5].map((i) => writer.add(i));
    await release();
    await release();
    expect(await Promise.all([...first, ...second])).toEqual(['ok 1', 'ok 2', 'ok 3', 'ok 4', 'ok 5']);
    expect(writes).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('a failed write is tried again item by item: only the bad item fails', async () => {
    const { writer, writes, failOn, release } = recorder();
    failOn.add(2);
    const results = Promise.allSettled([1, 2, 3].map((i) => writer.add(i)));
    for (let i = 0; i < 3; i++) await release();
    expect((await results).map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(writes).toEqual([[1, 2, 3], [1], [2], [3]]);
  });

  it('up to `parallel` writes in flight; canJoin keeps items out of a batch (the first always goes)', async () => {
    const { writer, writes, release } = recorder({
      parallel: 2,
      canJoin: (item, batch) => batch.reduce((n, b) => n + b, item) <= 10,
    });
    const all = [writer.add(20)];
    await new Promise((r) => setImmediate(r));
    all.push(writer.add(4), writer.add(5), writer.add(6)); // a second writer is free: it starts
    await new Promise((r) => setImmediate(r));
    expect(writes).toEqual([[20], [4, 5]]); // 20 alone though over the limit; 6 would pass 10
    all.push(writer.add(1));
    for (let i = 0; i < 3; i++) await release();
    expect(await Promise.all(all)).toEqual(['ok 20', 'ok 4', 'ok 5', 'ok 6', 'ok 1']);
    expect(writes.slice(2).flat().sort()).toEqual([1, 6]);
  });
});
