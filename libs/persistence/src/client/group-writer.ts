interface Pending<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (err: unknown) => void;
}

export interface GroupWriterOptions<T> {
  /** Items in one write at most (default 100) */
  maxBatch?: number;
  /**
   * Whether an item may join a batch that holds `batch` already (else it goes in a later one),
   * e.g. not a second item with the same key, or not past a size in the items' own units.
   */
  canJoin?: (item: T, batch: readonly T[]) => boolean;
  /** Writes in flight at once (default 1): more overlap the database's commit waits, fewer group more. */
  parallel?: number;
}

/**
 * Group commit for small writes: `add` resolves (with the item's result, if the writes return
 * any) once its item is committed. Items added in one turn of the event loop go together, and
 * so do items added while every writer is busy, in one multi-row statement or transaction; an
 * item added while a writer is free goes at the next turn of the event loop, so a lone write
 * waits for nothing. A batch that fails is written again item by item, so one bad item fails
 * only its own caller (and a dependency outage fails each caller, who retries).
 */
export class GroupWriter<T, R = void> {
  private queue: Pending<T, R>[] = [];
  private active = 0;
  private readonly maxBatch: number;
  private readonly canJoin: (item: T, batch: readonly T[]) => boolean;
  private readonly parallel: number;

  constructor(
    /** Writes the items; resolves with their results in the same order (or nothing, for writes without results). */
    private readonly writeMany: (items: T[]) => Promise<R[] | void>,
    private readonly writeOne: (item: T) => Promise<R>,
    options: GroupWriterOptions<T> = {},
  ) {
    this.maxBatch = options.maxBatch ?? 100;
    this.canJoin = options.canJoin ?? (() => true);
    this.parallel = options.parallel ?? 1;
  }

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (this.active >= this.parallel) return;
      this.active += 1;
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
      this.active -= 1;
    }
  }

  /** The next batch: queued items in order (the first always), up to maxBatch, leaving for later those that cannot join it. */
  private take(): Pending<T, R>[] {
    const batch: Pending<T, R>[] = [];
    const items: T[] = [];
    const rest: Pending<T, R>[] = [];
    for (const p of this.queue) {
      if (batch.length === 0 || (batch.length < this.maxBatch && this.canJoin(p.item, items))) {
        batch.push(p);
        items.push(p.item);
      } else rest.push(p);
    }
    this.queue = rest;
    return batch;
  }
}
