/**
 * Bus topic names. Versioned; NEVER rename one (a renamed topic strands every message in
 * flight). A breaking change to a message is a new version, consumed beside the old one.
 */
export enum Topic {
  /** Commands to the ledger, keyed by merchant id so one merchant's commands apply in order */
  LedgerCommands = 'ledger.commands.v1',
  /** Facts the ledger has recorded, published from its outbox, keyed by merchant id */
  LedgerEvents = 'ledger.events.v1',
  /** Final outcomes of disbursements (for webhook delivery), keyed by merchant id */
  PayoutEvents = 'payout.events.v1',
}

/** Consumer groups, one per service that consumes a topic. Never rename. */
export enum ConsumerGroup {
  Ledger = 'ledger',
  Payout = 'payout',
  Workers = 'workers',
  /** Reads every <topic>.dlq into the dead_letters table (in the workers) */
  DeadLetterArchive = 'dead-letter-archive',
}
