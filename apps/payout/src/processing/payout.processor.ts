import {
  type BankRail,
  RailTimeoutError,
  SANDBOX_MONEY_REFUSAL,
  sendsSandboxMoney,
  type TransferStatus,
} from '@pay/bank-rail';
import { PAYOUT_FAILURE_TEXT, PayoutFailureCode } from '@pay/domain';
import type { ClaimedDisbursement, PayoutOutcome, PayoutRepository } from '@pay/persistence';
import { type Logger, type RoundResult, runWithLogId } from '@pay/platform';

export interface PayoutProcessorOptions {
  /** Disbursements claimed per round */
  batchSize: number;
  /** How long a claimed disbursement is reserved for this worker */
  leaseMs: number;
  /** Wait before asking the rail again after it timed out */
  timeoutRetryMs: number;
}

/**
 * Drives debited disbursements pending -> success | failed through the bank rail, a batch at a
 * time: one statement claims the batch and records its submissions (with the ledger's
 * payout.send of each first one), the rail is called for each in parallel, and one statement
 * records every outcome (with the events, the ledger's refunds or confirmations, and the
 * merchants' callbacks).
 * Every step is safe to repeat: the rail is called with the disbursement id as idempotency
 * key, the submission is recorded before the call, and after a crash (lease expired) the
 * next worker asks the rail for the transfer's status before submitting again.
 * Over a live rail, a merchant that has received sandbox money gets nothing sent: its
 * disbursement fails unsent and is refunded (docs/decisions/0047-sandbox-money.md).
 */
export class PayoutProcessor {
  constructor(
    private readonly payouts: PayoutRepository,
    private readonly rail: BankRail,
    private readonly logger: Logger,
    private readonly options: PayoutProcessorOptions,
  ) {}

  /**
   * One round: claim what is due (optionally only among `onlyIds`) and advance it. Says whether
   * a full batch was taken (more may wait) and when the earliest known recheck falls due.
   */
  async processDue(onlyIds?: string[]): Promise<RoundResult & { claimed: number }> {
    // The claim also records the submission of whatever it claims that was never submitted.
    // ... and, in the books, sends each first submission over this rail (payout.send).
    const { claimed, nextDueAt } = await this.payouts.claimDue(
      this.options.batchSize,
      this.options.leaseMs,
      { name: this.rail.name, live: this.rail.live },
      onlyIds,
    );
    if (claimed.length === 0) return { claimed: 0, nextDueAt };

    // Transfers the rail may already have (submitted before a crash or a timeout): ask first.
    const known = await Promise.all(
      claimed.map((d) =>
        d.priorSubmittedAt ? this.ask(d, () => this.rail.transferStatus(d.id)) : Promise.resolve(null),
      ),
    );
    const unsent = claimed.filter((_d, i) => known[i] === null);
    // Sandbox money never goes over a live rail, a payout rejected by the merchant's approver or
    // whose approval expired is never sent: such a disbursement fails unsent and is refunded.
    const held = new Map(
      unsent.flatMap((d) => {
        const code = unsentCode(d, this.rail);
        return code ? [[d.id, code] as const] : [];
      }),
    );
    const toSubmit = unsent.filter((d) => !held.has(d.id));
    const submitted = await Promise.all(
      toSubmit.map((d) =>
        this.ask(d, async () => {
          const status = await this.rail.submitTransfer({
            idempotencyKey: d.id,
            bankCode: d.bankCode,
            accountNo: d.accountNo,
            accountName: d.accountName,
            amount: d.amount,
          });
          runWithLogId(d.logId ?? d.id, () =>
            this.logger.info({ disbursementId: d.id, state: status.state }, 'payout submitted to the rail'),
          );
          return status;
        }),
      ),
    );
    const answers = new Map<string, Answer>(toSubmit.map((d, i) => [d.id, submitted[i] as Answer]));
    const outcomes = claimed.map((d, i) =>
      held.has(d.id)
        ? this.heldBack(d, held.get(d.id) as PayoutFailureCode)
        : {
            ...this.outcome(d, answers.get(d.id) ?? (known[i] as Answer)),
            resubmitted: answers.has(d.id) && d.priorSubmittedAt !== null,
          },
    );

    const finalised = await this.payouts.complete(outcomes);
    for (const o of outcomes) this.logOutcome(o, finalised.has(o.disbursement.id));
    const rechecks = outcomes.filter((o) => o.kind === 'recheck').map((o) => o.at.getTime());
    const earliest = Math.min(nextDueAt?.getTime() ?? Infinity, ...rechecks);
    return {
      claimed: claimed.length,
      more: claimed.length === this.options.batchSize,
      nextDueAt: Number.isFinite(earliest) ? new Date(earliest) : null,
    };
  }

