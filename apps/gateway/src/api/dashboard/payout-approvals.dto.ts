import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

/**
 * A decision on a payout or batch awaiting approval: the password (and TOTP code when on) proved
 * each time, with the same limits as the session's confirmation (a face does not import another's DTOs).
 */
export class PayoutApprovalDecisionDto {
  @IsString()
  @MinLength(1)
  @MaxLength(512)
  password!: string;

  @IsOptional()
  @IsString()
  @MaxLength(16)
  totp?: string;

  @IsOptional()
  @IsString()
  @MaxLength(500)
  note?: string;
}
