export { addDays, type DayInput, reconcileDay } from './matching/reconcile-day';
export { batchesOf, isFeeLine, matchStatement } from './matching/match-statement';
export { matchReport } from './matching/match-report';
export { matchRefunds, pairRefunds } from './matching/match-refunds';
export {
  type BatchBooking,
  type Break,
  BREAK_CODES,
  type BreakCode,
  type BreakSide,
  BREAK_SUBJECTS,
  type BreakSubject,
  type LedgerPayin,
  type LedgerPayout,
  type LedgerRailFee,
  type LedgerRefund,
  type ReconResult,
  type ReconSummary,
  type ReportBatch,
  type RefundLine,
  type ReportLine,
  type SettlementReport,
  type StatementLine,
} from './matching/recon-types';
export { Reconciliation, type ReconSettings } from './reconciliation';
export { type BreakView, type DayReport, readDayReports } from './store/day-report.query';
export {
  RECON_DEFAULT_LAG_DAYS,
  RECON_NOTE_MAX,
  RECON_OWNER_MAX,
  type ReconBreak,
  type ReconDayReport,
  ReconciliationDesk,
  type ReconRunSummary,
  type ReconSource,
} from './desk/reconciliation-desk';
export {
  parseReportCsv,
  parseSnapReport,
  parseSnapStatement,
  parseStatementCsv,
  REPORT_CSV_COLUMNS,
  SourceFormatError,
  STATEMENT_CSV_COLUMNS,
} from './sources/parse-sources';
export {
  reportOverSnap,
  type SnapReportSource,
  type SnapStatementSource,
  SourceUnavailableError,
  statementOverSnap,
} from './sources/snap-sources';
export { DAY_REPORT_CSV_HEADER, DAY_REPORTS_CSV_HEADER, dayReportCsv, dayReportsCsv } from './store/day-report-csv';
export { type ReconciliationFile, reconciliationFile } from './store/day-report-export';
