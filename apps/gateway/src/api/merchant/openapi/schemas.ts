import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { PAYOUT_FAILURE_TEXT, PayoutFailureCode } from '@pay/domain';

/**
 * The `data` of each merchant answer, for the OpenAPI document only (the presenters build the
 * values). Field names and meanings follow the spec sections named on each class.
 */

const AMOUNT = 'Rupiah, at most two decimals';

/** Every callback's place in the merchant's event log (GET /api/v1/events): 1, 2, 3... per merchant, no gap. */
export const EventSequence = () =>
  ApiProperty({
    type: 'integer',
    minimum: 1,
    example: 42,
    description:
      "The event's number in your event log (GET /api/v1/events): 1, 2, 3... per merchant with no gap; the same on every retry and resend",
  });

/** Spec 2.2 */
@ApiSchema({ name: 'Fee' })
export class FeeSchema {
  @ApiProperty({ example: 2500, description: 'Fee charged, or to be charged, to the merchant. ' + AMOUNT })
  amount!: number;
  @ApiProperty({ example: 0, description: 'Percent rate (0.7 means 0.7 %); always 0 for disbursements' })
  percentage!: number;
  @ApiProperty({ example: 2500, description: 'Fixed fee component. ' + AMOUNT }) fixed!: number;
}

/** Spec 2.3 */
@ApiSchema({ name: 'Balance' })
export class BalanceSchema {
  @ApiProperty({ example: 150000, description: 'Settled balance usable for payouts. ' + AMOUNT }) available!: number;
  @ApiProperty({
    example: 49500,
    description: 'Net (amount minus fee) of successful pay-ins not yet settled. ' + AMOUNT,
  })
  pending!: number;
}

@ApiSchema({ name: 'BalanceData' })
export class BalanceDataSchema {
  @ApiProperty({ type: BalanceSchema }) balance!: BalanceSchema;
}

/** What the sandbox's settle-now requested */
@ApiSchema({ name: 'SandboxSettlement' })
export class SandboxSettlementSchema {
  @ApiProperty({ example: 12, description: 'Paid pay-ins it settles (0: nothing was waiting)' }) payinCount!: number;
  @ApiProperty({
    format: 'date-time',
    example: '2026-11-22T01:00:00.000Z',
    description: 'Pay-ins recorded before this are settled',
  })
  cutoffAt!: string;
  @ApiProperty({
    example: true,
    description: 'true: the ledger moves their net from pending to available in a moment; false: nothing to settle',
  })
  requested!: boolean;
}

/** A code payouts can go to (GET /api/v1/banks) */
@ApiSchema({ name: 'Bank' })
export class BankSchema {
  @ApiProperty({ example: 'BCA', description: 'What bankCode takes' }) code!: string;
  @ApiProperty({ example: 'Bank Central Asia' }) name!: string;
  @ApiProperty({
    enum: ['bank', 'ewallet'],
    example: 'bank',
    description: 'An e-wallet account is a mobile number (08...)',
  })
  kind!: string;
}

/** Spec 2.5 */
@ApiSchema({ name: 'AccountInquiryResult' })
export class AccountInquiryResultSchema {
  @ApiProperty({ example: 'INV-2026-0001' }) merchantTrxId!: string;
  @ApiProperty({ example: 'DSB20261122K3J9X2M4Q7PA', description: 'Send it back in the transfer' })
  platformTrxId!: string;
  @ApiProperty({ example: '1234567890' }) accountNo!: string;
  @ApiProperty({ example: 'BUDI SANTOSO', description: 'The transfer must send exactly this value' })
  accountName!: string;
  @ApiProperty({ example: 'BCA' }) bankCode!: string;
  @ApiProperty({ example: 100000, description: AMOUNT }) amount!: number;
  @ApiProperty({ type: FeeSchema }) fee!: FeeSchema;
  @ApiProperty({ example: 102500, description: 'amount + fee.amount: what the balance must cover' })
  totalAmount!: number;
}

