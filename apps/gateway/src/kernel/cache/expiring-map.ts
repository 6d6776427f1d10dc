/**
 * A Map whose entries expire, with a bound on its size: an expired entry is dropped when read,
 * and a full map first sweeps the expired ones, then drops the oldest tenth (a Map keeps
 * insertion order, and set() re-inserts), so memory stays bounded whatever the traffic.
 */
export class ExpiringMap<K, V> {
  private readonly entries = new Map<K, { value: V; expiresAt: number }>();

  constructor(private readonly maxEntries: number) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: K, now = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > now) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  set(key: K, value: V, expiresAt: number, now = Date.now()): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.evict(now);
    this.entries.set(key, { value, expiresAt });
  }

  /** When the entry expires (whether or not it has), undefined without one. */
  expiresAt(key: K): number | undefined {
    return this.entries.get(key)?.expiresAt;
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  private evict(now: number): void {
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
    if (this.entries.size < this.maxEntries) return;
    let drop = Math.max(1, Math.floor(this.maxEntries / 10));
    for (const key of this.entries.keys()) {
      this.entries.delete(key);
      if (--drop === 0) return;
    }
  }
}
