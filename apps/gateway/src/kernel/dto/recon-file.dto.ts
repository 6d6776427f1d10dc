import { ApiProperty } from '@nestjs/swagger';
import { IsString } from 'class-validator';

/** The day of a recon export (the API's reconFile and the dashboard's recon). */
export class ReconFileDto {
  @ApiProperty({
    example: '2026-11-22',
    description: 'A day in Asia/Jakarta, YYYY-MM-DD, not in the future and not before the merchant account was created',
  })
  @IsString()
  date!: string;
}
