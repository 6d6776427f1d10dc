import { IsAmount } from '@pay/platform';
import { IsIn, IsISO8601, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

/**
 * What the QRIS acquirer sends (signed) when a code is paid, as AcquirerService validates it from
 * the raw body (the documentation of the body is the internal face's AcquirerNotificationDto).
 */
export class AcquirerNotification {
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  acquirerReference!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  platformTrxId!: string;

  @IsAmount()
  amount!: number;

  @IsIn(['success', 'failed'])
  status!: 'success' | 'failed';

  @IsOptional()
  @IsString()
  @MaxLength(32)
  rrn?: string;

  @IsOptional()
  @IsString()
  @MaxLength(40)
  issuer?: string;

  // Strict: 2026-02-30 is refused rather than read as 2 March.
  @IsISO8601({ strict: true, strictSeparator: true })
  paidAt!: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  failureReason?: string;
}
