interface Pending<T> {
  item: T;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit for small writes: `add` resolves once its item is committed. Items added while a
 * write is in flight wait for it and then go together, in one multi-row statement (at most
 * `maxBatch`); an item added to an idle writer goes at the next turn of the event loop, so a
 * lone write waits for nothing. A batch that fails is written again item by item, so one bad
 * item fails only its own caller (and a dependency outage fails each caller, who retries).
 */
export class GroupWriter<T> {
  private queue: Pending<T>[] = [];
  private flushing = false;

  constructor(
    private readonly writeMany: (items: T[]) => Promise<void>,
    private readonly writeOne: (item: T) => Promise<void>,
    private readonly maxBatch = 100,
  ) {}

  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (this.flushing) return;
      this.flushing = true;
      setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        if (batch.length === 1) {
          await this.writeOne(batch[0].item).then(batch[0].resolve, batch[0].reject);
          continue;
        }
        try {
          await this.writeMany(batch.map((p) => p.item));
          for (const p of batch) p.resolve();
        } catch {
          await Promise.all(batch.map((p) => this.writeOne(p.item).then(p.resolve, p.reject)));
        }
      }
    } finally {
      this.flushing = false;
    }
  }
}