/** Spec 2.6 */
@ApiSchema({ name: 'TransferResult' })
export class TransferResultSchema {
  @ApiProperty({ example: 'INV-2026-0001' }) merchantTrxId!: string;
  @ApiProperty({ example: 'DSB20261122K3J9X2M4Q7PA' }) platformTrxId!: string;
  @ApiProperty({ example: 100000, description: AMOUNT }) amount!: number;
  @ApiProperty({ type: FeeSchema }) fee!: FeeSchema;
  @ApiProperty({ example: 102500, description: 'amount + fee.amount, debited from the balance' }) totalAmount!: number;
  @ApiProperty({
    enum: ['awaiting_approval', 'pending', 'success', 'failed', 'reversed'],
    example: 'pending',
    description: 'Usually pending; the final status goes to notifyUrl',
  })
  status!: string;
}

/** Spec 2.4 */
@ApiSchema({ name: 'Disbursement' })
export class DisbursementSchema {
  @ApiProperty({ example: 7 }) idMerchant!: number;
  @ApiProperty({ example: 'Toko Sinar Jaya' }) merchantName!: string;
  @ApiProperty({ example: 'INV-2026-0001' }) merchantTrxId!: string;
  @ApiProperty({ example: 'DSB20261122K3J9X2M4Q7PA' }) platformTrxId!: string;
  @ApiProperty({ example: '1234567890' }) accountNo!: string;
  @ApiProperty({ example: 'BUDI SANTOSO' }) accountName!: string;
  @ApiProperty({ example: 100000, description: AMOUNT }) amount!: number;
  @ApiProperty({ type: FeeSchema, description: 'On failed and reversed: amount 0 (everything refunded)' })
  fee!: FeeSchema;
  @ApiProperty({ example: 102500, description: 'amount + fee.amount' }) totalAmount!: number;
  @ApiProperty({
    enum: ['awaiting_approval', 'pending', 'success', 'failed', 'reversed'],
    example: 'success',
    description:
      "reversed (our addition): a success the beneficiary's bank returned later; amount and fee are back in the balance",
  })
  status!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    example: '2026-11-22 19:31:05',
    description: 'YYYY-MM-DD HH:MM:SS, Asia/Jakarta; null unless success',
  })
  success_at!: string | null;
  @ApiPropertyOptional({
    type: String,
    enum: Object.values(PayoutFailureCode),
    nullable: true,
    example: PayoutFailureCode.AccountNotFound,
    description: `Our addition, on failed only: why, as a stable code (null for payouts that failed before codes existed). ${Object.entries(
      PAYOUT_FAILURE_TEXT,
    )
      .map(([code, text]) => `${code}: ${text}.`)
      .join(' ')}`,
  })
  failureCode?: PayoutFailureCode | null;
  @ApiPropertyOptional({
    example: 'Beneficiary account not found (4041811)',
    description: "Our addition, on failed only: why, in words, with the bank's own code where it gave one",
  })
  failureReason?: string;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '2026-11-25 10:02:11',
    description:
      "Our addition, on reversed only: when the beneficiary's bank returned the transfer (YYYY-MM-DD HH:MM:SS, Asia/Jakarta)",
  })
  reversed_at?: string | null;
  @ApiPropertyOptional({
    example: 'Beneficiary account closed after crediting (bank return 2026-11-25)',
    description: 'Our addition, on reversed only: why, as the bank told it',
  })
  reversalReason?: string;
}

/** The disbursement callback's data: spec 2.4 plus bankCode, and failureCode and failureReason on failure. */
@ApiSchema({ name: 'DisbursementCallbackData' })
export class DisbursementCallbackDataSchema extends DisbursementSchema {
  @ApiProperty({ example: 'BCA' }) bankCode!: string;
}

