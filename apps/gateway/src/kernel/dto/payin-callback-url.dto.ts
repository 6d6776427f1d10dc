import { ApiProperty } from '@nestjs/swagger';
import { IsNotifyUrl } from '@pay/platform';
import { ValidateIf } from 'class-validator';

/** The merchant's default pay-in callback URL (ops API and merchant dashboard). */
export class PayinCallbackUrlDto {
  /** The default pay-in callback URL; null clears it */
  @ApiProperty({
    type: String,
    nullable: true,
    format: 'uri',
    example: 'https://merchant.example/callbacks/payin',
    description: 'Absolute http(s) URL (not a private address); null clears it',
  })
  @ValidateIf((o: PayinCallbackUrlDto) => o.url !== null)
  @IsNotifyUrl('url')
  url!: string | null;
}
