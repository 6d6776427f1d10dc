import { Controller, Get, Req, UseGuards } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { formatAmount } from '@pay/domain';
import { BalanceRepository } from '@pay/persistence';
import { Reply } from '@pay/platform';
import type { AuthenticatedRequest } from '../../kernel/auth/merchant/authenticated-request';
import { BalanceWithToken } from '../../kernel/auth/merchant/balance-with-token';
import { MerchantAuthGuard } from '../../kernel/auth/merchant/merchant-auth.guard';
import { RequiresScope } from '../../kernel/auth/merchant/requires-scope';
import { balanceReadWithToken } from '../../kernel/auth/merchant/merchant-token';
import { ApiEnvelope, ApiErrors, ApiMerchant } from '../../kernel/openapi/api-envelope.decorator';
import { BalanceDataSchema } from './openapi/schemas';
import { RateLimit } from '../../kernel/rate-limit/rate-limit.decorator';

@ApiMerchant('Balance')
@Controller('api/v1/payin')
@UseGuards(MerchantAuthGuard)
export class BalanceController {
  constructor(private readonly balances: BalanceRepository) {}

  @Get('balance')
  @RequiresScope('balance:read')
  @RateLimit('read')
  @BalanceWithToken()
  @ApiOperation({
    operationId: 'getBalance',
    summary: 'Read the merchant balance',
    description: 'Read-only; values are live from the ledger projection.',
  })
  @ApiEnvelope(BalanceDataSchema, { message: 'Balance inquiry successful' })
  @ApiErrors()
  async balance(@Req() req: AuthenticatedRequest): Promise<Reply<{ balance: { available: number; pending: number } }>> {
    // Read with the token in one statement; the repository is the fallback should the route lose @BalanceWithToken.
    const { available, pending } = balanceReadWithToken(req) ?? (await this.balances.get(req.merchant.id));
    return new Reply('Balance inquiry successful', {
      balance: { available: formatAmount(available), pending: formatAmount(pending) },
    });
  }
}
