import { createHash, randomBytes } from 'node:crypto';
import { accountNumberProblem, findBank, PayoutFailureCode } from '@pay/domain';
import { GroupWriter, sql, sqlClient, type SqlClient } from '@pay/persistence';
import type { Pool } from 'pg';
import {
  type AccountLookup,
  type BankRail,
  RailTimeoutError,
  type TransferRequest,
  type TransferStatus,
  UnknownBankError,
} from '../bank-rail';

/**
 * Documented magic account numbers (bank accounts / e-wallet phone numbers). Every other well
 * formed number is a valid account whose holder name is derived from the number.
 */
export const SANDBOX_ACCOUNTS = {
  /** account inquiry: account not found */
  notFound: { bank: '0000000404', ewallet: '0800000404' },
  /** account inquiry: account closed or blocked */
  blocked: { bank: '0000000403', ewallet: '0800000403' },
  /** transfer: rejected by the beneficiary bank at once -> failed */
  rejected: { bank: '0000000422', ewallet: '0800000422' },
  /** transfer: the first submission times out, the bank completes it after the delay -> success */
  timeoutThenSuccess: { bank: '0000000408', ewallet: '0800000408' },
  /** transfer: accepted, then fails after the delay -> failed */
  failAfterDelay: { bank: '0000000500', ewallet: '0800000500' },
} as const;

type Scenario = keyof typeof SANDBOX_ACCOUNTS | 'normal';

function scenarioOf(accountNo: string): Scenario {
  for (const [name, numbers] of Object.entries(SANDBOX_ACCOUNTS)) {
    if (accountNo === numbers.bank || accountNo === numbers.ewallet) return name as Scenario;
  }
  return 'normal';
}

const FIRST = [
  'BUDI',
  'SITI',
  'AGUS',
  'DEWI',
  'RINA',
  'ANDI',
  'PUTRI',
  'EKO',
  'WAHYU',
  'SRI',
  'ADI',
  'NUR',
  'DIAN',
  'YUSUF',
  'RATNA',
  'HENDRA',
];
const LAST = [
  'SANTOSO',
  'WIJAYA',
  'SAPUTRA',
  'LESTARI',
  'HIDAYAT',
  'KURNIAWAN',
  'PRATAMA',
  'RAHAYU',
  'SETIAWAN',
  'NUGROHO',
  'SUSANTO',
  'HALIM',
  'SIREGAR',
  'NASUTION',
  'GUNAWAN',
  'PURNOMO',
];

/** The same bank and number always give the same holder name, as a real bank would. */
export function sandboxHolderName(bankCode: string, accountNo: string): string {
  const digest = createHash('sha256').update(`${bankCode}:${accountNo}`).digest();
  return `${FIRST[digest[0] % FIRST.length]} ${LAST[digest[1] % LAST.length]}`;
}

export interface SandboxRailOptions {
  /** Added to every call, to make the simulator feel like a network hop */
  latencyMs: number;
  /** How long delayed outcomes (timeout-then-success, fail-after-delay) take */
  delayMs: number;
  clock?: () => Date;
}

interface TransferRow {
  idempotency_key: string;
  reference: string;
  bank_code: string;
  account_no: string;
  amount: bigint;
  outcome: 'completed' | 'failed';
  failure_reason: string | null;
  settles_at: Date;
  inserted: boolean;
}

/** A submission as the simulated bank stores it. */
interface NewTransfer {
  idempotencyKey: string;
  reference: string;
  bankCode: string;
  accountNo: string;
  amount: bigint;
  outcome: 'completed' | 'failed';
  failureReason: string | null;
  settlesAt: Date;
}

/**
 * A simulated bank, deterministic like Xendit's and Midtrans' sandboxes. It keeps its own
 * record of transfers (table sandbox_rail_transfers) keyed by our idempotency key, so a
 * retried or repeated submission is the same transfer and is never paid twice. Submissions made
 * at the same moment (a payout round's batch) are stored in one statement.
 */
export class SandboxBankRail implements BankRail {
  readonly name = 'sandbox';
  /** A simulator in our own database: no money leaves through it */
  readonly live = false;
  private readonly clock: () => Date;
  private readonly db: SqlClient;
  private readonly submissions: GroupWriter<NewTransfer, TransferRow>;

  constructor(
    pool: Pool,
    private readonly options: SandboxRailOptions,
  ) {
    this.clock = options.clock ?? (() => new Date());
    // Plain pg: the payout service calls the rail for every transfer (docs/decisions/0010).
    this.db = sqlClient(pool);
    // One row per key in a statement: ON CONFLICT DO UPDATE may not touch a row twice.
    this.submissions = new GroupWriter(
      (transfers) => this.storeMany(transfers),
      (transfer) => this.storeOne(transfer),
      { maxBatch: 200, canJoin: (t, batch) => !batch.some((b) => b.idempotencyKey === t.idempotencyKey) },
    );
  }

  async lookupAccount(bankCode: string, accountNo: string): Promise<AccountLookup> {
    await this.latency();
    const bank = findBank(bankCode);
    if (!bank) throw new UnknownBankError(bankCode);
    if (accountNumberProblem(bank, accountNo)) return { kind: 'not_found' };
    const scenario = scenarioOf(accountNo);
    if (scenario === 'notFound') return { kind: 'not_found' };
    if (scenario === 'blocked') return { kind: 'blocked' };
    return { kind: 'found', accountName: sandboxHolderName(bankCode, accountNo) };
  }

