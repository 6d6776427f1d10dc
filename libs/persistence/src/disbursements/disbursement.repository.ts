import { type DebitPayoutCommand, type LedgerCommand, type LedgerOutcome, Topic } from '@pay/contracts';
import type { Minor } from '@pay/domain';
import type { Pool } from 'pg';
import { fromRow } from '../client/rows';
import { sql, type SqlClient, sqlClient, type SqlQuery, sqlText } from '../client/sql';
import { ledgerCommandMessage, outboxHeaders } from '../outbox/outbox-writer';
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
  /** Omitted: the merchant's current flat fee, read by the statement that records the inquiry */
  fee?: Minor | null;
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

/** A transfer as the merchant sent it; amount and fee of the record are the inquiry's. */
export type TransferRequest = Omit<NewDisbursement, 'fee'>;

/** The inquiry fields a transfer must repeat, in the order a mismatch is reported. */
export type InquiryField = 'accountNo' | 'bankCode' | 'amount' | 'accountName';

/**
 * Why a statement that checks the request's token refused: the token is revoked (or not the
 * merchant's, or the merchant is gone), or the merchant is not active. The statements of
 * @TokenCheckedByStatement routes check it in their own transaction, so a token revoked after the
 * request was let in changes nothing.
 */
export type AuthRefusal = 'tokenNotValid' | 'merchantNotActive';

/**
 * The merchant's row and whether the request's token (when one is given) is still valid for it,
 * as a CTE `auth` (merchant id, is_active, payout_fee_flat, token_invalid): no row when the
 * merchant is gone. AUTH_VERDICTS reads it first in a statement's CASE.
 */
function merchantAuth(merchantId: number, tokenId: string | null): SqlQuery {
  return sql`auth AS (
        SELECT m.id, m.is_active, m.payout_fee_flat,
               ${tokenId}::uuid IS NOT NULL AND NOT EXISTS (SELECT 1 FROM api_tokens a WHERE a.id = ${tokenId}::uuid AND a.merchant_id = m.id AND a.revoked_at IS NULL) AS token_invalid
          FROM merchants m WHERE m.id = ${merchantId}::int)`;
}
const AUTH_VERDICTS = sqlText(`
          WHEN NOT EXISTS (SELECT 1 FROM auth) OR (SELECT token_invalid FROM auth) THEN 'tokenNotValid'
          WHEN NOT (SELECT is_active FROM auth) THEN 'merchantNotActive'`);

/**
 * What recordTransfer did, checked in this order: the token (AuthRefusal), `live` (the merchantTrxId has a transfer that
 * is not a refused attempt: the row), `notFound` (no inquiry of this merchant), `expired`,
 * `mismatch` (the first field that differs), `used` (the inquiry pays for a live transfer: the
 * row), `created` (the row), or `raced` (all checks passed but a concurrent request recorded
 * the same merchantTrxId or inquiry first: nothing was written; read the winner).
 */
export type TransferVerdict =
  | { kind: 'created' | 'live' | 'used'; disbursement: Disbursement }
  | { kind: 'notFound' | 'expired' | 'raced' | AuthRefusal }
  | { kind: 'mismatch'; field: InquiryField };

/**
 * The gateway's reads and writes of inquiries and disbursements (money itself moves only in
 * the ledger). Plain pg: every inquiry and transfer runs these (docs/decisions/0010, 0011).
 */
export class DisbursementRepository {
  private readonly db: SqlClient;

  constructor(pool: Pool) {
    this.db = sqlClient(pool);
  }

