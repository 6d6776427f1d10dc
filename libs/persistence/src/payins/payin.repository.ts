import { randomUUID } from 'node:crypto';
import { type LedgerCommand, ledgerCommandId } from '@pay/contracts';
import type { Minor } from '@pay/domain';
import type { PrismaClient, TransactionClient } from '../client/prisma';
import { enqueueLedgerCommand } from '../outbox/outbox-writer';
import type { Payin } from '../generated/prisma/client';

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
  qrisPayload: string;
  expiresAt: Date;
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
}

export type NoticeOutcome =
  | { outcome: 'accepted' | 'duplicate'; payin: Payin }
  | { outcome: 'refused'; reason: 'UNKNOWN_REFERENCE' | 'AMOUNT_MISMATCH' | 'QR_EXPIRED' | 'ALREADY_FINAL'; payin?: Payin };

/** Pay-ins: created by the gateway, completed by the acquirer's notification, settled by the ledger. */
export class PayinRepository {
  constructor(private readonly prisma: PrismaClient) {}

  create(p: NewPayin): Promise<Payin> {
    return this.prisma.payin.create({ data: { id: randomUUID(), status: 'pending', ...p } });
  }

  find(merchantId: number, merchantTrxId: string): Promise<Payin | null> {
    return this.prisma.payin.findUnique({ where: { merchantId_merchantTrxId: { merchantId, merchantTrxId } } });
  }

  /**
   * Applies one acquirer notification in one transaction, recording it whatever the outcome.
   * A successful payment marks the pay-in success and puts the ledger's `payin.record` command
   * in the outbox; the same notification again (same acquirer reference) changes nothing.
   */
  async applyNotice(n: AcquirerNotice, rawBody: string, now: Date): Promise<NoticeOutcome> {
    return this.prisma.$transaction(async (tx) => {
      const [locked] = await tx.$queryRaw<{ id: string }[]>`SELECT id::text FROM payins WHERE platform_trx_id = ${n.platformTrxId} FOR UPDATE`;
      const payin = locked ? await tx.payin.findUniqueOrThrow({ where: { id: locked.id } }) : null;
      const outcome = this.decide(payin, n, now);
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
      if (outcome.outcome !== 'accepted' || !payin) return outcome;
      return { outcome: 'accepted', payin: await this.complete(tx, payin, n) };
    });
  }

  private decide(payin: Payin | null, n: AcquirerNotice, now: Date): NoticeOutcome | { outcome: 'accepted'; payin: Payin } {
    if (!payin) return { outcome: 'refused', reason: 'UNKNOWN_REFERENCE' };
    if (payin.acquirerReference === n.acquirerReference) return { outcome: 'duplicate', payin };
    if (payin.status !== 'pending') return { outcome: 'refused', reason: 'ALREADY_FINAL', payin };
    if (payin.amount !== n.amount) return { outcome: 'refused', reason: 'AMOUNT_MISMATCH', payin };
    // The payment time decides; a notification arriving late for a payment made in time is fine.
    if (payin.expiresAt && n.paidAt > payin.expiresAt) return { outcome: 'refused', reason: 'QR_EXPIRED', payin };
    if (n.paidAt.getTime() > now.getTime() + 5 * 60_000) return { outcome: 'refused', reason: 'QR_EXPIRED', payin };
    return { outcome: 'accepted', payin };
  }

  private async complete(tx: TransactionClient, payin: Payin, n: AcquirerNotice): Promise<Payin> {
    if (n.status === 'failed') {
      return tx.payin.update({
        where: { id: payin.id },
        data: { status: 'failed', acquirerReference: n.acquirerReference, issuer: n.issuer, failureReason: n.failureReason ?? 'Payment failed' },
      });
    }
    const updated = await tx.payin.update({
      where: { id: payin.id },
      data: { status: 'success', acquirerReference: n.acquirerReference, rrn: n.rrn, issuer: n.issuer, successAt: n.paidAt },
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
    };
    await enqueueLedgerCommand(tx, command);
    return updated;
  }
}
