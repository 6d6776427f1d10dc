import { Controller, Get, Req, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiProperty, ApiTags, ApiUnauthorizedResponse, ApiForbiddenResponse } from '@nestjs/swagger';
import { formatAmount } from '@pay/domain';
import { BalanceRepository } from '@pay/persistence';
import { Reply } from '@pay/platform';
import type { AuthenticatedRequest } from '../auth/authenticated-request';
import { BalanceWithToken } from '../auth/balance-with-token';
import { MerchantAuthGuard, TOKEN_HEADER } from '../auth/merchant-auth.guard';
import { balanceReadWithToken } from '../auth/merchant-token';
import { ErrorResponse } from '../openapi/error-response';
import { RateLimit } from '../rate-limit/rate-limit.decorator';

class BalanceDto {
  @ApiProperty({ example: 150000, description: 'Settled balance usable for payouts, at most two decimals' })
  available!: number;

  @ApiProperty({ example: 49500, description: 'Net of successful pay-ins not yet settled (amount minus fee)' })
  pending!: number;
}

class BalanceDataDto {
  @ApiProperty({ type: BalanceDto })
  balance!: BalanceDto;
}

class BalanceResponse {
  @ApiProperty({ example: '7d3c1f0e-5b7a-4a43-9d1e-3f0b8c2a9e11' }) logId!: string;
  @ApiProperty({ example: true }) status!: boolean;
  @ApiProperty({ example: 'Balance inquiry successful' }) message!: string;
  @ApiProperty({ type: BalanceDataDto }) data!: BalanceDataDto;
}

@ApiTags('Pay-in')
@ApiHeader({ name: TOKEN_HEADER, required: true, description: 'Merchant API token' })
@Controller('api/v1/payin')
@UseGuards(MerchantAuthGuard)
export class BalanceController {
  constructor(private readonly balances: BalanceRepository) {}

  @Get('balance')
  @RateLimit('read')
  @BalanceWithToken()
  @ApiOperation({ summary: 'Read the merchant balance (spec 4.1)', description: 'Read-only; values are live from the ledger projection.' })
  @ApiOkResponse({ type: BalanceResponse })
  @ApiUnauthorizedResponse({ type: ErrorResponse, description: 'Token not found | Token not valid | Merchant not active' })
  @ApiForbiddenResponse({ type: ErrorResponse, description: 'IP_NOT_ALLOWED: Access is not allowed from this IP address' })
  async balance(@Req() req: AuthenticatedRequest): Promise<Reply<{ balance: { available: number; pending: number } }>> {
    // Read with the token in one statement; the repository is the fallback should the route lose @BalanceWithToken.
    const { available, pending } = balanceReadWithToken(req) ?? (await this.balances.get(req.merchant.id));
    return new Reply('Balance inquiry successful', { balance: { available: formatAmount(available), pending: formatAmount(pending) } });
  }
}
