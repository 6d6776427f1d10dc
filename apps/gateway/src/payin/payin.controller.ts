import { randomBytes, randomUUID } from 'node:crypto';
import { Body, Controller, HttpCode, Inject, NotFoundException, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ErrorCode } from '@pay/contracts';
import { formatAmountString, parseAmount } from '@pay/domain';
import { PayinRepository } from '@pay/persistence';
import { ApiError, Reply } from '@pay/platform';
import type { AuthenticatedRequest } from '../auth/authenticated-request';
import { MerchantAuthGuard, TOKEN_HEADER } from '../auth/merchant-auth.guard';
import type { GatewayConfig } from '../gateway.config';
import { GATEWAY_CONFIG } from '../gateway.tokens';
import { ErrorResponse } from '../openapi/error-response';
import { RateLimit } from '../rate-limit/rate-limit.decorator';
import { AcquirerService } from './acquirer.service';
import { GenerateQrisDto, QrisInquiryDto, SandboxPayDto } from './dto/payin.dto';
import { presentGenerated, presentPayin } from './payin.presenter';
import { QrisService } from './qris.service';

@ApiTags('Pay-in')
@ApiHeader({ name: TOKEN_HEADER, required: true, description: 'Merchant API token' })
@ApiResponse({ status: 400, type: ErrorResponse, description: 'VALIDATION_ERROR' })
@ApiResponse({ status: 401, type: ErrorResponse, description: 'Token not found | Token not valid | Merchant not active' })
@ApiResponse({ status: 403, type: ErrorResponse, description: 'IP_NOT_ALLOWED' })
@Controller('api/v1/payin/qris')
@UseGuards(MerchantAuthGuard)
export class PayinController {
  constructor(
    private readonly qris: QrisService,
    private readonly payins: PayinRepository,
    private readonly acquirer: AcquirerService,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Post('generate')
  @HttpCode(200)
  @RateLimit('write')
  @ApiOperation({ summary: 'Create a dynamic QRIS code for one payment (our addition to the spec)' })
  @ApiBody({ type: GenerateQrisDto })
  @ApiResponse({ status: 200, description: 'QRIS generated' })
  @ApiResponse({ status: 409, type: ErrorResponse, description: 'DUPLICATE_MERCHANT_TRX_ID' })
  async generate(@Req() req: AuthenticatedRequest, @Body() dto: GenerateQrisDto) {
    const { payin, qrImage } = await this.qris.generate(req.merchant.id, dto);
    return new Reply('QRIS generated', presentGenerated(payin, new Date(), qrImage));
  }

  @Post('inquiry')
  @HttpCode(200)
  @RateLimit('read')
  @ApiOperation({ summary: "Status of one of the merchant's QRIS pay-ins by merchantTrxId (spec 4.5)" })
  @ApiBody({ type: QrisInquiryDto })
  @ApiResponse({ status: 200, description: 'Query success' })
  @ApiResponse({ status: 404, type: ErrorResponse, description: 'TRANSACTION_NOT_FOUND' })
  async inquiry(@Req() req: AuthenticatedRequest, @Body() dto: QrisInquiryDto) {
    const payin = await this.payins.find(req.merchant.id, dto.merchantTrxId);
    if (!payin) throw new ApiError(ErrorCode.TransactionNotFound);
    return new Reply('Query success', presentPayin(payin, req.merchant, new Date()));
  }

  @Post('sandbox/pay')
  @HttpCode(200)
  @RateLimit('write')
  @ApiOperation({ summary: 'Sandbox only: a simulated payer pays the code, through the acquirer notification path' })
  @ApiBody({ type: SandboxPayDto })
  async sandboxPay(@Req() req: AuthenticatedRequest, @Body() dto: SandboxPayDto) {
    if (!this.config.SANDBOX_MODE) throw new NotFoundException();
    const payin = await this.payins.find(req.merchant.id, dto.merchantTrxId);
    if (!payin) throw new ApiError(ErrorCode.TransactionNotFound);
    const rawBody = JSON.stringify({
      acquirerReference: `SBX-${randomUUID()}`,
      platformTrxId: payin.platformTrxId,
      amount: Number(formatAmountString(dto.amount !== undefined ? parseAmount(dto.amount) : payin.amount)),
      status: dto.status ?? 'success',
      rrn: [...randomBytes(12)].map((b) => String(b % 10)).join(''),
      issuer: dto.issuer ?? 'DANA',
      paidAt: new Date().toISOString(),
      ...(dto.status === 'failed' ? { failureReason: 'Payer cancelled the payment' } : {}),
    });
    const { payin: paid } = await this.acquirer.receive(rawBody, this.acquirer.sign(rawBody));
    return new Reply('Sandbox payment sent', presentPayin(paid, req.merchant, new Date()));
  }
}
