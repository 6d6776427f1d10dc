import type { SettlementReport, StatementLine } from '../matching/recon-types';
import { parseSnapReport, parseSnapStatement, SourceFormatError } from './parse-sources';

/** The acquirer's settlement report over SNAP (SnapQrisAcquirer of @pay/bank-rail). */
export interface SnapReportSource {
  settlementReport(
    date: string,
  ): Promise<{ kind: 'report'; body: Record<string, unknown> } | { kind: 'unavailable'; reason: string }>;
}

/** The bank's statement over SNAP 14, every page (SnapBankRail of @pay/bank-rail). */
export interface SnapStatementSource {
  statement(
    date: string,
  ): Promise<
    { kind: 'statement'; body: Record<string, unknown>; pages: number } | { kind: 'unavailable'; reason: string }
  >;
}

/**
 * The bank or the acquirer did not give the day over SNAP: no answer, a refusal (a 5xx, our
 * signature or token refused), pages that cannot be followed, or an answer that does not read as a
 * report or statement. Nothing of it may be stored: asked again later, not reconciled without it.
 */
export class SourceUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourceUnavailableError';
  }
}

/** The acquirer's settlement report of a Jakarta day's pay-ins (and the refunds it netted), fetched and read. */
export async function reportOverSnap(acquirer: SnapReportSource, date: string): Promise<SettlementReport> {
  const answer = await acquirer.settlementReport(date);
  if (answer.kind !== 'report')
    throw new SourceUnavailableError(`the acquirer's settlement report of ${date} over SNAP: ${answer.reason}`);
  return readAnswer(`the acquirer's settlement report of ${date}`, () => parseSnapReport(answer.body));
}

/** The bank's statement of a Jakarta day, every page fetched, read, only the day's lines kept. */
export async function statementOverSnap(
  bank: SnapStatementSource,
  date: string,
): Promise<{ lines: StatementLine[]; pages: number }> {
  const answer = await bank.statement(date);
  if (answer.kind !== 'statement')
    throw new SourceUnavailableError(`the bank's statement of ${date} over SNAP: ${answer.reason}`);
  const lines = readAnswer(`the bank's statement of ${date}`, () => parseSnapStatement(answer.body, date));
  return { lines, pages: answer.pages };
}

/** An answer that does not read as a report or statement is the provider's failure, not the operator's. */
function readAnswer<T>(what: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof SourceFormatError) throw new SourceUnavailableError(`${what} over SNAP ${err.message}`);
    throw err;
  }
}
