export interface OutboxRow {
  id: bigint;
  topic: string;
  key: string;
  /** JSON text, published as the record value unchanged. */
  payload: string;
  headers: Record<string, string>;
}

/** Implemented by the persistence library; the bus does not know the database. */
export interface OutboxStore {
  /** The topics that have unpublished rows (cheap: the relay asks on every poll). */
  pendingTopics(): Promise<string[]>;
  /**
   * In one DB transaction: take `topic`'s relay lock (only one relay publishes a topic at a time, which keeps
   * per-key order), load up to `limit` unpublished rows of `topic` ordered by id, call `publish(rows)`; if it
   * resolves, mark them published and commit. Returns the number of rows published (0 when there were none or
   * the lock was busy). Topics are relayed apart so that one the broker refuses holds back no other.
   */
  relayBatch(topic: string, limit: number, publish: (rows: OutboxRow[]) => Promise<void>): Promise<number>;
}
