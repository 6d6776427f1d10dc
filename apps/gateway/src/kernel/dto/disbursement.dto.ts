import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsAmount, IsNotifyUrl } from '@pay/platform';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';

// The disbursement fields the merchant API and the dashboard share: an account inquiry's, and a
// batch of payouts (issue 44) with its rows, as both faces take them.

export const TRX_ID = /^[\x21-\x7E]+$/; // printable ASCII, no spaces
export const TRX_ID_MESSAGE = '$property must be 1 to 64 printable characters without spaces';

/** The merchant's own transaction id: 1 to 64 printable ASCII characters, unique per merchant. */
export function MerchantTrxId() {
  return applyDecorators(
    ApiProperty({ example: 'INV-2026-0001', maxLength: 64 }),
    IsString(),
    IsNotEmpty(),
    MaxLength(64),
    Matches(TRX_ID, { message: TRX_ID_MESSAGE }),
  );
}

export class AccountInquiryDto {
  @MerchantTrxId()
  merchantTrxId!: string;

  @ApiProperty({
    example: '1234567890',
    description:
      'Bank account number (6-20 digits) or e-wallet mobile number (08…). Sandbox: 0000000404 (0800000404) is not found, 0000000403 (0800000403) blocked, 0000000422 refused at once, 0000000408 times out then succeeds, 0000000500 fails after a while; any other well-formed number is a valid account (docs/merchant-api.md#sandbox)',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(20)
  accountNo!: string;

  @ApiProperty({
    example: 'BCA',
    description: 'Bank or e-wallet code, case-insensitive: the list is GET /api/v1/banks',
  })
  // Codes are letters: `bca` is BCA (what is stored, echoed and compared is the code as listed).
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toUpperCase() : value))
  @IsString()
  @IsNotEmpty()
  @MaxLength(20)
  bankCode!: string;

  @ApiProperty({
    example: 100000,
    minimum: 10_000,
    maximum: 250_000_000,
    multipleOf: 0.01,
    description:
      'Rupiah, at most two decimals; the bounds shown are the defaults of PAYOUT_MIN_AMOUNT and PAYOUT_MAX_AMOUNT',
  })
  @IsAmount()
  amount!: number;
}

/** One row of a batch (issue 44): a transfer's destination and amount; the platform does the inquiry. */
export class BatchRowDto extends AccountInquiryDto {
  @ApiPropertyOptional({
    example: 'BUDI SANTOSO',
    maxLength: 100,
    description:
      "The beneficiary's name as the merchant knows it: when given, a row whose bank holds another name is refused ACCOUNT_NAME_MISMATCH (compared in upper case, letters and digits only). Omitted: the bank's name is taken",
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  accountName?: string;
}

export const BATCH_MAX_ROWS = 1000;

export class DisbursementBatchDto {
  @ApiProperty({
    example: 'PAYROLL-2026-11',
    maxLength: 64,
    description:
      'The idempotency key of the batch, unique per merchant: the same batchId with the same body answers the batch as recorded (nothing new); with another body 409 BATCH_ID_CONFLICT',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  @Matches(TRX_ID, { message: TRX_ID_MESSAGE })
  batchId!: string;

  @ApiPropertyOptional({
    example: 'https://merchant.example/callbacks/disbursement',
    description:
      "Absolute http(s) URL: each row's disbursement.* callback and the batch's disbursement.batch.completed go here. Omitted: no callbacks",
  })
  @IsOptional()
  @IsNotifyUrl()
  notifyUrl?: string;

  @ApiProperty({
    type: [BatchRowDto],
    minItems: 1,
    maxItems: BATCH_MAX_ROWS,
    description:
      'Up to 1,000 rows. Each is checked on its own: a bad row is refused in the answer (code and message, as a single transfer would be) and never fails the others',
  })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(BATCH_MAX_ROWS)
  @IsObject({ each: true, message: 'each of rows must be an object' })
  rows!: Record<string, unknown>[];
}

export class BatchPageQuery {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: 'The page of rows, from 1 (default 1)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  page?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 1000, description: 'Rows per page (default 100)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  pageSize?: number;
}

/** The dashboard's preview: the rows alone */
export class BatchRowsDto {
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(BATCH_MAX_ROWS)
  @IsObject({ each: true, message: 'each of rows must be an object' })
  rows!: Record<string, unknown>[];
}
