import { ArrayMaxSize, IsArray, IsBoolean, IsInt, IsNumber, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';

/** May be absent, but not null: null would reach the merchant row as a value. */
const Optional = () => ValidateIf((_object: object, value: unknown) => value !== undefined);

// Types and sizes only: the rules (ranges, formats, "at least one") are MerchantAdmin's, the same as the CLI's.

/** Fees as operators write them; an absent field is left as it is. */
export class FeesDto {
  /** QRIS fee percentage (0.7 = 0.7 %), at most three decimals */
  @Optional()
  @IsNumber()
  payinFeePercent?: number;

  /** QRIS fixed fee in Rupiah */
  @Optional()
  @IsNumber()
  payinFeeFixed?: number;

  /** Flat disbursement fee in Rupiah */
  @Optional()
  @IsNumber()
  payoutFee?: number;
}

/** The QRIS identity printed into every code; an absent field is left as it is. */
export class QrisDto {
  @Optional()
  @IsString()
  @MaxLength(20)
  nmid?: string;

  @Optional()
  @IsString()
  @MaxLength(4)
  mcc?: string;

  /** UMI, UKE, UME, UBE or URE */
  @Optional()
  @IsString()
  @MaxLength(3)
  merchantCriteria?: string;

  @Optional()
  @IsString()
  @MaxLength(100)
  city?: string;

  @Optional()
  @IsString()
  @MaxLength(5)
  postalCode?: string;
}

/** Settlement schedule: T+delayDays at hour:00 Asia/Jakarta. */
export class SettlementScheduleDto {
  @Optional()
  @IsInt()
  delayDays?: number;

  @Optional()
  @IsInt()
  hour?: number;
}

/** The pay-in IP allowlist, replaced whole; `enabled`, when given, switches enforcement too. */
export class AllowlistDto {
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  entries!: string[];

  @Optional()
  @IsBoolean()
  enabled?: boolean;
}

/** A merchant's own rate limits; null goes back to the gateway's default, an absent field is left as it is. */
export class RateLimitsDto {
  /** Reads per second */
  @IsOptional()
  @IsInt()
  read?: number | null;

  /** Writes per second */
  @IsOptional()
  @IsInt()
  write?: number | null;

  /** New recon exports per minute */
  @IsOptional()
  @IsInt()
  export?: number | null;
}

export class IssueTokenDto {
  /** What the token is for */
  @Optional()
  @IsString()
  @MaxLength(100)
  label?: string;
}

export class RotateWebhookSecretDto {
  /** Keep signing with the old secret too for this long (0 = stop at once); default 24 */
  @Optional()
  @IsNumber()
  graceHours?: number;
}
