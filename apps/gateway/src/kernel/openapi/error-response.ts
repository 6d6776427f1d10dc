import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ErrorCode } from '@pay/contracts';

@ApiSchema({ name: 'FieldError' })
export class FieldError {
  @ApiProperty({ example: 'merchantTrxId' }) field!: string;
  @ApiProperty({ example: 'merchantTrxId should not be empty' }) message!: string;
}

/** The error envelope, for the OpenAPI document. */
@ApiSchema({ name: 'ErrorResponse' })
export class ErrorResponse {
  @ApiProperty({
    format: 'uuid',
    example: '7d3c1f0e-5b7a-4a43-9d1e-3f0b8c2a9e11',
    description: 'Also sent as the X-Log-Id header; quote it to support',
  })
  logId!: string;
  @ApiProperty({ enum: [false], example: false }) status!: boolean;
  @ApiProperty({ example: 'Token not valid' }) message!: string;
  @ApiProperty({
    enum: ErrorCode,
    enumName: 'ErrorCode',
    example: ErrorCode.TokenNotValid,
    description: 'Stable: branch on it (messages may change)',
  })
  code!: ErrorCode;
  @ApiPropertyOptional({ type: [FieldError], description: 'Validation errors only: every offending field' })
  errors?: FieldError[];
}
