import type { Minor } from '@pay/domain';
import type { PrismaClient } from '../client/prisma';

/** Reads the balance projection. Only the ledger writes it. */
export class BalanceRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async get(merchantId: number): Promise<{ available: Minor; pending: Minor }> {
    // Raw SQL: every balance request runs this; see MerchantAuthRepository.findByToken.
    const [row] = await this.prisma.$queryRaw<{ available: bigint; pending: bigint }[]>`
      SELECT available, pending FROM balances WHERE merchant_id = ${merchantId}`;
    return row ?? { available: 0n, pending: 0n };
  }
}
