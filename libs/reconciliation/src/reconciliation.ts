import {
  type AdjustBooksCommand,
  ledgerCommandId,
  PLATFORM_MERCHANT_ID,
  type RailFeeCommand,
  type SettleAcquirerCommand,
} from '@pay/contracts';
import { Account, nameBasedUuid, SANDBOX_ACQUIRER_ACCOUNT } from '@pay/domain';
import { enqueueLedgerCommandSql, inTransaction, type SqlClient } from '@pay/persistence';
import type { Pool } from 'pg';
import { reconcileDay } from './matching/reconcile-day';
import type { BatchBooking, SettlementReport, StatementLine } from './matching/recon-types';
import {
  ledgerPayins,
  ledgerPayouts,
  ledgerRailFees,
  ledgerRefunds,
  recordBooking,
  refundsReportedElsewhere,
  reportOf,
  saveBreaks,
  settlementLines,
  settlementRefunds,
  type SourceOrigin,
  statementOf,
  storeReport,
  storeStatement,
  upsertRun,
} from './store/recon.repository';
import { type DayReport, readDayReport } from './store/day-report.query';

export interface ReconSettings {
  /** The acquirer's account name in the books (`qris`; `sandbox` for the simulator's sandbox money) */
  acquirer: string;
  /** The rail whose bank account the statement is of (`snap`) */
  rail: string;
  /** T+n: the settlement date expected of a day's pay-ins */
  settlementLagDays: number;
}

const RECON_LOCK = 43_0004;

/**
 * Three-way reconciliation of a day (docs/operations/reconciliation.md): ingest the acquirer's
 * settlement report and the bank's statement, match them against the ledger, keep the breaks, and
 * book what matched (one acquirer.settle per credited batch, its difference into suspense, the
 * bank's fees) through the outbox, each command once however often the day is run.
 */
