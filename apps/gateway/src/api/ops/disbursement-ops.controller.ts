import { Body, Controller, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiProperty } from '@nestjs/swagger';
import { PayoutReversals, reversalView } from '@pay/backoffice';
import { ErrorCode } from '@pay/contracts';
import { Reply } from '@pay/platform';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import type { FastifyRequest } from 'fastify';
import { auditAs } from '../../kernel/audit/audit.interceptor';
import { OperatorGuard } from '../../kernel/auth/operator.guard';
import { RequiresRecentAuth } from '../../kernel/auth/session/requires-recent-auth.decorator';
import { ApiEnvelope, errorResponses } from '../../kernel/openapi/api-envelope.decorator';
import { ApiOps, OPS_COMMON_ERRORS } from '../../kernel/openapi/ops-api.decorator';
import { DisbursementReversalSchema } from './ops.schemas';

class ReverseDto {
  @ApiProperty({
    maxLength: 500,
    example: 'Returned by BCA on 2026-11-25: beneficiary account closed (return ref RTN-0042)',
    description: "Why the beneficiary's bank returned the payout: shown to the merchant and kept in the audit log",
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  reason!: string;
}

/**
 * Operators reversing a successful payout the beneficiary's bank returned (also the admin CLI's
 * `payout reverse` and the console's, /console/api/disbursements/:id/reverse: an operator's
 * session, a recent password). The audit row is written in the reversal's transaction.
 */
@ApiOps('Disbursements')
@Controller()
@UseGuards(OperatorGuard)
export class DisbursementOpsController {
  constructor(private readonly reversals: PayoutReversals) {}

  @RequiresRecentAuth()
  @Post(['ops/disbursements/:id/reverse', 'console/api/disbursements/:id/reverse'])
  @HttpCode(200)
  @ApiOperation({
    operationId: 'reverseDisbursement',
    summary: "Reverse a successful payout the beneficiary's bank returned",
    description:
      "success -> reversed: amount + fee go back into the merchant's available balance (the ledger's payout.reverse) and the merchant's notifyUrl gets a `disbursement.reversed` callback. Only a successful disbursement (409 DISBURSEMENT_NOT_REVERSIBLE otherwise). Reversing again answers the first reversal and changes nothing.",
  })
  @ApiParam({ name: 'id', description: 'The disbursement id', schema: { type: 'string', format: 'uuid' } })
  @ApiEnvelope(DisbursementReversalSchema, { message: ['Disbursement reversed', 'Disbursement already reversed'] })
  @errorResponses(OPS_COMMON_ERRORS, [ErrorCode.DisbursementNotReversible])
  async reverse(@Param('id') id: string, @Body() dto: ReverseDto, @Req() req: FastifyRequest) {
    const r = await this.reversals.reverse(id, dto.reason, auditAs(req));
    return new Reply(r.alreadyReversed ? 'Disbursement already reversed' : 'Disbursement reversed', reversalView(r));
  }
}
