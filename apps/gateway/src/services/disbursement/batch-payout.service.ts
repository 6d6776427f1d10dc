import { createHash, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ERROR_MESSAGE, ErrorCode } from '@pay/contracts';
import type { Minor } from '@pay/domain';
import { BatchRepository, type DisbursementBatch, type DisbursementBatchRow, type NewBatchRow } from '@pay/persistence';
import { ApiError, currentLogId, validationError } from '@pay/platform';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import type { GatewayConfig } from '../../gateway.config';
import { GATEWAY_CONFIG } from '../../gateway.tokens';
import { assertNotifyUrlAllowed } from '../../kernel/http/notify-url.check';
import { AccountInquiryService } from './account-inquiry.service';

/** A row as the merchant sent it (validated here, row by row, not by the request's pipe). */
export type RawBatchRow = Record<string, unknown>;

/** A batch as submitted: the batchId (idempotency key), where callbacks go, the rows. */
export interface BatchCommand {
  batchId: string;
  notifyUrl: string | null;
  rows: RawBatchRow[];
}

/** The class a row is validated as: the same decorators, so the same messages, as a transfer's fields. */
export type BatchRowClass = new () => object;

const DUPLICATE = {
  code: ErrorCode.DuplicateMerchantTrxId,
  message: ERROR_MESSAGE[ErrorCode.DuplicateMerchantTrxId] as string,
};

/**
 * Batch payouts (issue 44; docs/batch-payouts.md). Synchronous: each row validated alone
 * by a single transfer's rules (fields, amount limits, bank code, account number form,
 * merchantTrxId unique per merchant and within the batch), and the batch with its rows recorded in
 * one transaction. Asynchronous (the payout service): each accepted row's name check with the
 * bank, its disbursement and the ledger's payout.debit, the transfer, the batch's callback.
 */
@Injectable()
export class BatchPayoutService {
  constructor(
    private readonly batches: BatchRepository,
    private readonly inquiries: AccountInquiryService,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /**
   * The merchant's (API token or dashboard user's) batch: recorded, or the one recorded under its
   * batchId. `tokenId` or `userId` names who submits it (never its approver: docs/payout-approvals.md).
   */
  async submit(
    merchant: { id: number; tokenId?: string | null; userId?: number },
    command: BatchCommand,
    rowClass: BatchRowClass,
  ): Promise<{ batch: DisbursementBatch; rows: DisbursementBatchRow[]; replayed: boolean }> {
    if (command.notifyUrl) await assertNotifyUrlAllowed(command.notifyUrl, this.config.webhooks);
    const rows = this.rows(command.rows, rowClass);
    const verdict = await this.batches.submit(
      {
        id: randomUUID(),
        merchantId: merchant.id,
        batchId: command.batchId,
        requestHash: requestHash(command),
        notifyUrl: command.notifyUrl,
        logId: currentLogId() ?? null,
        createdBy: merchant.tokenId ? `token:${merchant.tokenId}` : merchant.userId ? `user:${merchant.userId}` : null,
      },
      rows,
      DUPLICATE,
    );
    if (verdict.kind === 'conflict') throw new ApiError(ErrorCode.BatchIdConflict);
    return { batch: verdict.batch, rows: verdict.rows, replayed: verdict.kind === 'existing' };
  }

  /** What submitting these rows would answer now, per row, recording nothing (the dashboard's preview of a CSV). */
  preview(merchant: { id: number }, rows: RawBatchRow[], rowClass: BatchRowClass): Promise<NewBatchRow[]> {
    return this.batches.preview(merchant.id, this.rows(rows, rowClass), DUPLICATE);
  }

  private rows(rows: RawBatchRow[], rowClass: BatchRowClass): NewBatchRow[] {
    return rows.map((raw, i) => this.row(raw, i + 1, rowClass));
  }

  /** One row checked alone: refused with the code and message a single transfer would get, or to check with the bank. */
  private row(raw: RawBatchRow, rowNo: number, rowClass: BatchRowClass): NewBatchRow {
    const text = (v: unknown) => (typeof v === 'string' ? v.slice(0, 100) : '');
    const asSent: NewBatchRow = {
      rowNo,
      merchantTrxId: text(raw.merchantTrxId),
      bankCode: text(raw.bankCode).trim().toUpperCase(),
      accountNo: text(raw.accountNo),
      accountName: typeof raw.accountName === 'string' ? raw.accountName.slice(0, 100) : null,
      amount: null,
      refusal: null,
    };
    const row = plainToInstance(rowClass, raw) as Record<string, unknown>;
    const errors = validateSync(row, { whitelist: true, forbidNonWhitelisted: true });
    if (errors.length > 0) return { ...asSent, refusal: refusal(validationError(errors)) };
    let amount: Minor;
    try {
      amount = this.inquiries.validAmount(row.amount as number);
      const bank = this.inquiries.validDestination(row.bankCode as string, row.accountNo as string);
      return { ...asSent, bankCode: bank.code, amount };
    } catch (err) {
      if (err instanceof ApiError) return { ...asSent, refusal: refusal(err) };
      throw err;
    }
  }
}

function refusal(err: ApiError): { code: string; message: string } {
  return { code: err.code, message: err.message };
}

/** The request as a hash: the same rows (in order, as sent) and notifyUrl hash the same, any change does not. */
export function requestHash(command: BatchCommand): string {
  const rows = command.rows.map((r) => [r.merchantTrxId, r.bankCode, r.accountNo, r.accountName ?? null, r.amount]);
  return createHash('sha256')
    .update(JSON.stringify({ notifyUrl: command.notifyUrl, rows }))
    .digest('hex');
}