export class Reconciliation {
  constructor(
    private readonly pool: Pool,
    readonly settings: ReconSettings,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Stores the day's report, its payment and its refund lines (replacing one ingested before). */
  ingestReport(date: string, report: SettlementReport, origin: SourceOrigin, by: string): Promise<void> {
    return inTransaction(this.pool, (tx) =>
      storeReport(tx, { acquirer: this.settings.acquirer, date, origin, by }, report),
    );
  }

  ingestStatement(date: string, lines: readonly StatementLine[], origin: SourceOrigin, by: string): Promise<void> {
    return inTransaction(this.pool, (tx) => storeStatement(tx, { rail: this.settings.rail, date, origin, by }, lines));
  }

  /** Reconciles the day with what was ingested; run again, the same breaks and no second booking. */
  async run(date: string, by: string): Promise<DayReport> {
    const { acquirer, rail, settlementLagDays } = this.settings;
    const sandbox = acquirer === SANDBOX_ACQUIRER_ACCOUNT;
    await inTransaction(
      this.pool,
      async (tx) => {
        const report = await reportOf(tx, acquirer, date);
        const statement = await statementOf(tx, rail, date);
        const ids = (type: 'CREDIT' | 'DEBIT') =>
          (statement ?? []).filter((l) => l.type === type).map((l) => l.transactionId);
        const lines = await settlementLines(tx, acquirer, date, ids('CREDIT'));
        const batchRefunds = await settlementRefunds(tx, acquirer, [...new Set(lines.map((l) => l.batchId))]);
        const named = [...(report?.refunds ?? []), ...batchRefunds];
        const refunds = await ledgerRefunds(tx, {
          sandbox,
          date,
          ids: named.flatMap((l) => (l.partnerRefundNo ? [l.partnerRefundNo] : [])),
          rrns: [...new Set(named.filter((l) => !l.partnerRefundNo).map((l) => l.rrn))],
        });
        const result = reconcileDay({
          date,
          settlementLagDays,
          payins: await ledgerPayins(tx, { sandbox, date }),
          report: report?.lines ?? null,
          reportRefunds: report?.refunds,
          refunds,
          refundsReportedElsewhere: await refundsReportedElsewhere(
            tx,
            acquirer,
            date,
            refunds.map((r) => r.refundId),
          ),
          statement,
          settlementLines: lines,
          settlementRefunds: batchRefunds,
          settlementPayins: await ledgerPayins(tx, { sandbox, rrns: [...new Set(lines.map((l) => l.rrn))] }),
          payouts: await ledgerPayouts(tx, rail, date, ids('DEBIT')),
          railFees: await ledgerRailFees(tx, rail, date, ids('DEBIT')),
        });
        const summary = JSON.parse(
          JSON.stringify(
            { ...result.summary, reportIngested: report !== null, statementIngested: statement !== null },
            (_k, v) => (typeof v === 'bigint' ? v.toString() : v),
          ),
        ) as object;
        const runId = await upsertRun(tx, { date, acquirer, rail, summary, by });
        await saveBreaks(tx, runId, result.breaks);
        for (const b of result.bookings) await this.book(tx, runId, date, b);
        for (const fee of result.feesToBook) {
          const command: RailFeeCommand = {
            type: 'rail.fee',
            commandId: ledgerCommandId.railFee(rail, fee.transactionId),
            merchantId: PLATFORM_MERCHANT_ID,
            issuedAt: this.clock().toISOString(),
            feeRef: fee.transactionId,
            rail,
            amount: fee.amount.toString(),
            description: fee.remark.slice(0, 200) || 'bank charge',
          };
          await this.write(tx, runId, 'rail.fee', fee.transactionId, command);
        }
      },
      { advisoryLock: [RECON_LOCK, hashDay(date)], timeoutMs: 60_000 },
    );
    return (await this.dayReport(date)) as DayReport;
  }

  dayReport(date: string): Promise<DayReport | null> {
    return readDayReport(this.pool, { ...this.settings, date });
  }

  /**
   * The batch's matched lines leave the receivable, less the refunds it netted that are ours (their
   * refund entries took them out of it already); what the bank credited beyond or short of their
   * net goes to suspense.
   */
  private async book(tx: SqlClient, runId: string, date: string, b: BatchBooking): Promise<void> {
    const { acquirer, rail } = this.settings;
    const issuedAt = this.clock().toISOString();
    const settles = b.gross > 0n && b.net >= 0n;
    if (settles) {
      const settle: SettleAcquirerCommand = {
        type: 'acquirer.settle',
        commandId: ledgerCommandId.acquirerSettle(acquirer, b.batchId),
        merchantId: PLATFORM_MERCHANT_ID,
        issuedAt,
        settlementRef: b.batchId,
        acquirer,
        rail,
        gross: b.gross.toString(),
        mdr: b.mdr.toString(),
        net: b.net.toString(),
        ...(b.refunds > 0n ? { refunds: b.refunds.toString() } : {}),
        settledOn: b.settlementDate,
      };
      await this.write(tx, runId, 'acquirer.settle', b.batchId, settle);
    }
    const moved = settles ? b.difference : b.credited;
    if (moved === 0n) return;
    const adjustmentId = nameBasedUuid(`recon:suspense:${acquirer}:${b.batchId}`);
    const adjust: AdjustBooksCommand = {
      type: 'books.adjust',
      commandId: ledgerCommandId.booksAdjust(adjustmentId),
      merchantId: PLATFORM_MERCHANT_ID,
      issuedAt,
      adjustmentId,
      postings: [
        { account: Account.bankCash(rail), amount: moved.toString() },
        { account: Account.suspense, amount: (-moved).toString() },
      ],
      reason: `reconciliation ${date}: batch ${b.batchId} credited ${b.credited}, owed ${b.net} for its matched lines`,
      requestedBy: 'reconciliation',
      approvedBy: 'reconciliation',
    };
    await this.write(tx, runId, 'books.adjust', b.batchId, adjust);
  }

  private async write(
    tx: SqlClient,
    runId: string,
    kind: string,
    reference: string,
    command: SettleAcquirerCommand | AdjustBooksCommand | RailFeeCommand,
  ): Promise<void> {
    if (await recordBooking(tx, { commandId: command.commandId, runId, kind, reference, command }))
      await enqueueLedgerCommandSql(tx, command);
  }
}

function hashDay(date: string): number {
  return Number(date.replace(/-/g, '')) % 2_147_483_647;
}
