import { ApiProperty, type ApiPropertyOptions, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { EventSequence } from './schemas';

/** Batch payouts (issue 44): the `data` of the batch answers, for the OpenAPI document only (batch.presenter builds them). */

const AMOUNT = 'Rupiah, at most two decimals';
const ROW_STATUS = ['checking', 'pending', 'success', 'failed', 'refused', 'reversed'];

@ApiSchema({ name: 'BatchRowResult' })
export class BatchRowResultSchema {
  @ApiProperty({ example: 1, description: "The row's position in rows, from 1" }) rowNo!: number;
  @ApiProperty({ example: 'PAYROLL-0001' }) merchantTrxId!: string;
  @ApiProperty({
    enum: ['accepted', 'refused'],
    description: 'accepted: recorded, to be name-checked and paid (its outcome: GET the batch); refused: never sent',
  })
  result!: string;
  @ApiPropertyOptional({ example: 'UNKNOWN_BANK_CODE', description: 'Refused: why, as a single transfer would say' })
  code?: string;
  @ApiPropertyOptional({ example: 'bankCode: unknown bank or e-wallet code "XYZ"; ...' }) message?: string;
}

@ApiSchema({ name: 'BatchSubmission' })
export class BatchSubmissionSchema {
  @ApiProperty({ example: 'PAYROLL-2026-11' }) batchId!: string;
  @ApiProperty({ example: 1000 }) rowCount!: number;
  @ApiProperty({ example: 990 }) accepted!: number;
  @ApiProperty({ example: 10 }) refused!: number;
  @ApiProperty({ type: [BatchRowResultSchema] }) rows!: BatchRowResultSchema[];
}

@ApiSchema({ name: 'BatchCounts' })
export class BatchCountsSchema {
  @ApiProperty({ description: 'Waiting for the name check (the bank away: retried)' }) checking!: number;
  @ApiProperty({ description: 'Debited, being sent' }) pending!: number;
  @ApiProperty() success!: number;
  @ApiProperty({ description: 'Sent and failed at the bank: amount and fee back in available' }) failed!: number;
  @ApiProperty({ description: 'Never sent: at submission, at the name check, or INSUFFICIENT_BALANCE' })
  refused!: number;
  @ApiProperty({ description: 'Successful, then returned by the bank' }) reversed!: number;
}

@ApiSchema({ name: 'BatchTotals' })
export class BatchTotalsSchema {
  @ApiProperty({ example: 99000000, description: 'Sum of the rows accepted at submission. ' + AMOUNT })
  acceptedAmount!: number;
  @ApiProperty({ example: 99000000, description: 'Sum of the successful rows. ' + AMOUNT }) successAmount!: number;
  @ApiProperty({ example: 2475000, description: 'Their fees. ' + AMOUNT }) successFee!: number;
  @ApiProperty({ example: 101475000, description: 'successAmount + successFee: what the batch took from the balance' })
  successTotal!: number;
}

@ApiSchema({ name: 'BatchRow' })
export class BatchRowSchema {
  @ApiProperty({ example: 1 }) rowNo!: number;
  @ApiProperty({ example: 'PAYROLL-0001' }) merchantTrxId!: string;
  @ApiProperty({ example: 'BCA' }) bankCode!: string;
  @ApiProperty({ example: '1234567890' }) accountNo!: string;
  @ApiProperty({ example: 'BUDI SANTOSO', nullable: true, type: String, description: "The bank's name once checked" })
  accountName!: string | null;
  @ApiProperty({ example: 100000, nullable: true, type: Number, description: AMOUNT }) amount!: number | null;
  @ApiProperty({ enum: ROW_STATUS }) status!: string;
  @ApiProperty({
    nullable: true,
    type: String,
    description: "The row's disbursement (inquiry by merchantTrxId works too)",
  })
  platformTrxId!: string | null;
  @ApiProperty({ nullable: true, type: Number, description: 'The flat fee quoted. ' + AMOUNT }) fee!: number | null;
  @ApiProperty({ nullable: true, type: String, example: 'ACCOUNT_NAME_MISMATCH' }) failureCode!: string | null;
  @ApiProperty({ nullable: true, type: String }) failureMessage!: string | null;
}

@ApiSchema({ name: 'BatchPage' })
export class BatchPageSchema {
  @ApiProperty({ example: 1 }) page!: number;
  @ApiProperty({ example: 100 }) pageSize!: number;
  @ApiProperty({ example: 1000 }) totalRows!: number;
}

/** The batch's approval: inline, not a named schema, so that `nullable` holds (OpenAPI 3.0 ignores it beside a $ref). */
const BATCH_APPROVAL: ApiPropertyOptions = {
  type: 'object',
  nullable: true,
  required: ['status', 'expiresAt'],
  properties: {
    status: {
      type: 'string',
      enum: ['awaiting', 'approved', 'rejected', 'expired'],
      description:
        'awaiting: no row is sent until another user of your dashboard approves the batch; rejected or expired: its rows fail (APPROVAL_REJECTED / APPROVAL_EXPIRED) and are refunded',
    },
    expiresAt: { type: 'string', format: 'date-time', description: 'When an approval never given expires' },
  },
  description: 'Only when you require every batch to be approved (docs/payout-approvals.md); null otherwise',
};

@ApiSchema({ name: 'Batch' })
export class BatchSchema {
  @ApiProperty({ example: 'PAYROLL-2026-11' }) batchId!: string;
  @ApiProperty({ enum: ['processing', 'completed'], description: 'completed: every row is final' }) status!: string;
  @ApiProperty({ nullable: true, type: String }) notifyUrl!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) completedAt!: string | null;
  @ApiProperty({ example: 1000 }) rowCount!: number;
  @ApiProperty({ example: 990 }) acceptedCount!: number;
  @ApiProperty(BATCH_APPROVAL)
  approval!: { status: string; expiresAt: string } | null;
  @ApiProperty({ type: BatchCountsSchema }) counts!: BatchCountsSchema;
  @ApiProperty({ type: BatchTotalsSchema }) totals!: BatchTotalsSchema;
  @ApiProperty({ type: BatchPageSchema }) page!: BatchPageSchema;
  @ApiProperty({ type: [BatchRowSchema] }) rows!: BatchRowSchema[];
}

