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
  /**
   * In one DB transaction: take an exclusive relay lock (only one relay publishes at a time, which keeps per-key
   * order), load up to `limit` unpublished rows ordered by id, call `publish(rows)`; if it resolves, mark them
   * published and commit. Returns the number of rows published (0 when there were none or the lock was busy).
   */
  relayBatch(limit: number, publish: (rows: OutboxRow[]) => Promise<void>): Promise<number>;
}
