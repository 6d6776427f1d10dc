import { BackofficeError, BackofficeErrorCode } from '@pay/contracts';
import {
  AuditLogRepository,
  type DeadLetter,
  type DeadLetterFilter,
  DeadLetterRepository,
  type ReplayResult,
} from '@pay/persistence';
import type { Pool } from 'pg';
import type { AuditAs } from '../audit';

const INT8_MAX = 9_223_372_036_854_775_807n;

const notFound = (message = 'Dead letter not found') =>
  new BackofficeError(BackofficeErrorCode.DeadLetterNotFound, message);

/** A dead letter's id as the API's path gives it: anything that cannot be one is an unknown dead letter. */
export function deadLetterId(id: string): bigint {
  // Beyond int8 the query itself would fail: still just an unknown dead letter.
  if (!/^[1-9]\d{0,18}$/.test(id) || BigInt(id) > INT8_MAX) throw notFound();
  return BigInt(id);
}

/**
 * Dead letters as operators handle them (ops API, console, CLI `dlq ...`; docs/decisions/0013):
 * list, show, replay (a copy back on its topic through the outbox), resolve (closed by hand).
 */
export class DeadLetterActions {
  private readonly letters: DeadLetterRepository;
  private readonly audit: AuditLogRepository;

  constructor(pool: Pool) {
    this.letters = new DeadLetterRepository(pool);
    this.audit = new AuditLogRepository(pool);
  }

  /** Default: the open ones. */
  list(filter: DeadLetterFilter): Promise<DeadLetter[]> {
    return this.letters.list(filter);
  }

  find(id: bigint): Promise<DeadLetter | null> {
    return this.letters.get(id);
  }

  async get(id: bigint): Promise<DeadLetter> {
    const letter = await this.letters.get(id);
    if (!letter) throw notFound();
    return letter;
  }

  /** Replays an open dead letter; with `auditAs`, the audit row is written in the replay's transaction (both or neither). */
  replay(id: bigint, auditAs?: AuditAs): Promise<ReplayResult> {
    if (!auditAs) return this.letters.replay(id, new Date());
    return this.audit.withChange(
      (tx) => this.letters.replayIn(tx, id, new Date()),
      (r) => (r.outcome === 'replayed' ? auditAs('dead-letter.replay', `dead-letter:${id}`) : null),
    );
  }

  /** replay, or why not: unknown (404), not open or not JSON (400). */
  async replayed(id: bigint, auditAs?: AuditAs): Promise<DeadLetter> {
    const r = await this.replay(id, auditAs);
    switch (r.outcome) {
      case 'not-found':
        throw notFound();
      case 'not-open':
        throw new BackofficeError(BackofficeErrorCode.InvalidState, `Dead letter is ${r.deadLetter.status} already`);
      case 'not-json':
        throw new BackofficeError(
          BackofficeErrorCode.InvalidState,
          'Dead letter value is not JSON and can never be processed; resolve it instead',
        );
      case 'replayed':
        return r.deadLetter;
    }
  }

  /** Closes an open dead letter without replaying it; null when there is no open one of that id. */
  resolve(id: bigint, note: string): Promise<DeadLetter | null> {
    return this.letters.resolve(id, note, new Date());
  }

  async resolved(id: bigint, note: string): Promise<DeadLetter> {
    const letter = await this.resolve(id, note);
    if (!letter) throw notFound('Open dead letter not found');
    return letter;
  }
}
