import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { BANKS } from '@pay/domain';
import { Reply } from '@pay/platform';
import { MerchantAuthGuard } from '../../kernel/auth/merchant/merchant-auth.guard';
import { RequiresScope } from '../../kernel/auth/merchant/requires-scope';
import { ApiEnvelope, ApiErrors, ApiMerchant } from '../../kernel/openapi/api-envelope.decorator';
import { RateLimit } from '../../kernel/rate-limit/rate-limit.decorator';
import { BankSchema } from './openapi/schemas';

/** The bank and e-wallet codes a payout may go to (our addition: a client need not copy a list from the docs). */
@ApiMerchant('Disbursement')
@Controller('api/v1/banks')
@UseGuards(MerchantAuthGuard)
export class BanksController {
  @Get()
  @RequiresScope('payouts:read')
  @RateLimit('read')
  @ApiOperation({
    operationId: 'listBanks',
    summary: 'The bank and e-wallet codes payouts can go to (our addition)',
    description:
      'What `bankCode` of an account inquiry and a transfer takes (case-insensitive), with the name and whether it is a bank or an e-wallet (e-wallet accounts are mobile numbers, 08...).',
  })
  @ApiEnvelope(BankSchema, { message: 'Query success', isArray: true })
  @ApiErrors()
  list(): Reply<{ code: string; name: string; kind: string }[]> {
    return new Reply(
      'Query success',
      BANKS.map((b) => ({ code: b.code, name: b.name, kind: b.kind })),
    );
  }
}
