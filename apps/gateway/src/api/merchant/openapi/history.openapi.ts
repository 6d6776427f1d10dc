import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PayoutFailureCode } from '@pay/domain';

// Response shapes of the history lists, for the OpenAPI document only.

class ListFee {
  @ApiProperty({ example: 365 }) amount!: number;
  @ApiProperty({ example: 0.7, description: 'Percent (0 for disbursements)' }) percentage!: number;
  @ApiProperty({ example: 15 }) fixed!: number;
}

export class BalanceMovementItem {
  @ApiProperty({ example: '81234', description: 'Ledger event id' }) id!: string;
  @ApiProperty({
    enum: [
      'payin.recorded',
      'settlement.credited',
      'payout.debited',
      'payout.refunded',
      'payout.reversed',
      'balance.adjusted',
      'payin.refunded',
      'payin.refund_returned',
    ],
    description:
      'balance.adjusted: a correction of the available balance, approved by two operators; payin.refunded: a refund of a pay-in debited (from pending, available or both); payin.refund_returned: a refund the acquirer refused, given back',
    example: 'payin.recorded',
  })
  type!: string;
  @ApiProperty({ example: 0, description: 'Signed change of available, Rupiah' }) availableChange!: number;
  @ApiProperty({ example: 49635, description: 'Signed change of pending, Rupiah' }) pendingChange!: number;
  @ApiProperty({ example: 150000, description: 'Available right after this movement' }) availableAfter!: number;
  @ApiProperty({ example: 99270, description: 'Pending right after this movement' }) pendingAfter!: number;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'ORDER-2026-0001',
    description: 'Of the pay-in (also for its refunds) or disbursement; null for a settlement',
  })
  merchantTrxId!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'QR20261126ABCDEF' }) platformTrxId!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'settlement.credited only' }) settlementId!: string | null;
  @ApiProperty({ example: '2026-11-26T03:04:05.678Z' }) createdAt!: string;
}

class TransactionItem {
  @ApiProperty({ example: 17 }) idMerchant!: number;
  @ApiProperty({ example: 'Toko Budi' }) merchantName!: string;
  @ApiProperty({ example: 'ORDER-2026-0001' }) merchantTrxId!: string;
  @ApiProperty({ example: 'QR20261126ABCDEF' }) platformTrxId!: string;
  @ApiProperty({ example: 50000 }) amount!: number;
  @ApiProperty({ type: ListFee }) fee!: ListFee;
  @ApiProperty({ type: String, nullable: true, example: '2026-11-26 10:04:05', description: 'Asia/Jakarta' })
  success_at!: string | null;
  @ApiProperty({ example: '2026-11-26T03:04:05.678Z' }) createdAt!: string;
}

class PayinAdditionalInfo {
  @ApiProperty({ type: String, nullable: true }) rrn!: string | null;
  @ApiProperty({ type: String, nullable: true }) nmid!: string | null;
}

export class PayinListItem extends TransactionItem {
  @ApiProperty({ example: 49635 }) netAmount!: number;
  @ApiProperty({ enum: ['pending', 'success', 'failed', 'expired'] }) status!: string;
  @ApiProperty({ type: PayinAdditionalInfo }) additionalInfo!: PayinAdditionalInfo;
}

export class DisbursementListItem extends TransactionItem {
  @ApiProperty({ example: '1234567890' }) accountNo!: string;
  @ApiProperty({ example: 'Budi' }) accountName!: string;
  @ApiProperty({ example: 52500 }) totalAmount!: number;
  @ApiProperty({ enum: ['awaiting_approval', 'pending', 'success', 'failed', 'reversed'] }) status!: string;
  @ApiPropertyOptional({
    type: String,
    enum: Object.values(PayoutFailureCode),
    nullable: true,
    description: 'On failed only: why, as a stable code (see the disbursement inquiry)',
  })
  failureCode?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'On failed only: why, in words' })
  failureReason?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'On reversed only: when, Asia/Jakarta' })
  reversed_at?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'On reversed only: why, in words' })
  reversalReason?: string | null;
}

/** The `data` of a page of the given items (the envelope comes from ApiEnvelope). */
function pageOf<T>(item: new () => T, name: string) {
  class PageData {
    @ApiProperty({ type: [item] }) items!: T[];
    @ApiProperty({
      type: String,
      nullable: true,
      description: 'Pass as cursor for the next page; null on the last page',
    })
    nextCursor!: string | null;
    @ApiProperty({ example: true }) hasMore!: boolean;
  }
  Object.defineProperty(PageData, 'name', { value: `${name}Page` });
  return PageData;
}

export const BalanceMovementPage = pageOf(BalanceMovementItem, 'BalanceMovement');
export const PayinPage = pageOf(PayinListItem, 'PayinList');
export const DisbursementPage = pageOf(DisbursementListItem, 'DisbursementList');