  /**
   * Records an inquiry in one statement (one round trip), quoting the merchant's current flat fee
   * (`fee`, when given, instead: fixtures), checked in this order: `tokenNotValid` (the request's
   * token, when given, is revoked or not the merchant's), `merchantNotActive`, `duplicate` (the
   * merchantTrxId already pays for a live transfer of the merchant, not a refused attempt),
   * `created`. Nothing is written unless created.
   */
  async recordInquiry(
    i: NewInquiry,
    tokenId: string | null = null,
  ): Promise<{ kind: 'created'; inquiry: DisbursementInquiry } | { kind: 'duplicate' | AuthRefusal }> {
    const [row] = await this.db.query<Record<string, unknown> & { verdict: string }>(sql`
      WITH ${merchantAuth(i.merchantId, tokenId)}, live AS (
        SELECT 1 FROM disbursements WHERE merchant_id = ${i.merchantId}::int AND merchant_trx_id = ${i.merchantTrxId}::text AND status <> 'refused' LIMIT 1
      ), verdict AS (
        SELECT CASE ${AUTH_VERDICTS} WHEN EXISTS (SELECT 1 FROM live) THEN 'duplicate' ELSE 'create' END AS kind
      ), created AS (
        INSERT INTO disbursement_inquiries (platform_trx_id, merchant_id, merchant_trx_id, bank_code, account_no, account_name, amount, fee, expires_at)
        SELECT ${i.platformTrxId}, ${i.merchantId}, ${i.merchantTrxId}, ${i.bankCode}, ${i.accountNo}, ${i.accountName}, ${i.amount}, COALESCE(${i.fee ?? null}::bigint, auth.payout_fee_flat), ${i.expiresAt}
          FROM auth, verdict WHERE verdict.kind = 'create'
        RETURNING *
      )
      SELECT verdict.kind AS verdict, created.* FROM verdict LEFT JOIN created ON true`);
    const { verdict, ...inquiry } = row;
    if (verdict === 'create') return { kind: 'created', inquiry: fromRow<DisbursementInquiry>(inquiry) };
    return { kind: verdict as 'duplicate' | AuthRefusal };
  }

  /** The merchant's transfer with this merchantTrxId that is not a refused attempt. */
  async findLive(merchantId: number, merchantTrxId: string): Promise<Disbursement | null> {
    const [row] = await this.db.query<Record<string, unknown>>(
      sql`SELECT * FROM disbursements WHERE merchant_id = ${merchantId} AND merchant_trx_id = ${merchantTrxId} AND status <> 'refused' LIMIT 1`,
    );
    return row ? fromRow<Disbursement>(row) : null;
  }

  async get(id: string): Promise<Disbursement | null> {
    const [row] = await this.db.query<Record<string, unknown>>(sql`SELECT * FROM disbursements WHERE id = ${id}::uuid`);
    return row ? fromRow<Disbursement>(row) : null;
  }

