import { IsAmount } from '@pay/platform';
import { IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

/** A QRIS code made from the dashboard; without a merchantTrxId, one is made up (DASH-...). */
export class CreateDashboardPayinDto {
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  @Matches(/^[\x21-\x7E]+$/, { message: '$property must be 1 to 64 printable characters without spaces' })
  merchantTrxId?: string;

  @IsAmount()
  amount!: number;
}

/** The sandbox payer's outcome (default success). */
export class SimulatePayinDto {
  @IsOptional()
  @IsIn(['success', 'failed'])
  status?: 'success' | 'failed';
}

/** A refund of a paid pay-in from the dashboard (issue 44); without a refundId, one is made up (DASH-RF-...). */
export class RefundDashboardPayinDto {
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  @Matches(/^[\x21-\x7E]+$/, { message: '$property must be 1 to 64 printable characters without spaces' })
  refundId?: string;

  @IsAmount()
  amount!: number;

  @IsOptional()
  @IsString()
  @MaxLength(256)
  reason?: string;
}
