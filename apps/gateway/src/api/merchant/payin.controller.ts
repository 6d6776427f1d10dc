import { Body, Controller, HttpCode, Inject, NotFoundException, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBody, ApiOperation } from '@nestjs/swagger';
import { SettlementRequests } from '@pay/backoffice';
import { ErrorCode } from '@pay/contracts';
import { type MerchantClock, PayinRefundRepository, PayinRepository } from '@pay/persistence';
import { ApiError, Reply } from '@pay/platform';
import type { AuthenticatedRequest } from '../../kernel/auth/merchant/authenticated-request';
import { MerchantAuthGuard } from '../../kernel/auth/merchant/merchant-auth.guard';
import { RequiresScope } from '../../kernel/auth/merchant/requires-scope';
import type { GatewayConfig } from '../../gateway.config';
import { GATEWAY_CONFIG, MERCHANT_CLOCK } from '../../gateway.tokens';
import { ApiEnvelope, ApiErrors, ApiMerchant } from '../../kernel/openapi/api-envelope.decorator';
import { GeneratedQrisSchema, PayinInquirySchema, PayinSchema, SandboxSettlementSchema } from './openapi/schemas';
import { RateLimit } from '../../kernel/rate-limit/rate-limit.decorator';
import { SandboxPayService } from '../../services/payin/sandbox-pay.service';
import {
  GenerateQrisDto,
  generateQrisCommand,
  inquiryKey,
  QrisInquiryDto,
  SandboxPayDto,
  sandboxPayCommand,
} from './dto/payin.dto';
import { presentGenerated, presentPayin, presentPayinWithRefunds } from '../../kernel/presenters/payin.presenter';
import { QrisService } from '../../services/payin/qris.service';

@ApiMerchant('Pay-in')
@Controller('api/v1/payin/qris')
@UseGuards(MerchantAuthGuard)
export class PayinController {
  constructor(
    private readonly qris: QrisService,
    private readonly payins: PayinRepository,
    private readonly refunds: PayinRefundRepository,
    private readonly sandbox: SandboxPayService,
    private readonly settlements: SettlementRequests,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(MERCHANT_CLOCK) private readonly clock: MerchantClock,
  ) {}

  @Post('generate')
  @RequiresScope('payins:write')
  @HttpCode(200)
  @RateLimit('write')
  @ApiOperation({
    operationId: 'generateQris',
    summary: 'Create a dynamic QRIS code for one payment (our addition to the spec)',
    description:
      'The same request again (same merchantTrxId, amount and notifyUrl) returns the code already made, with its current status (also once paid or expired); a different body with the same merchantTrxId is 409 DUPLICATE_MERCHANT_TRX_ID. ' +
      'Where the acquirer generates the codes (over SNAP) and does not answer, 503 BANK_UNAVAILABLE: the same request again asks it again.',
  })
  @ApiBody({ type: GenerateQrisDto })
  @ApiEnvelope(GeneratedQrisSchema, { message: 'QRIS generated' })
  @ApiErrors(
    ErrorCode.NotifyUrlNotAllowed,
    ErrorCode.DuplicateMerchantTrxId,
    ErrorCode.Conflict,
    ErrorCode.BankUnavailable,
  )
  async generate(@Req() req: AuthenticatedRequest, @Body() dto: GenerateQrisDto) {
    const { payin, qrImage } = await this.qris.generate(req.merchant.id, generateQrisCommand(dto));
    return new Reply('QRIS generated', presentGenerated(payin, new Date(), qrImage));
  }

