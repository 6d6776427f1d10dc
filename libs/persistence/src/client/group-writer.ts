interface Pending<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit for small writes: `add` resolves (with the item's result, if the writes return
 * any) once its item is committed. Items added while a write is in flight wait for it and then
 * go together, in one multi-row statement (at most `maxBatch`); an item added to an idle writer
 * goes at the next turn of the event loop, so a lone write waits for nothing. A batch that fails
 * is written again item by item, so one bad item fails only its own caller (and a dependency
 * outage fails each caller, who retries). `canJoin` may keep an item out of a batch (it then
 * goes in the next one), e.g. a second item with the same key as one already in it.
 */
export class GroupWriter<T, R = void> {
  private queue: Pending<T, R>[] = [];
  private flushing = false;

  constructor(
    /** Writes the items; resolves with their results in the same order (or nothing, for writes without results). */
    private readonly writeMany: (items: T[]) => Promise<R[] | void>,
    private readonly writeOne: (item: T) => Promise<R>,
    private readonly maxBatch = 100,
    private readonly canJoin: (item: T, batch: readonly T[]) => boolean = () => true,
  ) {}

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (this.flushing) return;
      this.flushing = true;
      setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.take();
        if (batch.length === 1) {
          await this.writeOne(batch[0].item).then(batch[0].resolve, batch[0].reject);
          continue;
        }
        try {
          const results = await this.writeMany(batch.map((p) => p.item));
          batch.forEach((p, i) => p.resolve((results ? results[i] : undefined) as R));
        } catch {
          await Promise.all(batch.map((p) => this.writeOne(p.item).then(p.resolve, p.reject)));
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  /** The next batch: queued items in order, up to maxBatch, leaving for later those that cannot join it. */
  private take(): Pending<T, R>[] {
    const batch: Pending<T, R>[] = [];
    const items: T[] = [];
    const rest: Pending<T, R>[] = [];
    for (const p of this.queue) {
      if (batch.length < this.maxBatch && this.canJoin(p.item, items)) {
        batch.push(p);
        items.push(p.item);
      } else rest.push(p);
    }
    this.queue = rest;
    return batch;
  }
}
