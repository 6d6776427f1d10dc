import type { PrismaClient } from '../client/prisma';
import { hashToken } from './token';

export interface AuthenticatedMerchant {
  id: number;
  name: string;
  isActive: boolean;
  ipAllowlistEnabled: boolean;
  ipAllowlist: string[];
  /** Flat disbursement fee, minor units */
  payoutFeeFlat: bigint;
  tokenId: string;
}

export type TokenLookup = { found: true; merchant: AuthenticatedMerchant } | { found: false };

/** Reads tokens live from Postgres, so a revocation or deactivation takes effect on the next request. */
export class MerchantAuthRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async findByToken(token: string): Promise<TokenLookup> {
    const row = await this.prisma.apiToken.findUnique({
      where: { tokenHash: hashToken(token) },
      include: { merchant: true },
    });
    if (!row || row.revokedAt) return { found: false };
    const m = row.merchant;
    return {
      found: true,
      merchant: {
        id: m.id,
        name: m.name,
        isActive: m.isActive,
        ipAllowlistEnabled: m.ipAllowlistEnabled,
        ipAllowlist: m.ipAllowlist,
        payoutFeeFlat: m.payoutFeeFlat,
        tokenId: row.id,
      },
    };
  }

  /** Best effort and coarse (once a minute) so a hot token does not turn every read into a write. */
  async touch(tokenId: string): Promise<void> {
    await this.prisma.$executeRaw`
      UPDATE api_tokens SET last_used_at = now()
      WHERE id = ${tokenId}::uuid AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`;
  }
}