  @Post('inquiry')
  @RequiresScope('payins:read')
  @HttpCode(200)
  @RateLimit('read')
  @ApiOperation({
    operationId: 'payinInquiry',
    summary:
      "Status of one of the merchant's QRIS pay-ins by merchantTrxId, or by the RRN on the payer's receipt, with its refunds",
    description:
      "Send `merchantTrxId` (spec 4.5) or `rrn` (the Reference Retrieval Number the payer's receipt shows; our addition), not both: either names one of your own pay-ins, else 404 TRANSACTION_NOT_FOUND (another merchant's RRN too). An RRN that is not 1 to 32 letters or digits, or both keys, is a 400 VALIDATION_ERROR naming `rrn`. An acquirer may reuse an RRN after a long while: the newest of your pay-ins with it is answered.",
  })
  @ApiBody({ type: QrisInquiryDto })
  @ApiEnvelope(PayinInquirySchema, { message: 'Query success' })
  @ApiErrors(ErrorCode.TransactionNotFound)
  async inquiry(@Req() req: AuthenticatedRequest, @Body() dto: QrisInquiryDto) {
    const key = inquiryKey(dto);
    const payin =
      'rrn' in key
        ? await this.payins.findByRrn(req.merchant.id, key.rrn)
        : await this.payins.find(req.merchant.id, key.merchantTrxId);
    if (!payin) throw new ApiError(ErrorCode.TransactionNotFound);
    const refunds = await this.refunds.ofPayin(payin.id);
    return new Reply('Query success', presentPayinWithRefunds(payin, req.merchant, new Date(), refunds));
  }

  @Post('sandbox/pay')
  @RequiresScope('payins:write')
  @HttpCode(200)
  @RateLimit('write')
  @ApiOperation({
    operationId: 'sandboxPay',
    summary: 'Sandbox only: a simulated payer pays the code, through the acquirer notification path',
    description:
      'Absent (404 NOT_FOUND) when SANDBOX_MODE is off. The acquirer-notification refusals apply: another amount is 422 AMOUNT_MISMATCH, a paid or failed code 409 PAYIN_ALREADY_FINAL, an expired one 422 QR_EXPIRED.',
  })
  @ApiBody({ type: SandboxPayDto })
  @ApiEnvelope(PayinSchema, { message: 'Sandbox payment sent' })
  @ApiErrors(
    ErrorCode.NotFound,
    ErrorCode.TransactionNotFound,
    ErrorCode.PayinNotFound,
    ErrorCode.PayinAlreadyFinal,
    ErrorCode.AcquirerReferenceConflict,
    ErrorCode.Conflict,
    ErrorCode.AmountMismatch,
    ErrorCode.QrExpired,
    ErrorCode.PaidAtInvalid,
    ErrorCode.BankUnavailable,
  )
  async sandboxPay(@Req() req: AuthenticatedRequest, @Body() dto: SandboxPayDto) {
    if (!this.config.payins.sandbox) throw new NotFoundException();
    const paid = await this.sandbox.pay(req.merchant.id, sandboxPayCommand(dto));
    return new Reply('Sandbox payment sent', presentPayin(paid, req.merchant, new Date()));
  }

  @Post('sandbox/settle')
  @RequiresScope('payins:write')
  @HttpCode(200)
  @RateLimit('write')
  @ApiOperation({
    operationId: 'sandboxSettle',
    summary: 'Sandbox only: settle the paid pay-ins now (pending to available), instead of at T+1 10:00 WIB',
    description:
      'Absent (404 NOT_FOUND) when SANDBOX_MODE is off. So a sandbox payout can be tried at once after a sandbox payment: the ledger moves the net of every paid, recorded pay-in from pending to available within a moment (poll the balance). A pay-in paid a moment ago may not be recorded yet: ask again.',
  })
  @ApiEnvelope(SandboxSettlementSchema, { message: ['Settlement requested', 'Nothing to settle'] })
  @ApiErrors(ErrorCode.NotFound)
  async sandboxSettle(@Req() req: AuthenticatedRequest) {
    if (!this.config.payins.sandbox) throw new NotFoundException();
    // Everything paid up to the merchant's time: a sandbox clock's, when one is ahead.
    const now = await this.clock.now(req.merchant.id);
    const { cutoffAt, planned } = await this.settlements.request(req.merchant.id, undefined, now);
    const requested = planned?.requested ?? false;
    return new Reply(requested ? 'Settlement requested' : 'Nothing to settle', {
      payinCount: requested ? (planned?.payinCount ?? 0) : 0,
      cutoffAt: cutoffAt.toISOString(),
      requested,
    });
  }
}
