import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ErrorCode } from '@pay/contracts';

class FieldError {
  @ApiProperty({ example: 'merchantTrxId' }) field!: string;
  @ApiProperty({ example: 'merchantTrxId should not be empty' }) message!: string;
}

/** The error envelope, for the OpenAPI document. */
export class ErrorResponse {
  @ApiProperty({ example: '7d3c1f0e-5b7a-4a43-9d1e-3f0b8c2a9e11' }) logId!: string;
  @ApiProperty({ example: false }) status!: boolean;
  @ApiProperty({ example: 'Token not valid' }) message!: string;
  @ApiProperty({ enum: ErrorCode, example: ErrorCode.TokenNotValid }) code!: ErrorCode;
  @ApiPropertyOptional({ type: [FieldError], description: 'Validation errors only: every offending field' }) errors?: FieldError[];
}