/** What is POSTed to the transfer's notifyUrl once it is final (spec 6). */
@ApiSchema({ name: 'DisbursementCallback' })
export class DisbursementCallbackSchema {
  @ApiProperty({
    example: 'disbursement.7f0c2a1e.success',
    description: 'Stable across retries and resends: de-duplicate on it',
  })
  id!: string;
  @ApiProperty({
    enum: ['disbursement.succeeded', 'disbursement.failed', 'disbursement.reversed'],
    example: 'disbursement.succeeded',
  })
  type!: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-22T12:31:05.100Z' }) createdAt!: string;
  @EventSequence() sequence!: number;
  @ApiProperty({ type: DisbursementCallbackDataSchema }) data!: DisbursementCallbackDataSchema;
}

const PAYIN_STATUS = ['pending', 'success', 'failed', 'expired'];

/** The QRIS generate answer (our addition to the spec). */
@ApiSchema({ name: 'GeneratedQris' })
export class GeneratedQrisSchema {
  @ApiProperty({ example: 'ORDER-2026-0001' }) merchantTrxId!: string;
  @ApiProperty({ example: 'QR20261122H8Q3ZK2M9T4B' }) platformTrxId!: string;
  @ApiProperty({ example: 50000, description: AMOUNT }) amount!: number;
  @ApiProperty({ type: FeeSchema, example: { amount: 500, percentage: 0.7, fixed: 150 } }) fee!: FeeSchema;
  @ApiProperty({ example: 49500, description: 'amount - fee.amount' }) netAmount!: number;
  @ApiProperty({ enum: PAYIN_STATUS, example: 'pending' }) status!: string;
  @ApiProperty({
    example: '00020101021251440014ID.CO.QRIS.WWW0215ID10000000000010303UMI5204549953033605405500005802ID6304A1B2',
    description: 'EMVCo merchant-presented QR payload',
  })
  qrisPayload!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    example: '2026-11-22 19:45:00',
    description: 'YYYY-MM-DD HH:MM:SS, Asia/Jakarta',
  })
  expiredAt!: string | null;
  @ApiPropertyOptional({
    example: 'data:image/png;base64,iVBORw0KGgo…',
    description: 'PNG data URL; only with withImage: true',
  })
  qrImage?: string;
}

@ApiSchema({ name: 'PayinAdditionalInfo' })
export class PayinAdditionalInfoSchema {
  @ApiProperty({
    type: String,
    nullable: true,
    example: '123456789012',
    description: 'Reference Retrieval Number; null until paid',
  })
  rrn!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'ID1020021181745', description: 'National Merchant ID' })
  nmid!: string | null;
}

/** Spec 2.7 */
@ApiSchema({ name: 'Payin' })
export class PayinSchema {
  @ApiProperty({ example: 7 }) idMerchant!: number;
  @ApiProperty({ example: 'Toko Sinar Jaya' }) merchantName!: string;
  @ApiProperty({ example: 'ORDER-2026-0001' }) merchantTrxId!: string;
  @ApiProperty({ example: 'QR20261122H8Q3ZK2M9T4B' }) platformTrxId!: string;
  @ApiProperty({ example: 50000, description: AMOUNT }) amount!: number;
  @ApiProperty({ type: FeeSchema, example: { amount: 500, percentage: 0.7, fixed: 150 } }) fee!: FeeSchema;
  @ApiProperty({ example: 49500, description: 'amount - fee.amount' }) netAmount!: number;
  @ApiProperty({ enum: PAYIN_STATUS, example: 'success' }) status!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    example: '2026-11-22 19:31:05',
    description: 'YYYY-MM-DD HH:MM:SS, Asia/Jakarta; null unless success',
  })
  success_at!: string | null;
  @ApiProperty({ type: PayinAdditionalInfoSchema }) additionalInfo!: PayinAdditionalInfoSchema;
}