  /**
   * A new transfer in one statement (one round trip, one transaction): checks the merchantTrxId
   * is not live, the inquiry (the merchant's, unexpired, the same fields, not used by a live
   * transfer), and only then records the transfer as `funding` with its debit command in the
   * outbox (amount and fee taken from the inquiry), or says which check refused it. Above the
   * merchant's approval threshold it is recorded `awaiting` its approval (docs/payout-approvals.md):
   * debited as any, sent only once approved; `created_by` names the token, which can never approve it.
   * A concurrent insert of the same merchantTrxId or inquiry is skipped (ON CONFLICT DO NOTHING:
   * the partial unique indexes are the arbiters), and then no command is written either.
   */
  async recordTransfer(
    t: TransferRequest,
    debit: Omit<DebitPayoutCommand, 'amount' | 'fee'>,
    tokenId: string | null = null,
  ): Promise<TransferVerdict> {
    const { type, commandId, merchantId, logId, issuedAt, payoutId } = debit;
    const payload = JSON.stringify({ type, commandId, merchantId, logId, issuedAt, payoutId });
    const headers = JSON.stringify(outboxHeaders(commandId, logId));
    const rows = await this.db.query<Record<string, unknown>>(sql`
      WITH ${merchantAuth(t.merchantId, tokenId)}, live AS (
        SELECT * FROM disbursements WHERE merchant_id = ${t.merchantId}::int AND merchant_trx_id = ${t.merchantTrxId}::text AND status <> 'refused' LIMIT 1
      ), inquiry AS (
        SELECT *, expires_at <= now() AS expired FROM disbursement_inquiries WHERE platform_trx_id = ${t.platformTrxId}::text AND merchant_id = ${t.merchantId}::int
      ), used AS (
        SELECT * FROM disbursements WHERE platform_trx_id = ${t.platformTrxId}::text AND status <> 'refused' LIMIT 1
      ), verdict AS (
        SELECT CASE ${AUTH_VERDICTS}
          WHEN EXISTS (SELECT 1 FROM live) THEN 'live'
          WHEN i.platform_trx_id IS NULL THEN 'notFound'
          WHEN i.expired THEN 'expired'
          WHEN i.account_no <> ${t.accountNo}::text THEN 'accountNo'
          WHEN i.bank_code <> ${t.bankCode}::text THEN 'bankCode'
          WHEN i.amount <> ${t.amount}::bigint THEN 'amount'
          WHEN i.account_name <> ${t.accountName}::text THEN 'accountName'
          WHEN EXISTS (SELECT 1 FROM used) THEN 'used'
          ELSE 'create' END AS kind
          FROM (SELECT 1) one LEFT JOIN inquiry i ON true
      ), approvals AS (
        SELECT payout_approval_threshold AS threshold, approval_ttl_seconds AS ttl FROM merchants WHERE id = ${t.merchantId}::int
      ), created AS (
        INSERT INTO disbursements (id, merchant_id, merchant_trx_id, platform_trx_id, bank_code, account_no, account_name, amount, fee, notify_url, status, log_id,
                                   created_by, approval, approval_expires_at)
        SELECT ${t.id}::uuid, ${t.merchantId}::int, ${t.merchantTrxId}::text, i.platform_trx_id, i.bank_code, i.account_no, i.account_name, i.amount, i.fee,
               ${t.notifyUrl}::text, 'funding', ${t.logId ?? null}::text, ${tokenId === null ? null : `token:${tokenId}`}::text,
               CASE WHEN i.amount > a.threshold THEN 'awaiting' END,
               CASE WHEN i.amount > a.threshold THEN now() + make_interval(secs => a.ttl) END
          FROM inquiry i CROSS JOIN verdict v LEFT JOIN approvals a ON true WHERE v.kind = 'create'
        ON CONFLICT DO NOTHING
        RETURNING *
      ), command AS (
        INSERT INTO outbox (topic, key, payload, headers)
        SELECT ${Topic.LedgerCommands}::text, ${String(t.merchantId)}::text, ${payload}::jsonb || jsonb_build_object('amount', c.amount::text, 'fee', c.fee::text), ${headers}::jsonb
          FROM created c
      )
      SELECT CASE WHEN v.kind = 'create' THEN (CASE WHEN d.id IS NULL THEN 'raced' ELSE 'created' END) ELSE v.kind END AS verdict, d.*
        FROM verdict v
        LEFT JOIN LATERAL (
          SELECT * FROM created WHERE v.kind = 'create'
          UNION ALL SELECT * FROM live WHERE v.kind = 'live'
          UNION ALL SELECT * FROM used WHERE v.kind = 'used'
        ) d ON true`);
    const { verdict, ...row } = rows[0] as { verdict: string } & Record<string, unknown>;
    switch (verdict) {
      case 'created':
      case 'live':
      case 'used':
        return { kind: verdict, disbursement: fromRow<Disbursement>(row) };
      case 'notFound':
      case 'expired':
      case 'raced':
      case 'tokenNotValid':
      case 'merchantNotActive':
        return { kind: verdict };
      default:
        return { kind: 'mismatch', field: verdict as InquiryField };
    }
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
    const [row] = await this.db.query<{ result: LedgerOutcome }>(
      sql`SELECT result FROM ledger_commands WHERE command_id = ${commandId}`,
    );
    return row?.result ?? null;
  }
}
