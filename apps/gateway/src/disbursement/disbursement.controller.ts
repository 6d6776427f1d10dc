import { Body, Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ErrorCode } from '@pay/contracts';
import { DisbursementRepository } from '@pay/persistence';
import { ApiError, Reply } from '@pay/platform';
import type { AuthenticatedRequest } from '../auth/authenticated-request';
import { MerchantAuthGuard, TOKEN_HEADER } from '../auth/merchant-auth.guard';
import { ErrorResponse } from '../openapi/error-response';
import { RateLimit } from '../rate-limit/rate-limit.decorator';
import { AccountInquiryService } from './account-inquiry.service';
import { presentDisbursement, presentInquiry, presentTransfer } from './disbursement.presenter';
import { AccountInquiryDto, DisbursementInquiryDto, TransferDto } from './dto/disbursement.dto';
import { TransferService } from './transfer.service';

@ApiTags('Disbursement')
@ApiHeader({ name: TOKEN_HEADER, required: true, description: 'Merchant API token' })
@ApiResponse({ status: 400, type: ErrorResponse, description: 'VALIDATION_ERROR, UNKNOWN_BANK_CODE' })
@ApiResponse({ status: 401, type: ErrorResponse, description: 'Token not found | Token not valid | Merchant not active' })
@ApiResponse({ status: 403, type: ErrorResponse, description: 'IP_NOT_ALLOWED' })
@Controller('api/v1/disbursement')
@UseGuards(MerchantAuthGuard)
export class DisbursementController {
  constructor(
    private readonly accountInquiry: AccountInquiryService,
    private readonly transfers: TransferService,
    private readonly disbursements: DisbursementRepository,
  ) {}

  @Post('account-inquiry')
  @HttpCode(200)
  @RateLimit('write')
  @ApiOperation({ summary: 'Validate the destination account and quote the fee (spec 4.2)' })
  @ApiBody({ type: AccountInquiryDto })
  @ApiResponse({ status: 200, description: 'Inquiry success' })
  @ApiResponse({ status: 409, type: ErrorResponse, description: 'DUPLICATE_MERCHANT_TRX_ID' })
  @ApiResponse({ status: 422, type: ErrorResponse, description: 'ACCOUNT_NOT_FOUND, ACCOUNT_BLOCKED' })
  async inquire(@Req() req: AuthenticatedRequest, @Body() dto: AccountInquiryDto) {
    return new Reply('Inquiry success', presentInquiry(await this.accountInquiry.inquire(req.merchant, dto)));
  }

  @Post('transfer')
  @HttpCode(200)
  @RateLimit('write')
  @ApiOperation({ summary: 'Submit the payout for an account inquiry (spec 4.3); the final status goes to notifyUrl' })
  @ApiBody({ type: TransferDto })
  @ApiResponse({ status: 200, description: 'Request diterima, akan segera diproses' })
  @ApiResponse({ status: 404, type: ErrorResponse, description: 'INQUIRY_NOT_FOUND' })
  @ApiResponse({ status: 409, type: ErrorResponse, description: 'DUPLICATE_MERCHANT_TRX_ID, INQUIRY_ALREADY_USED' })
  @ApiResponse({ status: 422, type: ErrorResponse, description: 'INQUIRY_EXPIRED, INQUIRY_MISMATCH, INSUFFICIENT_BALANCE' })
  @ApiResponse({ status: 503, type: ErrorResponse, description: 'TRANSFER_PROCESSING: send the same request again' })
  async transfer(@Req() req: AuthenticatedRequest, @Body() dto: TransferDto) {
    return new Reply('Request diterima, akan segera diproses', presentTransfer(await this.transfers.transfer(req.merchant, dto)));
  }

  @Post('inquiry')
  @HttpCode(200)
  @RateLimit('read')
  @ApiOperation({ summary: "Status of one of the merchant's disbursements by merchantTrxId (spec 4.4)" })
  @ApiBody({ type: DisbursementInquiryDto })
  @ApiResponse({ status: 200, description: 'Query success' })
  @ApiResponse({ status: 404, type: ErrorResponse, description: 'TRANSACTION_NOT_FOUND' })
  async inquiry(@Req() req: AuthenticatedRequest, @Body() dto: DisbursementInquiryDto) {
    const d = await this.disbursements.findLive(req.merchant.id, dto.merchantTrxId);
    if (!d) throw new ApiError(ErrorCode.TransactionNotFound);
    return new Reply('Query success', presentDisbursement(d, req.merchant));
  }
}
