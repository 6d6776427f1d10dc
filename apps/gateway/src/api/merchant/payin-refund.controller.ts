import { Body, Controller, Get, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiParam } from '@nestjs/swagger';
import { ErrorCode } from '@pay/contracts';
import { Reply } from '@pay/platform';
import type { AuthenticatedRequest } from '../../kernel/auth/merchant/authenticated-request';
import { MerchantAuthGuard } from '../../kernel/auth/merchant/merchant-auth.guard';
import { RequiresScope } from '../../kernel/auth/merchant/requires-scope';
import { ApiEnvelope, ApiErrors, ApiMerchant } from '../../kernel/openapi/api-envelope.decorator';
import { presentRefund } from '../../kernel/presenters/payin.presenter';
import { RateLimit } from '../../kernel/rate-limit/rate-limit.decorator';
import { PayinRefundService } from '../../services/payin/payin-refund.service';
import { PayinRefundDto } from './dto/payin.dto';
import { PayinRefundSchema } from './openapi/schemas';

@ApiMerchant('Pay-in')
@Controller('api/v1/payin/refund')
@UseGuards(MerchantAuthGuard)
export class PayinRefundController {
  constructor(private readonly refunds: PayinRefundService) {}

  @Post()
  @RequiresScope('refunds:write')
  @HttpCode(200)
  @RateLimit('write')
  @ApiOperation({
    operationId: 'refundPayin',
    summary: 'Refund a successful QRIS pay-in, in full or in part (issue 44)',
    description:
      "The amount is debited from the balance at once (pending while the pay-in is unsettled, up to what is left of its net there, the rest from available; available once settled): 422 INSUFFICIENT_BALANCE when that does not cover it, and nothing stays. Then the acquirer pays the payer back (status pending -> success or failed, the callback payin.refunded; failed gives the amount back). All refunds of a pay-in but failed ones together are at most its amount (422 REFUND_AMOUNT_EXCEEDED), within the acquirer's refund window (QRIS_REFUND_WINDOW_DAYS, 422 REFUND_WINDOW_CLOSED). The same request again (same refundId and body) answers the same refund; another body under the refundId is 409 REFUND_ID_CONFLICT. No ledger decision in time: 503 REFUND_PROCESSING, send the same request again.",
  })
  @ApiBody({ type: PayinRefundDto })
  @ApiEnvelope(PayinRefundSchema, { message: 'Refund accepted' })
  @ApiErrors(
    ErrorCode.TransactionNotFound,
    ErrorCode.PayinNotRefundable,
    ErrorCode.RefundWindowClosed,
    ErrorCode.RefundAmountExceeded,
    ErrorCode.InsufficientBalance,
    ErrorCode.RefundIdConflict,
    ErrorCode.RefundProcessing,
  )
  async refund(@Req() req: AuthenticatedRequest, @Body() dto: PayinRefundDto) {
    const refund = await this.refunds.refund(req.merchant.id, {
      merchantTrxId: dto.merchantTrxId,
      refundId: dto.refundId,
      amount: dto.amount,
      reason: dto.reason,
    });
    return new Reply('Refund accepted', presentRefund(refund));
  }

  @Get(':refundId')
  @RequiresScope('payins:read')
  @RateLimit('read')
  @ApiOperation({ operationId: 'refundInquiry', summary: "One of the merchant's pay-in refunds by refundId" })
  @ApiParam({ name: 'refundId', example: 'RFD-2026-0001' })
  @ApiEnvelope(PayinRefundSchema, { message: 'Query success' })
  @ApiErrors(ErrorCode.RefundNotFound)
  async inquiry(@Req() req: AuthenticatedRequest, @Param('refundId') refundId: string) {
    return new Reply('Query success', presentRefund(await this.refunds.find(req.merchant.id, refundId)));
  }
}
