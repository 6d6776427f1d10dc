import { randomUUID } from 'node:crypto';
import { type LedgerCommand, ledgerCommandId } from '@pay/contracts';
import type { Minor } from '@pay/domain';
import { isUniqueViolation, type PrismaClient, type TransactionClient } from '../client/prisma';
import { enqueueLedgerCommand } from '../outbox/outbox-writer';
import type { Payin } from '../generated/prisma/client';
import type { NewDelivery } from '../webhooks/webhook-delivery.repository';
import { payinCallbackDelivery } from './payin-callback';

export type { Payin };

export interface NewPayin {
  merchantId: number;
  merchantTrxId: string;
  platformTrxId: string;
  amount: Minor;
  fee: Minor;
  feePctMilli: number;
  feeFixed: Minor;
  nmid: string;
  /** The code's EMV payload; null until the acquirer generated it (QRIS_ACQUIRER=snap) */
  qrisPayload: string | null;
  expiresAt: Date;
  /** Where this pay-in's callbacks go (else the merchant's default pay-in callback URL) */
  notifyUrl?: string | null;
  logId?: string;
}

/** What the acquirer tells us about one payment of a code. */
export interface AcquirerNotice {
  acquirerReference: string;
  platformTrxId: string;
  amount: Minor;
  status: 'success' | 'failed';
  rrn: string | null;
  issuer: string | null;
  paidAt: Date;
  failureReason: string | null;
  /** Sent by the sandbox payer (SANDBOX_MODE), never by the acquirer: the pay-in is sandbox money */
  sandbox: boolean;
}

export type NoticeOutcome =
  | { outcome: 'accepted' | 'duplicate'; payin: Payin }
  | {
      outcome: 'refused';
      reason:
        | 'UNKNOWN_REFERENCE'
        | 'AMOUNT_MISMATCH'
        | 'QR_EXPIRED'
        | 'ALREADY_FINAL'
        | 'PAID_AT_INVALID'
        | 'ACQUIRER_REFERENCE_CONFLICT';
      payin?: Payin;
    };

/** Pay-ins: created by the gateway, completed by the acquirer's notification, settled by the ledger. */
export class PayinRepository {
  constructor(private readonly prisma: PrismaClient) {}

  create(p: NewPayin): Promise<Payin> {
    return this.prisma.payin.create({ data: { id: randomUUID(), status: 'pending', ...p } });
  }

  /** The code the acquirer generated for a pay-in, set once (a second generate of the same reference returns the same code). */
  async setQrisPayload(id: string, qrisPayload: string): Promise<Payin> {
    await this.prisma.payin.updateMany({ where: { id, qrisPayload: null }, data: { qrisPayload } });
    return this.prisma.payin.findUniqueOrThrow({ where: { id } });
  }

  find(merchantId: number, merchantTrxId: string): Promise<Payin | null> {
    return this.prisma.payin.findUnique({ where: { merchantId_merchantTrxId: { merchantId, merchantTrxId } } });
  }

  /**
   * The merchant's pay-in with this RRN (the Reference Retrieval Number on the payer's receipt), by
   * payins_merchant_id_rrn_idx. An acquirer may reuse an RRN after a long while: the newest pay-in
   * with it is the one a receipt in hand means.
   */
  findByRrn(merchantId: number, rrn: string): Promise<Payin | null> {
    return this.prisma.payin.findFirst({
      where: { merchantId, rrn },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    });
  }

  /**
   * Applies one acquirer notification in one transaction, recording it whatever the outcome.
   * A successful payment marks the pay-in success and puts the ledger's `payin.record` command
   * in the outbox; an applied notification also writes the merchant's callback (payin.succeeded
   * or payin.failed) in the same transaction; the same notification again (same acquirer
   * reference) changes nothing.
   * `clockSkewMs` is how far the acquirer's clock may be from ours (see decide).
   */
  async applyNotice(n: AcquirerNotice, rawBody: string, now: Date, clockSkewMs: number): Promise<NoticeOutcome> {
    try {
      return await this.prisma.$transaction(async (tx) => {
        const [locked] = await tx.$queryRaw<
          { id: string }[]
        >`SELECT id::text FROM payins WHERE platform_trx_id = ${n.platformTrxId} FOR UPDATE`;
        const payin = locked ? await tx.payin.findUniqueOrThrow({ where: { id: locked.id } }) : null;
        const outcome = this.decide(payin, n, now, clockSkewMs);
        await this.record(tx, n, rawBody, now, outcome, payin);
        if (outcome.outcome !== 'accepted' || !payin) return outcome;
        return { outcome: 'accepted', payin: await this.complete(tx, payin, n, now) };
      });
    } catch (err) {
      // The only unique key this transaction can hit is payins.acquirer_reference: the reference
      // already paid another pay-in (the same pay-in would have read as a duplicate). The
      // transaction rolled back, so the refusal is recorded on its own.
      if (!isUniqueViolation(err)) throw err;
      const payin = await this.prisma.payin.findUnique({ where: { platformTrxId: n.platformTrxId } });
      const outcome = { outcome: 'refused', reason: 'ACQUIRER_REFERENCE_CONFLICT', payin: payin ?? undefined } as const;
      await this.record(this.prisma, n, rawBody, now, outcome, payin);
      return outcome;
    }
  }

