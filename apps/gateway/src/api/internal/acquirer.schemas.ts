import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** The `data` of the acquirer's answer, for the operations document only. */
@ApiSchema({ name: 'AcquirerNotificationResult' })
export class AcquirerNotificationResultSchema {
  @ApiProperty({ example: 'QR20261122H8Q3ZK2M9T4B' }) platformTrxId!: string;
  @ApiProperty({ enum: ['pending', 'success', 'failed', 'expired'], example: 'success' }) status!: string;
}
