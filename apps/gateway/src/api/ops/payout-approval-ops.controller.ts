import { Body, Controller, Get, HttpCode, Put, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiProperty } from '@nestjs/swagger';
import { Reply } from '@pay/platform';
import { Audited } from '../../kernel/audit/audit.interceptor';
import { OperatorGuard } from '../../kernel/auth/operator.guard';
import { RequiresRecentAuth } from '../../kernel/auth/session/requires-recent-auth.decorator';
import { PayoutApprovalSettingsDto } from '../../kernel/dto/payout-approval.dto';
import { MerchantId } from '../../kernel/http/path-params';
import { ApiEnvelope } from '../../kernel/openapi/api-envelope.decorator';
import { ApiMerchantIdParam, ApiOps } from '../../kernel/openapi/ops-api.decorator';
import { PayoutApprovalService } from '../../services/disbursement/payout-approval.service';

class PayoutApprovalSettingsSchema {
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 10000000,
    description: 'Payouts above this (Rupiah) wait for approval; null: none do',
  })
  threshold!: number | null;
  @ApiProperty({
    example: 86400,
    description: 'How long a payout waits for approval before it expires (and is refunded), seconds',
  })
  ttlSeconds!: number;
  @ApiProperty({ example: false, description: 'Every batch waits for approval' })
  batches!: boolean;
}

/**
 * A merchant's payout approval settings (docs/payout-approvals.md) set by operators: the ops API
 * (admin token) and the console (/console/api: an operator's session, a recent password). Audited.
 * The merchant's own users set them in the dashboard.
 */
@ApiOps('Merchant settings')
@ApiMerchantIdParam()
@Controller()
@UseGuards(OperatorGuard)
export class PayoutApprovalOpsController {
  constructor(private readonly approvals: PayoutApprovalService) {}

  @Get(['ops/merchants/:merchantId/payout-approvals', 'console/api/merchants/:merchantId/payout-approvals'])
  @ApiOperation({ operationId: 'getMerchantPayoutApprovals', summary: 'The payout approval settings' })
  @ApiEnvelope(PayoutApprovalSettingsSchema, { message: 'Query success' })
  async show(@MerchantId() merchantId: number) {
    return new Reply('Query success', await this.approvals.settings(merchantId));
  }

  @RequiresRecentAuth()
  @Put(['ops/merchants/:merchantId/payout-approvals', 'console/api/merchants/:merchantId/payout-approvals'])
  @Audited('merchant.payout-approvals', ({ params }) => `merchant:${params.merchantId}`)
  @HttpCode(200)
  @ApiOperation({
    operationId: 'setMerchantPayoutApprovals',
    summary:
      'Set the payout approval settings: the threshold above which payouts wait (null: none), whether every batch waits, and their expiry',
  })
  @ApiEnvelope(PayoutApprovalSettingsSchema, { message: 'Approval settings set' })
  async set(@MerchantId() merchantId: number, @Body() dto: PayoutApprovalSettingsDto) {
    return new Reply('Approval settings set', await this.approvals.setSettings(merchantId, dto));
  }
}