  private async record(
    tx: TransactionClient,
    n: AcquirerNotice,
    rawBody: string,
    now: Date,
    outcome: NoticeOutcome,
    payin: Payin | null,
  ): Promise<void> {
    await tx.acquirerNotification.create({
      data: {
        acquirerReference: n.acquirerReference,
        platformTrxId: n.platformTrxId,
        payinId: payin?.id,
        outcome: outcome.outcome,
        reason: outcome.outcome === 'refused' ? outcome.reason : null,
        body: rawBody,
        receivedAt: now,
      },
    });
  }

  /**
   * What a notification does. Its paidAt must lie between the code's creation and now, each
   * widened by the clock skew: a time outside cannot be a payment of this code (a backdated or
   * forged notification), so it is refused rather than clamped, and the acquirer sees why.
   */
  private decide(
    payin: Payin | null,
    n: AcquirerNotice,
    now: Date,
    clockSkewMs: number,
  ): NoticeOutcome | { outcome: 'accepted'; payin: Payin } {
    if (!payin) return { outcome: 'refused', reason: 'UNKNOWN_REFERENCE' };
    if (payin.acquirerReference === n.acquirerReference) return { outcome: 'duplicate', payin };
    // An `expired` code (the expiry scan's) still takes a successful payment made before it
    // expired (checked below): the money moved, the acquirer's word wins. Nothing else.
    if (payin.status !== 'pending' && !(payin.status === 'expired' && n.status === 'success'))
      return { outcome: 'refused', reason: 'ALREADY_FINAL', payin };
    if (payin.amount !== n.amount) return { outcome: 'refused', reason: 'AMOUNT_MISMATCH', payin };
    // NaN too: ISO 8601 forms such as a week date (2026-W47) pass validation but are no instant.
    const paidAt = n.paidAt.getTime();
    if (!(paidAt >= payin.createdAt.getTime() - clockSkewMs && paidAt <= now.getTime() + clockSkewMs))
      return { outcome: 'refused', reason: 'PAID_AT_INVALID', payin };
    // The payment time decides; a notification arriving late for a payment made in time is fine.
    if (payin.expiresAt && n.paidAt > payin.expiresAt) return { outcome: 'refused', reason: 'QR_EXPIRED', payin };
    return { outcome: 'accepted', payin };
  }

  /**
   * success_at is when we recorded the payment (`now`), not the acquirer's paidAt: settlement
   * holds count from success_at, and no time the acquirer supplies may move a pay-in into an
   * earlier settlement. paidAt stays in the notification's raw body.
   */
  private async complete(tx: TransactionClient, payin: Payin, n: AcquirerNotice, now: Date): Promise<Payin> {
    if (n.status === 'failed') {
      const failed = await tx.payin.update({
        where: { id: payin.id },
        data: {
          status: 'failed',
          acquirerReference: n.acquirerReference,
          issuer: n.issuer,
          failureReason: n.failureReason ?? 'Payment failed',
          sandbox: n.sandbox,
        },
      });
      await this.callback(tx, failed, now, n.paidAt);
      return failed;
    }
    const updated = await tx.payin.update({
      where: { id: payin.id },
      data: {
        status: 'success',
        acquirerReference: n.acquirerReference,
        rrn: n.rrn,
        issuer: n.issuer,
        successAt: now,
        sandbox: n.sandbox,
      },
    });
    const command: LedgerCommand = {
      type: 'payin.record',
      commandId: ledgerCommandId.payinRecord(payin.id),
      merchantId: payin.merchantId,
      logId: payin.logId ?? undefined,
      issuedAt: new Date().toISOString(),
      payinId: payin.id,
      amount: payin.amount.toString(),
      fee: payin.fee.toString(),
      // The ledger keeps the sandbox payer's money apart (decision 0047); the acquirer's carries no mark.
      ...(n.sandbox ? { sandbox: true as const } : {}),
    };
    await enqueueLedgerCommand(tx, command);
    await this.callback(tx, updated, now, n.paidAt);
    return updated;
  }

  /** The merchant's callback of this final status (only logged when it has nowhere to go); once per event id. */
  private async callback(tx: TransactionClient, payin: Payin, now: Date, paidAt: Date): Promise<void> {
    const merchant = await tx.merchant.findUniqueOrThrow({
      where: { id: payin.merchantId },
      select: { name: true, payinCallbackUrl: true },
    });
    // Without a URL (url ''): the event is only logged, no delivery row (webhook_deliveries_record_event).
    const delivery = payinCallbackDelivery(payin, merchant, now, paidAt);
    await tx.webhookDelivery.createMany({ data: [deliveryRow(delivery, now)], skipDuplicates: true });
  }
}

function deliveryRow(d: NewDelivery, now: Date) {
  const { logId, ...rest } = d;
  return {
    id: randomUUID(),
    ...rest,
    logId: logId ?? null,
    status: 'pending',
    nextAttemptAt: now,
    createdAt: now,
    updatedAt: now,
  };
}
