import { BackofficeError, BackofficeErrorCode } from '@pay/contracts';
import { formatAmount } from '@pay/domain';
import {
  type Adjustment,
  type AdjustmentStatus,
  AuditLogRepository,
  decideAdjustment,
  findAdjustment,
  insertAdjustment,
  listAdjustments,
  sql,
  type SqlClient,
  sqlClient,
} from '@pay/persistence';
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { actorOf, type AuditAs } from '../audit';
import { invalidInput } from '../merchants/merchant-input';
import { type AdjustmentRequestInput, checkAdjustment } from './adjustment-input';

/** How long a request waits for a second operator before it expires (and must be asked again). */
export const ADJUSTMENT_EXPIRY_HOURS = 72;
const NOTE_MAX = 500;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Manual adjustments of the books, maker-checker (every face: the ops API, the console, the CLI
 * `adjustment ...`): one operator requests (the postings checked as the ledger will), another
 * approves or rejects. Approval is one transaction: the request approved and the ledger's
 * books.adjust in the outbox; the ledger then books it or refuses it (an overdraft, INSUFFICIENT_BALANCE),
 * which the adjustment then shows. Who acts is the audit entry's actor (actorOf): the requester is
 * never the decider, which the table's CHECK enforces too. Every step writes its audit row in
 * its own transaction.
 */
export class BookAdjustments {
  private readonly audit: AuditLogRepository;
  private readonly db: SqlClient;
  private readonly expiryMs: number;
  private readonly now: () => Date;

  constructor(pool: Pool, options: { expiryHours?: number; now?: () => Date } = {}) {
    this.audit = new AuditLogRepository(pool);
    this.db = sqlClient(pool);
    this.expiryMs = (options.expiryHours ?? ADJUSTMENT_EXPIRY_HOURS) * 3_600_000;
    this.now = options.now ?? (() => new Date());
  }

  async request(input: AdjustmentRequestInput, auditAs: AuditAs): Promise<Adjustment> {
    const checked = checkAdjustment(input);
    const id = randomUUID();
    const entry = auditAs('adjustment.request', `adjustment:${id}`);
    const at = this.now();
    await this.audit.withChange(
      async (tx) => {
        if (checked.merchantId !== null) {
          const [m] = await tx.query(sql`SELECT id FROM merchants WHERE id = ${checked.merchantId}::int FOR SHARE`);
          if (!m) throw new BackofficeError(BackofficeErrorCode.MerchantNotFound, 'Merchant not found');
        }
        await insertAdjustment(tx, {
          id,
          ...checked,
          requestedBy: actorOf(entry),
          requestedAt: at,
          expiresAt: new Date(at.getTime() + this.expiryMs),
        });
      },
      () => ({
        ...entry,
        details: { merchantId: checked.merchantId, postings: linesInRupiah(checked.postings), reason: checked.reason },
      }),
    );
    return this.get(id);
  }

  /** By another operator than the requester, while requested and unexpired; the note is optional. */
  approve(id: string, note: string | undefined, auditAs: AuditAs): Promise<Adjustment> {
    return this.decide(id, 'approved', optionalNote(note), auditAs);
  }

  /** By another operator than the requester, with a note saying why. */
  reject(id: string, note: string, auditAs: AuditAs): Promise<Adjustment> {
    const why = optionalNote(note);
    if (!why) throw invalidInput('note', 'note must say why the adjustment is rejected');
    return this.decide(id, 'rejected', why, auditAs);
  }

  async get(id: string): Promise<Adjustment> {
    const found = UUID.test(id) ? await findAdjustment(this.db, id) : null;
    if (!found) throw notFound();
    return found;
  }

  /** Newest first, 1 to 500 (default 100). */
  list(filter: { status?: AdjustmentStatus; merchantId?: number; limit?: number } = {}): Promise<Adjustment[]> {
    const limit = Math.min(Math.max(filter.limit ?? 100, 1), 500);
    return listAdjustments(this.db, { ...filter, limit });
  }

  private async decide(
    id: string,
    decision: 'approved' | 'rejected',
    note: string | null,
    auditAs: AuditAs,
  ): Promise<Adjustment> {
    if (!UUID.test(id)) throw notFound();
    const entry = auditAs(decision === 'approved' ? 'adjustment.approve' : 'adjustment.reject', `adjustment:${id}`);
    const outcome = await this.audit.withChange(
      (tx) => decideAdjustment(tx, { id, decision, by: actorOf(entry), note, at: this.now(), logId: entry.logId }),
      (o) => (o.kind === 'decided' ? { ...entry, details: { note } } : null),
    );
    switch (outcome.kind) {
      case 'decided':
        return outcome.adjustment;
      case 'not_found':
        throw notFound();
      case 'own_request':
        throw new BackofficeError(
          BackofficeErrorCode.OwnAdjustment,
          'You requested this adjustment: another operator must approve or reject it',
        );
      case 'not_requested':
        throw new BackofficeError(
          BackofficeErrorCode.AdjustmentNotRequested,
          `This adjustment is ${outcome.status} already; only a request still open is decided`,
        );
      case 'expired':
        throw new BackofficeError(
          BackofficeErrorCode.AdjustmentNotRequested,
          'This adjustment request has expired; request it again',
        );
    }
  }
}

function optionalNote(note: string | undefined): string | null {
  const text = (note ?? '').trim();
  if (text.length > NOTE_MAX) throw invalidInput('note', `note must be at most ${NOTE_MAX} characters`);
  return text || null;
}

const linesInRupiah = (postings: Adjustment['postings']) =>
  postings.map((p) => ({ account: p.account, amount: formatAmount(BigInt(p.amount)) }));

const notFound = () => new BackofficeError(BackofficeErrorCode.AdjustmentNotFound, 'Adjustment not found');

/** An adjustment as the faces print it (ops API, console, CLI --json): amounts in Rupiah, signed; times ISO 8601. */
export function adjustmentView(a: Adjustment) {
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    id: a.id,
    merchantId: a.merchantId,
    postings: linesInRupiah(a.postings),
    reason: a.reason,
    status: a.status,
    requestedBy: a.requestedBy,
    requestedByName: a.requestedByName,
    requestedAt: a.requestedAt.toISOString(),
    expiresAt: a.expiresAt.toISOString(),
    decidedBy: a.decidedBy,
    decidedByName: a.decidedByName,
    decidedAt: iso(a.decidedAt),
    decisionNote: a.decisionNote,
    ledger: a.ledger && { outcome: a.ledger.outcome, reason: a.ledger.reason, decidedAt: iso(a.ledger.decidedAt) },
  };
}
