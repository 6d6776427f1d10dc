import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsNumber, Max, Min, ValidateIf } from 'class-validator';

/** The bounds of an approval's expiry (docs/payout-approvals.md); the database holds them too. */
const TTL_MIN = 600;
const TTL_MAX = 604_800;

/** A merchant's approval settings (docs/payout-approvals.md), as the dashboard's owner and operators set them. */
export class PayoutApprovalSettingsDto {
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 10000000,
    description: 'Payouts above this amount (Rupiah) wait for approval; null: none do',
  })
  @ValidateIf((_o: object, v: unknown) => v !== null)
  @IsNumber({ maxDecimalPlaces: 2, allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1_000_000_000_000)
  threshold!: number | null;

  @ApiProperty({
    example: 86400,
    minimum: TTL_MIN,
    maximum: TTL_MAX,
    description: 'How long a payout waits for approval before it expires, in seconds',
  })
  @IsInt()
  @Min(TTL_MIN)
  @Max(TTL_MAX)
  ttlSeconds!: number;

  @ApiProperty({ example: true, description: 'Every batch waits for approval (one decision for all its rows)' })
  @IsBoolean()
  batches!: boolean;
}
