import type { Minor } from '@pay/domain';
import type { PrismaClient } from '../client/prisma';

/** Reads the balance projection. Only the ledger writes it. */
export class BalanceRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async get(merchantId: number): Promise<{ available: Minor; pending: Minor }> {
    const row = await this.prisma.balance.findUnique({ where: { merchantId }, select: { available: true, pending: true } });
    return row ?? { available: 0n, pending: 0n };
  }
}
