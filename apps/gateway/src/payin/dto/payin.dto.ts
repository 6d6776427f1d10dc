import { applyDecorators } from '@nestjs/common';
import { IsAmount, IsNotifyUrl } from '@pay/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
} from 'class-validator';

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

  @ApiProperty({ example: 50000, description: 'Rupiah, at most two decimals' })
  @IsAmount()
  amount!: number;

  @ApiPropertyOptional({ example: 900, description: 'Validity in seconds (default and maximum are settings)' })
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

export class QrisInquiryDto {
  @MerchantTrxId()
  merchantTrxId!: string;
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

  @ApiPropertyOptional({ enum: ['success', 'failed'], default: 'success' })
  @IsOptional()
  @IsIn(['success', 'failed'])
  status?: 'success' | 'failed';

  @ApiPropertyOptional({ example: 'DANA', description: "The payer's bank or e-wallet" })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  issuer?: string;
}

/** What the QRIS acquirer sends (signed) when a code is paid. */
export class AcquirerNotificationDto {
  @ApiProperty({
    maxLength: 100,
    example: 'ACQ-20261122-000123',
    description: "The acquirer's id of the payment; the same one again is a duplicate",
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  acquirerReference!: string;

  @ApiProperty({ maxLength: 64, example: 'QR20261122H8Q3ZK2M9T4B', description: 'The pay-in paid' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  platformTrxId!: string;

  @ApiProperty({ example: 50000, description: 'Paid, in Rupiah, at most two decimals' })
  @IsAmount()
  amount!: number;

  @ApiProperty({ enum: ['success', 'failed'], example: 'success' })
  @IsIn(['success', 'failed'])
  status!: 'success' | 'failed';

  @ApiPropertyOptional({ maxLength: 32, example: '123456789012', description: 'Reference Retrieval Number' })
  @IsOptional()
  @IsString()
  @MaxLength(32)
  rrn?: string;

  @ApiPropertyOptional({ maxLength: 40, example: 'OVO', description: "The payer's bank or e-wallet" })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  issuer?: string;

  // Strict: 2026-02-30 is refused rather than read as 2 March.
  @ApiProperty({
    format: 'date-time',
    example: '2026-11-22T12:31:05.000Z',
    description: "Between the code's creation and now (allowing ACQUIRER_CLOCK_SKEW_SECONDS)",
  })
  @IsISO8601({ strict: true, strictSeparator: true })
  paidAt!: string;

  @ApiPropertyOptional({ maxLength: 200, example: 'Payment declined by the issuer', description: 'With status failed' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  failureReason?: string;
}
