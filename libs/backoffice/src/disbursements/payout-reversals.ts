import { BackofficeError, BackofficeErrorCode } from '@pay/contracts';
import { formatAmount } from '@pay/domain';
import {
  AuditLogRepository,
  type Disbursement,
  inTransaction,
  reverseDisbursement,
  type SqlClient,
} from '@pay/persistence';
import type { Pool } from 'pg';
import type { AuditAs } from '../audit';
import { invalidInput } from '../merchants/merchant-input';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The ledger's payout.reverse carries at most this much reason */
const REASON_MAX = 500;

/** A reversal as every face answers it. */
export interface PayoutReversal {
  disbursementId: string;
  merchantId: number;
  merchantTrxId: string;
  status: 'reversed';
  reversedAt: Date;
  reason: string;
  /** What goes back into the merchant's available: amount + fee, in minor units */
  returned: bigint;
  /** Reversed before this request: nothing was done this time */
  alreadyReversed: boolean;
}

/**
 * Operators reversing a successful payout that the beneficiary's bank returned (ops API, console,
 * CLI `payout reverse`): one transaction moves the disbursement success -> reversed and writes the
 * ledger's payout.reverse (amount + fee back into available), the payout event and the merchant's
 * `disbursement.reversed` callback. Idempotent: a second reversal answers the first one and books
 * nothing. With `auditAs`, the audit row is written in the same transaction, for the reversal
 * that changed something only.
 */
export class PayoutReversals {
  private readonly audit: AuditLogRepository;

  constructor(private readonly pool: Pool) {
    this.audit = new AuditLogRepository(pool);
  }

  async reverse(disbursementId: string, reason: string, auditAs?: AuditAs): Promise<PayoutReversal> {
    if (!UUID.test(disbursementId)) throw notFound();
    const why = reason.trim();
    if (!why) throw invalidInput('reason', 'reason must say why the bank returned the payout');
    if (why.length > REASON_MAX) throw invalidInput('reason', `reason must be at most ${REASON_MAX} characters`);
    const change = async (tx: SqlClient) => {
      const outcome = await reverseDisbursement(tx, { disbursementId, reason: why, at: new Date() });
      if (outcome.kind === 'not_found') throw notFound();
      if (outcome.kind === 'not_reversible')
        throw new BackofficeError(
          BackofficeErrorCode.DisbursementNotReversible,
          `Only a successful disbursement can be reversed; this one is ${outcome.status}`,
        );
      return { disbursement: outcome.disbursement, reversedNow: outcome.reversedNow };
    };
    const { disbursement, reversedNow } = auditAs
      ? await this.audit.withChange(change, (r) =>
          r.reversedNow ? auditAs('disbursement.reverse', `disbursement:${disbursementId}`) : null,
        )
      : await inTransaction(this.pool, change);
    return describeReversal(disbursement, !reversedNow);
  }
}

/** A reversal as the faces print it (ops API, console, CLI --json): times ISO 8601, `returned` in Rupiah. */
export function reversalView(r: PayoutReversal) {
  return {
    disbursementId: r.disbursementId,
    merchantId: r.merchantId,
    merchantTrxId: r.merchantTrxId,
    status: r.status,
    reversedAt: r.reversedAt.toISOString(),
    reason: r.reason,
    returned: formatAmount(r.returned),
    alreadyReversed: r.alreadyReversed,
  };
}

function describeReversal(d: Disbursement, alreadyReversed: boolean): PayoutReversal {
  return {
    disbursementId: d.id,
    merchantId: d.merchantId,
    merchantTrxId: d.merchantTrxId,
    status: 'reversed',
    reversedAt: d.reversedAt as Date,
    reason: d.reversalReason ?? '',
    returned: d.amount + d.fee,
    alreadyReversed,
  };
}

const notFound = () => new BackofficeError(BackofficeErrorCode.DisbursementNotFound, 'Disbursement not found');