  async submitTransfer(request: TransferRequest): Promise<TransferStatus> {
    await this.latency();
    if (!findBank(request.bankCode)) throw new UnknownBankError(request.bankCode);
    const now = this.clock();
    const scenario = scenarioOf(request.accountNo);
    const delayed = scenario === 'timeoutThenSuccess' || scenario === 'failAfterDelay';
    const outcome = scenario === 'rejected' || scenario === 'failAfterDelay' ? 'failed' : 'completed';
    const reason =
      scenario === 'rejected'
        ? 'Rejected by the beneficiary bank'
        : scenario === 'failAfterDelay'
          ? 'Beneficiary bank did not confirm the transfer'
          : null;
    const settlesAt = new Date(now.getTime() + (delayed ? this.options.delayMs : 0));
    const reference = `SBX${now.getTime().toString(36).toUpperCase()}${randomBytes(5).toString('hex').toUpperCase()}`;

    const row = await this.submissions.add({
      idempotencyKey: request.idempotencyKey,
      reference,
      bankCode: request.bankCode,
      accountNo: request.accountNo,
      amount: request.amount,
      outcome,
      failureReason: reason,
      settlesAt,
    });
    if (row.bank_code !== request.bankCode || row.account_no !== request.accountNo || row.amount !== request.amount) {
      throw new Error(`idempotency key ${request.idempotencyKey} was used for a different transfer`);
    }
    if (row.inserted && scenario === 'timeoutThenSuccess') throw new RailTimeoutError();
    return this.statusOf(row);
  }

  // xmax = 0 only for a freshly inserted row: tells a first submission from a repeat.
  private async storeOne(t: NewTransfer): Promise<TransferRow> {
    const [row] = await this.db.query<TransferRow>(sql`
      INSERT INTO sandbox_rail_transfers (idempotency_key, reference, bank_code, account_no, amount, outcome, failure_reason, settles_at)
      VALUES (${t.idempotencyKey}, ${t.reference}, ${t.bankCode}, ${t.accountNo}, ${t.amount}, ${t.outcome}, ${t.failureReason}, ${t.settlesAt})
      ON CONFLICT (idempotency_key) DO UPDATE SET submissions = sandbox_rail_transfers.submissions + 1
      RETURNING idempotency_key, reference, bank_code, account_no, amount, outcome, failure_reason, settles_at, (xmax = 0) AS inserted`);
    return row;
  }

  private async storeMany(transfers: NewTransfer[]): Promise<TransferRow[]> {
    const col = <K extends keyof NewTransfer>(k: K) => transfers.map((t) => t[k]);
    const rows = await this.db.query<TransferRow>(sql`
      INSERT INTO sandbox_rail_transfers (idempotency_key, reference, bank_code, account_no, amount, outcome, failure_reason, settles_at)
      SELECT * FROM unnest(${col('idempotencyKey')}::text[], ${col('reference')}::text[], ${col('bankCode')}::text[], ${col('accountNo')}::text[],
                           ${col('amount').map(String)}::bigint[], ${col('outcome')}::text[], ${col('failureReason')}::text[], ${col('settlesAt')}::timestamptz[])
      ON CONFLICT (idempotency_key) DO UPDATE SET submissions = sandbox_rail_transfers.submissions + 1
      RETURNING idempotency_key, reference, bank_code, account_no, amount, outcome, failure_reason, settles_at, (xmax = 0) AS inserted`);
    const byKey = new Map(rows.map((r) => [r.idempotency_key, r]));
    return transfers.map((t) => byKey.get(t.idempotencyKey) as TransferRow);
  }

  async transferStatus(idempotencyKey: string): Promise<TransferStatus | null> {
    await this.latency();
    const [row] = await this.db.query<TransferRow>(sql`
      SELECT idempotency_key, reference, bank_code, account_no, amount, outcome, failure_reason, settles_at, false AS inserted
        FROM sandbox_rail_transfers WHERE idempotency_key = ${idempotencyKey}`);
    return row ? this.statusOf(row) : null;
  }

  private statusOf(row: TransferRow): TransferStatus {
    const remaining = row.settles_at.getTime() - this.clock().getTime();
    if (remaining > 0) return { state: 'processing', reference: row.reference, checkAfterMs: remaining };
    if (row.outcome === 'completed')
      return { state: 'completed', reference: row.reference, completedAt: row.settles_at };
    return {
      state: 'failed',
      reference: row.reference,
      reason: row.failure_reason ?? 'Transfer failed',
      // Refused at once, or failed after the delay (scenarios rejected, failAfterDelay).
      code: row.failure_reason?.startsWith('Rejected')
        ? PayoutFailureCode.RejectedByBank
        : PayoutFailureCode.BankFailed,
      failedAt: row.settles_at,
    };
  }

  private async latency(): Promise<void> {
    if (this.options.latencyMs > 0) await new Promise((r) => setTimeout(r, this.options.latencyMs));
  }
}