  /** A rail call whose failure concerns only this disbursement: it is asked again later, the batch goes on. */
  private async ask(d: ClaimedDisbursement, call: () => Promise<TransferStatus | null>): Promise<Answer> {
    try {
      return await call();
    } catch (err) {
      const timeout = err instanceof RailTimeoutError;
      runWithLogId(d.logId ?? d.id, () =>
        this.logger.warn(
          { disbursementId: d.id, err: err instanceof Error ? err.message : String(err) },
          timeout ? 'rail timed out; will ask again' : 'rail call failed; will retry',
        ),
      );
      return RAIL_ERROR;
    }
  }

  private outcome(d: ClaimedDisbursement, answer: Answer): PayoutOutcome {
    if (answer === RAIL_ERROR || answer === null)
      return { kind: 'recheck', disbursement: d, at: new Date(Date.now() + this.options.timeoutRetryMs) };
    switch (answer.state) {
      case 'processing':
        return {
          kind: 'recheck',
          disbursement: d,
          at: new Date(Date.now() + answer.checkAfterMs),
          railReference: answer.reference,
        };
      case 'completed':
        return { kind: 'success', disbursement: d, at: answer.completedAt, railReference: answer.reference };
      case 'failed':
        return {
          kind: 'failed',
          disbursement: d,
          at: answer.failedAt,
          railReference: answer.reference,
          reason: answer.reason,
          code: answer.code,
        };
    }
  }

  /**
   * A disbursement failed without being sent, so the ledger refunds it and the merchant's callback
   * says why: a merchant that has received sandbox money over a live rail (decision 0047), or a
   * payout its approver rejected or whose approval expired (docs/payout-approvals.md).
   */
  private heldBack(d: ClaimedDisbursement, code: PayoutFailureCode): PayoutOutcome {
    runWithLogId(d.logId ?? d.id, () =>
      code === PayoutFailureCode.SandboxMoney
        ? this.logger.warn(
            { disbursementId: d.id, merchantId: d.merchantId, sandboxReceived: d.merchantSandboxReceived.toString() },
            'disbursement not sent: the merchant has received sandbox money and the rail is live',
          )
        : this.logger.info(
            { disbursementId: d.id, merchantId: d.merchantId, code },
            'disbursement not sent: not approved',
          ),
    );
    return {
      kind: 'failed',
      disbursement: d,
      at: new Date(),
      railReference: null,
      reason: code === PayoutFailureCode.SandboxMoney ? SANDBOX_MONEY_REFUSAL : PAYOUT_FAILURE_TEXT[code],
      code,
    };
  }

  private logOutcome(o: PayoutOutcome, finalisedNow: boolean): void {
    if (o.kind === 'recheck' || !finalisedNow) return;
    const d = o.disbursement;
    runWithLogId(d.logId ?? d.id, () => {
      if (o.kind === 'success')
        this.logger.info({ disbursementId: d.id, merchantId: d.merchantId }, 'disbursement succeeded');
      else
        this.logger.info(
          { disbursementId: d.id, merchantId: d.merchantId, reason: o.reason },
          'disbursement failed; refund sent to the ledger',
        );
    });
  }
}

/** Why a claimed disbursement not yet sent must fail unsent, if it must. */
function unsentCode(d: ClaimedDisbursement, rail: BankRail): PayoutFailureCode | null {
  if (d.approval === 'rejected') return PayoutFailureCode.ApprovalRejected;
  if (d.approval === 'expired') return PayoutFailureCode.ApprovalExpired;
  return sendsSandboxMoney(rail, d.merchantSandboxReceived) ? PayoutFailureCode.SandboxMoney : null;
}

/** The rail could not be asked this round (timeout, error): ask again after PAYOUT_TIMEOUT_RETRY_MS. */
const RAIL_ERROR = Symbol('rail error');
type Answer = TransferStatus | null | typeof RAIL_ERROR;
