import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/**
 * What the QRIS acquirer sends (signed) when a code is paid, for the operations document only:
 * AcquirerService validates the raw body as an AcquirerNotification (the same fields and rules).
 */
export class AcquirerNotificationDto {
  @ApiProperty({
    maxLength: 100,
    example: 'ACQ-20261122-000123',
    description: "The acquirer's id of the payment; the same one again is a duplicate",
  })
  acquirerReference!: string;

  @ApiProperty({ maxLength: 64, example: 'QR20261122H8Q3ZK2M9T4B', description: 'The pay-in paid' })
  platformTrxId!: string;

  @ApiProperty({ example: 50000, description: 'Paid, in Rupiah, at most two decimals' })
  amount!: number;

  @ApiProperty({ enum: ['success', 'failed'], example: 'success' })
  status!: 'success' | 'failed';

  @ApiPropertyOptional({ maxLength: 32, example: '123456789012', description: 'Reference Retrieval Number' })
  rrn?: string;

  @ApiPropertyOptional({ maxLength: 40, example: 'OVO', description: "The payer's bank or e-wallet" })
  issuer?: string;

  @ApiProperty({
    format: 'date-time',
    example: '2026-11-22T12:31:05.000Z',
    description: "Between the code's creation and now (allowing ACQUIRER_CLOCK_SKEW_SECONDS)",
  })
  paidAt!: string;

  @ApiPropertyOptional({ maxLength: 200, example: 'Payment declined by the issuer', description: 'With status failed' })
  failureReason?: string;
}