@ApiSchema({ name: 'BatchCompletedCounts' })
export class BatchCompletedCountsSchema {
  @ApiProperty({ example: 990 }) success!: number;
  @ApiProperty({ example: 0 }) failed!: number;
  @ApiProperty({ example: 10, description: 'At submission, at the name check, or INSUFFICIENT_BALANCE' })
  refused!: number;
  @ApiProperty({ example: 0 }) reversed!: number;
}

@ApiSchema({ name: 'BatchCompletedTotals' })
export class BatchCompletedTotalsSchema {
  @ApiProperty({ example: 9900000, description: 'Sum of the successful rows. ' + AMOUNT }) amount!: number;
  @ApiProperty({ example: 2475000, description: 'Their fees. ' + AMOUNT }) fee!: number;
  @ApiProperty({ example: 12375000, description: 'amount + fee: what the batch took from the balance' })
  totalAmount!: number;
}

@ApiSchema({ name: 'BatchCompletedCallbackData' })
export class BatchCompletedCallbackDataSchema {
  @ApiProperty({ example: 12 }) idMerchant!: number;
  @ApiProperty({ example: 'Toko Sejahtera' }) merchantName!: string;
  @ApiProperty({ example: 'PAYROLL-2026-11' }) batchId!: string;
  @ApiProperty({ enum: ['completed'] }) status!: string;
  @ApiProperty({ example: 1000 }) rowCount!: number;
  @ApiProperty({ example: 996, description: 'Rows accepted at submission' }) acceptedCount!: number;
  @ApiProperty({ type: BatchCompletedCountsSchema }) counts!: BatchCompletedCountsSchema;
  @ApiProperty({ type: BatchCompletedTotalsSchema }) totals!: BatchCompletedTotalsSchema;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) completedAt!: string;
}

/** What is POSTed to the batch's notifyUrl once every row is final (issue 44). */
@ApiSchema({ name: 'BatchCompletedCallback' })
export class BatchCompletedCallbackSchema {
  @ApiProperty({
    example: 'disbursement.batch.3f1b6c2e-8d7a-4b1e-9f2a-0c5d6e7f8a9b.completed',
    description: 'One per batch, stable across retries and resends: de-duplicate on it',
  })
  id!: string;
  @ApiProperty({ enum: ['disbursement.batch.completed'] }) type!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @EventSequence() sequence!: number;
  @ApiProperty({ type: BatchCompletedCallbackDataSchema }) data!: BatchCompletedCallbackDataSchema;
}