/** A refund of a QRIS pay-in (issue 44): POST and GET /api/v1/payin/refund, the pay-in inquiry, the payin.refunded callback */
@ApiSchema({ name: 'PayinRefund' })
export class PayinRefundSchema {
  @ApiProperty({ example: 'RFD-2026-0001', description: "The merchant's id of the refund" }) refundId!: string;
  @ApiProperty({ example: 'ORDER-2026-0001', description: 'The refunded pay-in' }) merchantTrxId!: string;
  @ApiProperty({ example: 'QR20261122H8Q3ZK2M9T4B' }) platformTrxId!: string;
  @ApiProperty({ example: 25000, description: AMOUNT }) amount!: number;
  @ApiProperty({ type: String, nullable: true, example: 'Customer returned the goods' }) reason!: string | null;
  @ApiProperty({
    enum: ['pending', 'success', 'failed'],
    example: 'pending',
    description:
      'pending: debited from the balance, sent to the acquirer; success: the acquirer paid the payer back; failed: the acquirer refused it, the amount is back in the balance',
  })
  status!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'RFD20261122000001',
    description: "The acquirer's refund number, on success",
  })
  refundNo!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: '2026-11-22T19:40:00+07:00',
    description: "The acquirer's refund time (as it sent it), on success",
  })
  refundTime!: string | null;
  @ApiProperty({ example: '2026-11-22 19:39:58', description: 'YYYY-MM-DD HH:MM:SS, Asia/Jakarta' }) createdAt!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    example: '2026-11-22 19:40:01',
    description: 'When it became success or failed (YYYY-MM-DD HH:MM:SS, Asia/Jakarta)',
  })
  completedAt!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'Invalid Amount', description: 'On failed only' })
  failureReason?: string | null;
}

/** The payin.refunded callback's data: the refund as GET /api/v1/payin/refund/{refundId} shows it, and whose it is. */
@ApiSchema({ name: 'PayinRefundCallbackData' })
export class PayinRefundCallbackDataSchema extends PayinRefundSchema {
  @ApiProperty({ example: 7 }) idMerchant!: number;
  @ApiProperty({ example: 'Toko Sinar Jaya' }) merchantName!: string;
}

@ApiSchema({ name: 'SettlementCreditedPayin' })
export class SettlementCreditedPayinSchema {
  @ApiProperty({ example: 'ORDER-2026-0001' }) merchantTrxId!: string;
  @ApiProperty({ example: 'QRA1B2C3D4E5F6A7B8' }) platformTrxId!: string;
  @ApiProperty({ example: 50000, description: AMOUNT }) amount!: number;
  @ApiProperty({ example: 365, description: AMOUNT }) fee!: number;
  @ApiProperty({
    example: 49635,
    description: 'amount - fee - what refunds took from pending: its share of the settlement. ' + AMOUNT,
  })
  net!: number;
}

@ApiSchema({ name: 'SettlementCreditedCallbackData' })
export class SettlementCreditedCallbackDataSchema {
  @ApiProperty({ example: 7 }) idMerchant!: number;
  @ApiProperty({ example: 'Toko Sinar Jaya' }) merchantName!: string;
  @ApiProperty({ format: 'uuid' }) settlementId!: string;
  @ApiProperty({ example: 49635, description: 'What became available (moved from pending). ' + AMOUNT })
  amount!: number;
  @ApiProperty({ example: 50000, description: AMOUNT }) gross!: number;
  @ApiProperty({ example: 365, description: AMOUNT }) fees!: number;
  @ApiProperty({ example: 0, description: 'What refunds had taken from pending of these pay-ins. ' + AMOUNT })
  refunds!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Pay-ins paid before it are in it' })
  cutoffAt!: string | null;
  @ApiProperty({ example: 1 }) payinCount!: number;
  @ApiProperty({ type: [SettlementCreditedPayinSchema] }) payins!: SettlementCreditedPayinSchema[];
}

/** What is POSTed to the merchant's default callback URL when a settlement is credited (issue 45). */
@ApiSchema({ name: 'SettlementCreditedCallback' })
export class SettlementCreditedCallbackSchema {
  @ApiProperty({
    example: 'settlement.3f1b6c2e-8d7a-4b1e-9f2a-0c5d6e7f8a9b.credited',
    description: 'One per settlement',
  })
  id!: string;
  @ApiProperty({ enum: ['settlement.credited'], example: 'settlement.credited' }) type!: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-23T03:00:00.100Z' }) createdAt!: string;
  @ApiProperty({ type: SettlementCreditedCallbackDataSchema }) data!: SettlementCreditedCallbackDataSchema;
  @EventSequence() sequence!: number;
}

