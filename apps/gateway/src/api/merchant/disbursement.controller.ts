import { Body, Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBody, ApiOperation } from '@nestjs/swagger';
import { ErrorCode } from '@pay/contracts';
import { DisbursementRepository } from '@pay/persistence';
import { ApiError, Reply } from '@pay/platform';
import type { AuthenticatedRequest } from '../../kernel/auth/merchant/authenticated-request';
import { MerchantAuthGuard } from '../../kernel/auth/merchant/merchant-auth.guard';
import { RequiresScope } from '../../kernel/auth/merchant/requires-scope';
import { TokenCheckedByStatement } from '../../kernel/auth/merchant/token-checked-by-statement';
import { ApiEnvelope, ApiErrors, ApiMerchant } from '../../kernel/openapi/api-envelope.decorator';
import { AccountInquiryResultSchema, DisbursementSchema, TransferResultSchema } from './openapi/schemas';
import { RateLimit } from '../../kernel/rate-limit/rate-limit.decorator';
import { AccountInquiryService } from '../../services/disbursement/account-inquiry.service';
import { presentDisbursement, presentInquiry, presentTransfer } from '../../kernel/presenters/disbursement.presenter';
import {
  AccountInquiryDto,
  accountInquiryCommand,
  DisbursementInquiryDto,
  TransferDto,
  transferCommand,
} from './dto/disbursement.dto';
import { TransferService } from '../../services/disbursement/transfer.service';

@ApiMerchant('Disbursement')
@Controller('api/v1/disbursement')
@UseGuards(MerchantAuthGuard)
export class DisbursementController {
  constructor(
    private readonly accountInquiry: AccountInquiryService,
    private readonly transfers: TransferService,
    private readonly disbursements: DisbursementRepository,
  ) {}

  @Post('account-inquiry')
  @RequiresScope('payouts:write')
  @HttpCode(200)
  @RateLimit('write')
  @TokenCheckedByStatement()
  @ApiOperation({
    operationId: 'accountInquiry',
    summary: 'Validate the destination account and quote the fee',
  })
  @ApiBody({ type: AccountInquiryDto })
  @ApiEnvelope(AccountInquiryResultSchema, { message: 'Inquiry success' })
  @ApiErrors(
    ErrorCode.UnknownBankCode,
    ErrorCode.DuplicateMerchantTrxId,
    ErrorCode.Conflict,
    ErrorCode.AccountNotFound,
    ErrorCode.AccountBlocked,
    ErrorCode.BankUnavailable,
  )
  async inquire(@Req() req: AuthenticatedRequest, @Body() dto: AccountInquiryDto) {
    return new Reply(
      'Inquiry success',
      presentInquiry(await this.accountInquiry.inquire(req.merchant, accountInquiryCommand(dto))),
    );
  }

  @Post('transfer')
  @RequiresScope('payouts:write')
  @HttpCode(200)
  @RateLimit('write')
  @TokenCheckedByStatement()
  @ApiOperation({
    operationId: 'transfer',
    summary: 'Submit the payout for an account inquiry; the final status goes to notifyUrl',
    description: 'The same request again never pays twice: it answers the transfer as it stands.',
  })
  @ApiBody({ type: TransferDto })
  @ApiEnvelope(TransferResultSchema, { message: 'Request diterima, akan segera diproses' })
  @ApiErrors(
    ErrorCode.NotifyUrlNotAllowed,
    ErrorCode.InquiryNotFound,
    ErrorCode.DuplicateMerchantTrxId,
    ErrorCode.InquiryAlreadyUsed,
    ErrorCode.Conflict,
    ErrorCode.InquiryExpired,
    ErrorCode.InquiryMismatch,
    ErrorCode.InsufficientBalance,
    ErrorCode.TransferProcessing,
  )
  async transfer(@Req() req: AuthenticatedRequest, @Body() dto: TransferDto) {
    return new Reply(
      'Request diterima, akan segera diproses',
      presentTransfer(await this.transfers.transfer(req.merchant, transferCommand(dto))),
    );
  }

  @Post('inquiry')
  @RequiresScope('payouts:read')
  @HttpCode(200)
  @RateLimit('read')
  @ApiOperation({
    operationId: 'disbursementInquiry',
    summary: "Status of one of the merchant's disbursements by merchantTrxId",
  })
  @ApiBody({ type: DisbursementInquiryDto })
  @ApiEnvelope(DisbursementSchema, { message: 'Query success' })
  @ApiErrors(ErrorCode.TransactionNotFound)
  async inquiry(@Req() req: AuthenticatedRequest, @Body() dto: DisbursementInquiryDto) {
    const d = await this.disbursements.findLive(req.merchant.id, dto.merchantTrxId);
    if (!d) throw new ApiError(ErrorCode.TransactionNotFound);
    return new Reply('Query success', presentDisbursement(d, req.merchant));
  }
}
