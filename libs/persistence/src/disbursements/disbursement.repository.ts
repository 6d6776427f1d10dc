import type { LedgerCommand, LedgerOutcome } from '@pay/contracts';
import type { DisbursementStatus, Minor } from '@pay/domain';
import type { PrismaClient } from '../client/prisma';
import { enqueueLedgerCommand } from '../outbox/outbox-writer';
import type { Disbursement, DisbursementInquiry } from '../generated/prisma/client';

export type { Disbursement, DisbursementInquiry };

export interface NewInquiry {
  platformTrxId: string;
  merchantId: number;
  merchantTrxId: string;
  bankCode: string;
  accountNo: string;
  accountName: string;
  amount: Minor;
  fee: Minor;
  expiresAt: Date;
}

export interface NewDisbursement {
  id: string;
  merchantId: number;
  merchantTrxId: string;
  platformTrxId: string;
  bankCode: string;
  accountNo: string;
  accountName: string;
  amount: Minor;
  fee: Minor;
  notifyUrl: string;
  logId?: string;
}

/** The gateway's reads and writes of inquiries and disbursements (money itself moves only in the ledger). */
export class DisbursementRepository {
  constructor(private readonly prisma: PrismaClient) {}

  createInquiry(inquiry: NewInquiry): Promise<DisbursementInquiry> {
    return this.prisma.disbursementInquiry.create({ data: inquiry });
  }

  findInquiry(merchantId: number, platformTrxId: string): Promise<DisbursementInquiry | null> {
    return this.prisma.disbursementInquiry.findFirst({ where: { platformTrxId, merchantId } });
  }

  /** The merchant's transfer with this merchantTrxId that is not a refused attempt. */
  findLive(merchantId: number, merchantTrxId: string): Promise<Disbursement | null> {
    return this.prisma.disbursement.findFirst({ where: { merchantId, merchantTrxId, status: { not: 'refused' } } });
  }

  findLiveByInquiry(platformTrxId: string): Promise<Disbursement | null> {
    return this.prisma.disbursement.findFirst({ where: { platformTrxId, status: { not: 'refused' } } });
  }

  get(id: string): Promise<Disbursement | null> {
    return this.prisma.disbursement.findUnique({ where: { id } });
  }

  /**
   * Records the transfer as `funding` and, in the same transaction, the debit command for the
   * ledger in the outbox: the command is never on the bus without the transfer it pays for.
   */
  async createFunding(disbursement: NewDisbursement, debit: LedgerCommand): Promise<Disbursement> {
    return this.prisma.$transaction(async (tx) => {
      const row = await tx.disbursement.create({ data: { ...disbursement, status: 'funding' satisfies DisbursementStatus } });
      await enqueueLedgerCommand(tx, debit);
      return row;
    });
  }

  /** The ledger's recorded decision for a command, if any. */
  async ledgerOutcome(commandId: string): Promise<LedgerOutcome | null> {
    const row = await this.prisma.ledgerCommand.findUnique({ where: { commandId }, select: { result: true } });
    return row ? (row.result as unknown as LedgerOutcome) : null;
  }
}
