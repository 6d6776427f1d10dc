import type { LedgerCommand, LedgerOutcome } from '@pay/contracts';
import type { Minor } from '@pay/domain';
import type { Pool } from 'pg';
import { fromRow } from '../client/rows';
import { sql, type SqlClient, sqlClient } from '../client/sql';
import { ledgerCommandMessage } from '../outbox/outbox-writer';
import type { Disbursement, DisbursementInquiry } from '../generated/prisma/client';

export type { Disbursement, DisbursementInquiry };

/** The ledger notifies this channel with the disbursement id when it moves a transfer out of `funding`. */
export const DISBURSEMENT_DECIDED_CHANNEL = 'disbursement_decided';

export interface NewInquiry {
  platformTrxId: string;
  merchantId: number;
  merchantTrxId: string;
  bankCode: string;
  accountNo: string;
  accountName: string;
  amount: Minor;
  fee: Minor;
  expiresAt: Date;
}

export interface NewDisbursement {
  id: string;
  merchantId: number;
  merchantTrxId: string;
  platformTrxId: string;
  bankCode: string;
  accountNo: string;
  accountName: string;
  amount: Minor;
  fee: Minor;
  notifyUrl: string;
  logId?: string;
}

/**
 * The gateway's reads and writes of inquiries and disbursements (money itself moves only in
 * the ledger). Plain pg: every inquiry and transfer runs these (docs/decisions/0010, 0011).
 */
export class DisbursementRepository {
  private readonly db: SqlClient;

  constructor(pool: Pool) {
    this.db = sqlClient(pool);
  }

  async createInquiry(i: NewInquiry): Promise<DisbursementInquiry> {
    const [row] = await this.db.query<Record<string, unknown>>(
      sql`INSERT INTO disbursement_inquiries (platform_trx_id, merchant_id, merchant_trx_id, bank_code, account_no, account_name, amount, fee, expires_at)
            VALUES (${i.platformTrxId}, ${i.merchantId}, ${i.merchantTrxId}, ${i.bankCode}, ${i.accountNo}, ${i.accountName}, ${i.amount}, ${i.fee}, ${i.expiresAt})
            RETURNING *`,
    );
    return fromRow<DisbursementInquiry>(row);
  }

  async findInquiry(merchantId: number, platformTrxId: string): Promise<DisbursementInquiry | null> {
    const [row] = await this.db.query<Record<string, unknown>>(
      sql`SELECT * FROM disbursement_inquiries WHERE platform_trx_id = ${platformTrxId} AND merchant_id = ${merchantId}`,
    );
    return row ? fromRow<DisbursementInquiry>(row) : null;
  }

  /** The merchant's transfer with this merchantTrxId that is not a refused attempt. */
  async findLive(merchantId: number, merchantTrxId: string): Promise<Disbursement | null> {
    const [row] = await this.db.query<Record<string, unknown>>(
      sql`SELECT * FROM disbursements WHERE merchant_id = ${merchantId} AND merchant_trx_id = ${merchantTrxId} AND status <> 'refused' LIMIT 1`,
    );
    return row ? fromRow<Disbursement>(row) : null;
  }

  async findLiveByInquiry(platformTrxId: string): Promise<Disbursement | null> {
    const [row] = await this.db.query<Record<string, unknown>>(
      sql`SELECT * FROM disbursements WHERE platform_trx_id = ${platformTrxId} AND status <> 'refused' LIMIT 1`,
    );
    return row ? fromRow<Disbursement>(row) : null;
  }

  async get(id: string): Promise<Disbursement | null> {
    const [row] = await this.db.query<Record<string, unknown>>(sql`SELECT * FROM disbursements WHERE id = ${id}::uuid`);
    return row ? fromRow<Disbursement>(row) : null;
  }

  /**
   * Records the transfer as `funding` and, in the same statement (so the same transaction), the
   * debit command for the ledger in the outbox: the command is never on the bus without the
   * transfer it pays for. A taken merchantTrxId or inquiry fails with a unique violation.
   */
  async createFunding(d: NewDisbursement, debit: LedgerCommand): Promise<Disbursement> {
    const command = ledgerCommandMessage(debit);
    const [row] = await this.db.query<Record<string, unknown>>(
      sql`WITH command AS (
              INSERT INTO outbox (topic, key, payload, headers)
              VALUES (${command.topic}, ${command.key}, ${JSON.stringify(command.payload)}::jsonb, ${JSON.stringify(command.headers)}::jsonb)
            )
            INSERT INTO disbursements (id, merchant_id, merchant_trx_id, platform_trx_id, bank_code, account_no, account_name, amount, fee, notify_url, status, log_id)
            VALUES (${d.id}::uuid, ${d.merchantId}, ${d.merchantTrxId}, ${d.platformTrxId}, ${d.bankCode}, ${d.accountNo}, ${d.accountName},
                    ${d.amount}, ${d.fee}, ${d.notifyUrl}, 'funding', ${d.logId ?? null})
            RETURNING *`,
    );
    return fromRow<Disbursement>(row);
  }

  /** The ledger's recorded decision for a command, if any. */
  async ledgerOutcome(commandId: string): Promise<LedgerOutcome | null> {
    const [row] = await this.db.query<{ result: LedgerOutcome }>(sql`SELECT result FROM ledger_commands WHERE command_id = ${commandId}`);
    return row?.result ?? null;
  }
}
