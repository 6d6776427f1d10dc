import { Pool, type PoolClient } from 'pg';

/**
 * The simulator's whole state, in a schema of its own (nothing of the platform's): tokens, the
 * X-EXTERNAL-IDs seen per day, the source account and its entries (the execution record),
 * transfers, QR codes, refunds, every notification it sent, and the acquirer's settlements.
 */
const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS tokens (
  token text PRIMARY KEY, client_id text NOT NULL, expires_at timestamptz NOT NULL);
CREATE TABLE IF NOT EXISTS external_ids (
  partner_id text NOT NULL, day text NOT NULL, external_id text NOT NULL, service text NOT NULL,
  seen_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (partner_id, day, external_id));
CREATE TABLE IF NOT EXISTS source_accounts (account_no text PRIMARY KEY, balance bigint NOT NULL CHECK (balance >= 0));
CREATE TABLE IF NOT EXISTS transfers (
  partner_reference_no text PRIMARY KEY, reference_no text UNIQUE NOT NULL, service text NOT NULL,
  external_id text NOT NULL, transaction_date text, beneficiary_bank_code text, beneficiary_account_no text NOT NULL,
  beneficiary_account_name text, source_account_no text NOT NULL, amount bigint NOT NULL, scenario text NOT NULL,
  state text NOT NULL CHECK (state IN ('success', 'pending', 'failed')), resolves_to text, resolve_at timestamptz,
  response_code text NOT NULL, status_queries int NOT NULL DEFAULT 0, created_at timestamptz NOT NULL DEFAULT now());
CREATE INDEX IF NOT EXISTS transfers_external_id ON transfers (external_id);
CREATE TABLE IF NOT EXISTS refused_attempts (partner_reference_no text PRIMARY KEY, attempts int NOT NULL);
CREATE TABLE IF NOT EXISTS entries (
  id bigserial PRIMARY KEY, account_no text NOT NULL, partner_reference_no text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('DEBIT', 'CREDIT')), amount bigint NOT NULL CHECK (amount > 0),
  balance_after bigint NOT NULL, remark text, created_at timestamptz NOT NULL DEFAULT now());
-- One execution per partnerReferenceNo, ever: a second debit for one reference cannot be written.
CREATE UNIQUE INDEX IF NOT EXISTS entries_one_debit ON entries (partner_reference_no) WHERE kind = 'DEBIT';
CREATE TABLE IF NOT EXISTS qr_codes (
  reference_no text PRIMARY KEY, partner_reference_no text UNIQUE NOT NULL, merchant_id text NOT NULL,
  amount bigint NOT NULL, qr_content text NOT NULL, state text NOT NULL CHECK (state IN ('pending', 'paid', 'failed')),
  valid_until timestamptz NOT NULL, paid_at timestamptz, issuer text, rrn text, refunded bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE IF NOT EXISTS refunds (
  partner_refund_no text PRIMARY KEY, reference_no text NOT NULL, amount bigint NOT NULL, refund_no text NOT NULL,
  refund_time text NOT NULL);
CREATE TABLE IF NOT EXISTS notifications (
  id bigserial PRIMARY KEY, reference_no text NOT NULL, mode text NOT NULL, attempt int NOT NULL,
  good_signature boolean NOT NULL, http_status int, response_code text, response_body text, error text,
  sent_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE IF NOT EXISTS settlements (
  batch_id text PRIMARY KEY, transaction_date text NOT NULL, settlement_date text NOT NULL, mode text NOT NULL,
  net bigint NOT NULL, credited bigint NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
-- A payment is settled once: its line (or its omission, when a fault left it out) is written once.
CREATE TABLE IF NOT EXISTS settlement_lines (
  id bigserial PRIMARY KEY, batch_id text NOT NULL, line_no int NOT NULL, rrn text NOT NULL, reference_no text NOT NULL,
  partner_reference_no text NOT NULL, transaction_date text NOT NULL, settlement_date text NOT NULL,
  gross bigint NOT NULL, mdr bigint NOT NULL, net bigint NOT NULL, omitted boolean NOT NULL DEFAULT false);
CREATE INDEX IF NOT EXISTS settlement_lines_reference ON settlement_lines (reference_no);
ALTER TABLE settlements ADD COLUMN IF NOT EXISTS refunds bigint NOT NULL DEFAULT 0;
-- The refunds a batch netted (the acquirer pays the payer back and takes it from what it settles):
-- each refund once (a planted line of no refund has planted = true and a partner_refund_no of its own).
CREATE TABLE IF NOT EXISTS settlement_refunds (
  partner_refund_no text PRIMARY KEY, batch_id text NOT NULL, line_no int NOT NULL, refund_no text NOT NULL,
  rrn text NOT NULL, reference_no text NOT NULL, partner_reference_no text NOT NULL, amount bigint NOT NULL,
  refund_date text NOT NULL, settlement_date text NOT NULL, planted boolean NOT NULL DEFAULT false);
CREATE INDEX IF NOT EXISTS settlement_refunds_batch ON settlement_refunds (batch_id);
`;

export class Store {
  readonly pool: Pool;

  private constructor(pool: Pool) {
    this.pool = pool;
  }

  static async open(
    databaseUrl: string,
    schema: string,
    source: { accountNo: string; balance: bigint },
  ): Promise<Store> {
    const setup = new Pool({ connectionString: databaseUrl, max: 1 });
    try {
      await setup.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    } finally {
      await setup.end();
    }
    // A simulator's commits need not wait for the disk: a crash of the process loses nothing (the
    // server has it), and it keeps the simulator from costing the machine an fsync per request.
    const pool = new Pool({
      connectionString: databaseUrl,
      max: 10,
      options: `-c search_path=${schema} -c synchronous_commit=off`,
    });
    // A database that goes away is the caller's problem to see (503s), not a crash.
    pool.on('error', () => undefined);
    await pool.query(SCHEMA_SQL);
    await pool.query(
      'INSERT INTO source_accounts (account_no, balance) VALUES ($1, $2) ON CONFLICT (account_no) DO NOTHING',
      [source.accountNo, source.balance.toString()],
    );
    return new Store(pool);
  }

  async tx<T>(work: (c: PoolClient) => Promise<T>): Promise<T> {
    const c = await this.pool.connect();
    try {
      await c.query('BEGIN');
      const result = await work(c);
      await c.query('COMMIT');
      return result;
    } catch (err) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      c.release();
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
