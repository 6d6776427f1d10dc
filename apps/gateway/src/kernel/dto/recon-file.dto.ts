import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RECON_FILE_KINDS, type ReconFileKind } from '@pay/persistence';
import { IsIn, IsOptional, IsString } from 'class-validator';

/** The day of a recon export and which file of it (the API's reconFile and the dashboard's recon). */
export class ReconFileDto {
  @ApiProperty({
    example: '2026-11-22',
    description: 'A day in Asia/Jakarta, YYYY-MM-DD, not in the future and not before the merchant account was created',
  })
  @IsString()
  date!: string;

  @ApiPropertyOptional({
    enum: RECON_FILE_KINDS,
    description:
      "Which file of the day (our addition; absent: `payins`, the specification's recon file). `payins`: the pay-ins created that day. `payouts`: the payouts created that day, with fees, total debited, completion time, failureCode and failureReason. `movements`: every balance movement (ledger event) of that day in order, with the balance it left.",
  })
  @IsOptional()
  @IsIn(RECON_FILE_KINDS, { message: `$property must be one of ${RECON_FILE_KINDS.join(', ')}` })
  type?: ReconFileKind;
}
