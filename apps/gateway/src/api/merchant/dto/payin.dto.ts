import { applyDecorators } from '@nestjs/common';
import { ErrorCode } from '@pay/contracts';
import { ApiError, IsAmount, IsNotifyUrl } from '@pay/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import type { GenerateQrisCommand } from '../../../services/payin/qris.service';
import type { SandboxPayCommand } from '../../../services/payin/sandbox-pay.service';

function MerchantTrxId() {
  return applyDecorators(
    ApiProperty({ example: 'ORDER-2026-0001', maxLength: 64 }),
    IsString(),
    IsNotEmpty(),
    MaxLength(64),
    Matches(/^[\x21-\x7E]+$/, { message: '$property must be 1 to 64 printable characters without spaces' }),
  );
}

export class GenerateQrisDto {
  @MerchantTrxId()
  merchantTrxId!: string;

  @ApiProperty({
    example: 50000,
    minimum: 1000,
    maximum: 10_000_000,
    multipleOf: 0.01,
    description:
      'Rupiah, at most two decimals; the bounds shown are the defaults of PAYIN_MIN_AMOUNT and PAYIN_MAX_AMOUNT',
  })
  @IsAmount()
  amount!: number;

  @ApiPropertyOptional({
    type: 'integer',
    example: 900,
    minimum: 60,
    maximum: 86_400,
    description:
      'Validity in seconds; absent: QRIS_EXPIRY_DEFAULT_SECONDS (900). The maximum shown is the default of QRIS_EXPIRY_MAX_SECONDS',
  })
  @IsOptional()
  @IsInt()
  @Min(60)
  expirySeconds?: number;

  @ApiPropertyOptional({ example: false, description: 'Also return the QR code as a PNG data URL' })
  @IsOptional()
  @IsBoolean()
  withImage?: boolean;

  @ApiPropertyOptional({
    example: 'https://merchant.example/callbacks/payin',
    description: "Absolute http(s) URL for this pay-in's callbacks (default: the merchant's pay-in callback URL)",
  })
  @IsOptional()
  @IsNotifyUrl()
  notifyUrl?: string;
}

/** The pay-in inquiry: by the merchant's id of the pay-in (spec 4.5), or by the RRN on the payer's receipt. */
export class QrisInquiryDto {
  @ApiPropertyOptional({
    example: 'ORDER-2026-0001',
    maxLength: 64,
    description: 'The pay-in by your own id (spec 4.5). Required unless `rrn` is sent; never both',
  })
  @ValidateIf((o: QrisInquiryDto) => o.rrn === undefined || o.merchantTrxId !== undefined)
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  @Matches(/^[\x21-\x7E]+$/, { message: '$property must be 1 to 64 printable characters without spaces' })
  merchantTrxId?: string;

  @ApiPropertyOptional({
    example: '612345678901',
    maxLength: 32,
    pattern: '^[0-9A-Za-z]{1,32}$',
    description:
      "The pay-in by the Reference Retrieval Number on the payer's receipt (our addition), instead of merchantTrxId: one of your paid pay-ins (the newest, should the acquirer have reused it)",
  })
  @IsOptional()
  @IsString()
  @Matches(/^[0-9A-Za-z]{1,32}$/, { message: '$property must be 1 to 32 letters or digits, as the receipt shows it' })
  rrn?: string;
}

export class SandboxPayDto {
  @MerchantTrxId()
  merchantTrxId!: string;

  @ApiPropertyOptional({
    description: 'Amount the simulated payer pays (default: the QRIS amount; another value simulates a mismatch)',
  })
  @IsOptional()
  @IsAmount()
  amount?: number;

  @ApiPropertyOptional({ enum: ['success', 'failed'], description: 'How the payment ends; absent: success' })
  @IsOptional()
  @IsIn(['success', 'failed'])
  status?: 'success' | 'failed';

  @ApiPropertyOptional({ example: 'DANA', description: "The payer's bank or e-wallet" })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  issuer?: string;
}

export const generateQrisCommand = (dto: GenerateQrisDto): GenerateQrisCommand => ({
  merchantTrxId: dto.merchantTrxId,
  amount: dto.amount,
  expirySeconds: dto.expirySeconds,
  withImage: dto.withImage,
  notifyUrl: dto.notifyUrl,
});

export const sandboxPayCommand = (dto: SandboxPayDto): SandboxPayCommand => ({
  merchantTrxId: dto.merchantTrxId,
  amount: dto.amount,
  status: dto.status,
  issuer: dto.issuer,
});

/** POST /api/v1/payin/refund (issue 44) */
export class PayinRefundDto {
  @MerchantTrxId()
  merchantTrxId!: string;

  @ApiProperty({
    example: 'RFD-2026-0001',
    maxLength: 64,
    description:
      "The merchant's id of the refund, its idempotency key: the same body again answers the same refund; another body is 409 REFUND_ID_CONFLICT",
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  @Matches(/^[\x21-\x7E]+$/, { message: '$property must be 1 to 64 printable characters without spaces' })
  refundId!: string;

  @ApiProperty({
    example: 25000,
    multipleOf: 0.01,
    description:
      'Rupiah, at most two decimals, more than 0: the whole pay-in or part of it; all refunds of a pay-in (but failed ones) together at most its amount',
  })
  @IsAmount()
  amount!: number;

  @ApiPropertyOptional({ example: 'Customer returned the goods', maxLength: 256 })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  reason?: string;
}

/** Which pay-in an inquiry names: by merchantTrxId or by rrn; both at once is a 400 naming them. */
export function inquiryKey(dto: QrisInquiryDto): { rrn: string } | { merchantTrxId: string } {
  if (dto.rrn !== undefined && dto.merchantTrxId !== undefined) {
    const message = 'send merchantTrxId or rrn, not both';
    throw new ApiError(ErrorCode.ValidationError, `rrn: ${message}`, [{ field: 'rrn', message }]);
  }
  return dto.rrn !== undefined ? { rrn: dto.rrn } : { merchantTrxId: dto.merchantTrxId as string };
}