/** What is POSTed to the pay-in's callback URL once a refund of it is final (issue 44). */
@ApiSchema({ name: 'PayinRefundCallback' })
export class PayinRefundCallbackSchema {
  @ApiProperty({
    example: 'payin.refund.3f1b6c2e-8d7a-4b1e-9f2a-0c5d6e7f8a9b.success',
    description: 'Stable across retries and resends: de-duplicate on it',
  })
  id!: string;
  @ApiProperty({ enum: ['payin.refunded'], example: 'payin.refunded' }) type!: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-22T12:40:01.100Z' }) createdAt!: string;
  @EventSequence() sequence!: number;
  @ApiProperty({ type: PayinRefundCallbackDataSchema }) data!: PayinRefundCallbackDataSchema;
}

/** The pay-in inquiry: spec 2.7 plus the pay-in's refunds (issue 44). */
@ApiSchema({ name: 'PayinInquiry' })
export class PayinInquirySchema extends PayinSchema {
  @ApiProperty({ example: 25000, description: 'What successful refunds paid back. ' + AMOUNT }) refundedAmount!: number;
  @ApiProperty({
    example: 25000,
    description: 'What may still be refunded: the amount minus every refund not failed (0 unless success). ' + AMOUNT,
  })
  refundableAmount!: number;
  @ApiProperty({ type: [PayinRefundSchema], description: 'Its refunds, oldest first' }) refunds!: PayinRefundSchema[];
}

/** The pay-in callback's data: spec 2.7 plus expiredAt, issuer and paidAt, and failureReason on failure. */
@ApiSchema({ name: 'PayinCallbackData' })
export class PayinCallbackDataSchema extends PayinSchema {
  @ApiProperty({
    type: String,
    nullable: true,
    example: '2026-11-22 19:45:00',
    description: 'YYYY-MM-DD HH:MM:SS, Asia/Jakarta',
  })
  expiredAt!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'OVO',
    description: "The payer's issuer; null for payin.expired",
  })
  issuer!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date-time',
    example: '2026-11-22T12:31:05.000Z',
    description: "The acquirer's payment time (UTC); null for payin.expired",
  })
  paidAt!: string | null;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'Payment declined by the issuer',
    description: 'On payin.failed only',
  })
  failureReason?: string | null;
}

/** What is POSTed to the pay-in's notifyUrl (or the merchant's default) once it is final. */
@ApiSchema({ name: 'PayinCallback' })
export class PayinCallbackSchema {
  @ApiProperty({
    example: 'payin.5b0d3c9a.success',
    description: 'Stable across retries and resends: de-duplicate on it',
  })
  id!: string;
  @ApiProperty({ enum: ['payin.succeeded', 'payin.failed', 'payin.expired'], example: 'payin.succeeded' })
  type!: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-22T12:31:05.100Z' }) createdAt!: string;
  @EventSequence() sequence!: number;
  @ApiProperty({ type: PayinCallbackDataSchema }) data!: PayinCallbackDataSchema;
}

/** Spec 2.8: note while queued, download once ready. */
@ApiSchema({ name: 'ReconExportJob' })
export class ReconExportJobSchema {
  @ApiProperty({ format: 'uuid', example: '0f6c3e2a-9b1d-4c5e-8f7a-2d3b4c5d6e7f' }) jobId!: string;
  @ApiPropertyOptional({
    example: 'The export is being prepared. Send the same request again to check its status and get the download link.',
    description: 'Export job queued only',
  })
  note?: string;
  @ApiPropertyOptional({
    format: 'uri',
    example: 'https://files.example/recon/7/2026-11-22.csv?X-Amz-Expires=3600&X-Amz-Signature=5257a869e7ecebed',
    description: 'Export ready only: presigned URL of the CSV, valid RECON_URL_TTL_SECONDS',
  })
  download?: string;
}
