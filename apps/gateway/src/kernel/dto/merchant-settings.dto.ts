import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { API_SCOPES, type ApiScope } from '@pay/domain';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  MaxLength,
  ValidateIf,
} from 'class-validator';

/** May be absent, but not null: null would reach the merchant row as a value. */
const Optional = () => ValidateIf((_object: object, value: unknown) => value !== undefined);

// Types and sizes only: the rules (ranges, formats, "at least one") are MerchantAdmin's, the same as the CLI's.

/** Fees as operators write them; an absent field is left as it is. */
export class FeesDto {
  /** QRIS fee percentage (0.7 = 0.7 %), at most three decimals */
  @ApiPropertyOptional({ example: 0.7, description: 'QRIS fee percentage (0.7 = 0.7 %), at most three decimals' })
  @Optional()
  @IsNumber()
  payinFeePercent?: number;

  /** QRIS fixed fee in Rupiah */
  @ApiPropertyOptional({ example: 150, description: 'QRIS fixed fee in Rupiah' })
  @Optional()
  @IsNumber()
  payinFeeFixed?: number;

  /** Flat disbursement fee in Rupiah */
  @ApiPropertyOptional({ example: 2500, description: 'Flat disbursement fee in Rupiah' })
  @Optional()
  @IsNumber()
  payoutFee?: number;
}

/** The QRIS identity printed into every code; an absent field is left as it is. */
export class QrisDto {
  @ApiPropertyOptional({ maxLength: 20, example: 'ID1020021181745' })
  @Optional()
  @IsString()
  @MaxLength(20)
  nmid?: string;

  @ApiPropertyOptional({ maxLength: 4, example: '5499' })
  @Optional()
  @IsString()
  @MaxLength(4)
  mcc?: string;

  /** UMI, UKE, UME, UBE or URE */
  @ApiPropertyOptional({ maxLength: 3, example: 'UMI', description: 'UMI, UKE, UME, UBE or URE' })
  @Optional()
  @IsString()
  @MaxLength(3)
  merchantCriteria?: string;

  @ApiPropertyOptional({ maxLength: 100, example: 'JAKARTA' })
  @Optional()
  @IsString()
  @MaxLength(100)
  city?: string;

  @ApiPropertyOptional({ maxLength: 5, example: '10110' })
  @Optional()
  @IsString()
  @MaxLength(5)
  postalCode?: string;
}

/** Settlement schedule: T+delayDays at hour:00 Asia/Jakarta. */
export class SettlementScheduleDto {
  @ApiPropertyOptional({ type: 'integer', example: 1, description: 'T+delayDays' })
  @Optional()
  @IsInt()
  delayDays?: number;

  @ApiPropertyOptional({ type: 'integer', example: 8, description: 'Hour of the day, Asia/Jakarta' })
  @Optional()
  @IsInt()
  hour?: number;
}

/** The pay-in IP allowlist, replaced whole; `enabled`, when given, switches enforcement too. */
export class AllowlistDto {
  @ApiProperty({
    type: [String],
    maxItems: 100,
    example: ['203.0.113.7', '198.51.100.0/24'],
    description: 'IPv4/IPv6 addresses or CIDR ranges; replaces the list',
  })
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  entries!: string[];

  @ApiPropertyOptional({ example: true, description: 'Also switch enforcement' })
  @Optional()
  @IsBoolean()
  enabled?: boolean;
}

/** A merchant's own rate limits; null goes back to the gateway's default, an absent field is left as it is. */
export class RateLimitsDto {
  /** Reads per second */
  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    example: 20,
    description: 'Reads per second; null: the default',
  })
  @IsOptional()
  @IsInt()
  read?: number | null;

  /** Writes per second */
  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    example: 10,
    description: 'Writes per second; null: the default',
  })
  @IsOptional()
  @IsInt()
  write?: number | null;

  /** New recon exports per minute */
  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    example: null,
    description: 'New recon exports per minute; null: the default',
  })
  @IsOptional()
  @IsInt()
  export?: number | null;
}

export class IssueTokenDto {
  /** What the token is for */
  @ApiPropertyOptional({ maxLength: 100, example: 'checkout server', description: 'What the token is for' })
  @Optional()
  @IsString()
  @MaxLength(100)
  label?: string;

  /** What the token may do (docs/access.md); left out: every scope */
  @ApiPropertyOptional({
    type: [String],
    enum: API_SCOPES,
    example: ['balance:read', 'payins:read', 'payins:write'],
    description: 'What the token may do, fixed for its life (docs/access.md); left out: every scope',
  })
  @Optional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(API_SCOPES.length)
  @IsIn(API_SCOPES, { each: true })
  scopes?: ApiScope[];
}

export class RotateWebhookSecretDto {
  /** Keep signing with the old secret too for this long (0 = stop at once); default 24 */
  @ApiPropertyOptional({
    example: 24,
    description: 'Keep signing with the old secret too for this long (0 = stop at once); default 24',
  })
  @Optional()
  @IsNumber()
  graceHours?: number;
}
