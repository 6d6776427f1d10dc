import { plainToInstance } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  Min,
  ValidateBy,
  validateSync,
} from 'class-validator';

/** Minor units travel as decimal strings: JSON has no bigint. */
const MINOR_UNITS = /^(0|[1-9]\d{0,18})$/;

export const LEDGER_COMMAND_TYPES = [
  'payin.record',
  'settlement.credit',
  'payout.debit',
  'payout.refund',
  'payout.send',
  'payout.confirm',
  'payout.reverse',
  'acquirer.settle',
  'rail.fee',
  'books.adjust',
  'payin.refund',
  'payin.refund_return',
] as const;

/** Commands about the platform's own books, not one merchant's: merchantId 0 (books.adjust may name a merchant). */
export const PLATFORM_MERCHANT_ID = 0;
export type LedgerCommandType = (typeof LEDGER_COMMAND_TYPES)[number];

/** Fields every ledger command carries. `commandId` is deterministic, so a retry is recognised. */
abstract class LedgerCommandBase {
  @IsIn(LEDGER_COMMAND_TYPES)
  type!: LedgerCommandType;

  @IsString()
  @MaxLength(200)
  commandId!: string;

  /** The merchant whose money the command moves; 0 for the platform's own books (acquirer.settle, rail.fee, books.adjust) */
  @IsInt()
  @Min(0)
  merchantId!: number;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  logId?: string;

  @IsISO8601()
  issuedAt!: string;
}

/** A successful pay-in: amount minus fee goes into pending. */
export class RecordPayinCommand extends LedgerCommandBase {
  override type = 'payin.record' as const;

  @IsUUID()
  payinId!: string;

  @Matches(MINOR_UNITS)
  amount!: string;

  @Matches(MINOR_UNITS)
  fee!: string;

  /**
   * Paid by the sandbox payer, not the acquirer: sandbox money, never paid out over a live rail.
   * Producers write it only then; a command without it (every command from before the mark) is not sandbox.
   */
  @IsOptional()
  @IsBoolean()
  sandbox?: boolean;
}

/** A set of recorded, unsettled pay-ins moves from pending to available. */
export class CreditSettlementCommand extends LedgerCommandBase {
  override type = 'settlement.credit' as const;

  @IsUUID()
  settlementId!: string;

  @ArrayMinSize(1)
  @ArrayMaxSize(100000)
  @IsUUID('all', { each: true })
  payinIds!: string[];

  /** Pay-ins that succeeded before this instant belong to the settlement (scheduled runs) */
  @IsOptional()
  @IsISO8601()
  cutoffAt?: string;
}

/** A payout takes amount + fee out of available, or is refused when available would go below zero. */
export class DebitPayoutCommand extends LedgerCommandBase {
  override type = 'payout.debit' as const;

  @IsString()
  @MaxLength(100)
  payoutId!: string;

  @Matches(MINOR_UNITS)
  amount!: string;

  @Matches(MINOR_UNITS)
  fee!: string;
}

/** A failed payout: the whole debited total goes back into available. */
export class RefundPayoutCommand extends LedgerCommandBase {
  override type = 'payout.refund' as const;

  @IsString()
  @MaxLength(100)
  payoutId!: string;

  @IsOptional()
  @IsString()
  @MaxLength(500)
  reason?: string;
}

/** A rail's name as the payout service knows it (its provider): names the books' in-transit and cash accounts. */
const RAIL_NAME = /^[A-Za-z0-9][A-Za-z0-9 _.()-]{0,59}$/;

/**
 * A debited payout handed to its rail's bank (the books: payable -> the rail's in-transit).
 * Booked on the platform's side only; the merchant's balance does not move.
 */
export class SendPayoutCommand extends LedgerCommandBase {
  override type = 'payout.send' as const;

  @IsString()
  @MaxLength(100)
  payoutId!: string;

  @Matches(RAIL_NAME)
  rail!: string;
}

/** The bank confirmed a payout (the books: the rail's in-transit -> its bank cash). */
export class ConfirmPayoutCommand extends LedgerCommandBase {
  override type = 'payout.confirm' as const;

  @IsString()
  @MaxLength(100)
  payoutId!: string;

  @Matches(RAIL_NAME)
  rail!: string;
}

/**
 * A successful payout the beneficiary's bank returned days later: the money is back in the
 * platform's bank account and everything the merchant was debited goes back into available.
 */
export class ReversePayoutCommand extends LedgerCommandBase {
  override type = 'payout.reverse' as const;

  @IsString()
  @MaxLength(100)
  payoutId!: string;

  @IsString()
  @MaxLength(500)
  reason!: string;
}

/** Signed minor units (a posting: debit positive, credit negative). */
const SIGNED_MINOR_UNITS = /^-?(0|[1-9]\d{0,18})$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The acquirer settled a batch of pay-ins into the platform's bank account: gross less the
 * refunds it netted leaves the acquirer's receivable, the MDR it kept is an expense, the net
 * (gross − MDR − refunds) is cash (a platform entry).
 */
export class SettleAcquirerCommand extends LedgerCommandBase {
  override type = 'acquirer.settle' as const;

  /** The acquirer's settlement (batch) reference, one booking each */
  @IsString()
  @MaxLength(100)
  settlementRef!: string;

  @Matches(RAIL_NAME)
  acquirer!: string;

  /** The bank account (rail) the net arrived in */
  @Matches(RAIL_NAME)
  rail!: string;

  @Matches(MINOR_UNITS)
  gross!: string;

  @Matches(MINOR_UNITS)
  mdr!: string;

  @Matches(MINOR_UNITS)
  net!: string;

  /** The refunds the acquirer netted from the batch (its refund lines matched to ours); absent: none */
  @IsOptional()
  @Matches(MINOR_UNITS)
  refunds?: string;

  /** The day the acquirer settled (its report's settlement date) */
  @Matches(ISO_DATE)
  settledOn!: string;
}

/** What a rail's bank charged the platform (a line of its statement): an expense out of its cash. */
export class RailFeeCommand extends LedgerCommandBase {
  override type = 'rail.fee' as const;

  @IsString()
  @MaxLength(100)
  feeRef!: string;

  @Matches(RAIL_NAME)
  rail!: string;

  @Matches(MINOR_UNITS)
  amount!: string;

  @IsString()
  @MaxLength(200)
  description!: string;
}

/**
 * A merchant's refund of one of its pay-ins (issue 44): the amount leaves the merchant's pending
 * while the pay-in is unsettled (up to what is left of its net there, the rest from available),
 * its available once settled; refused when that does not cover it. The refund's row says the rest.
 */
export class RefundPayinCommand extends LedgerCommandBase {
  override type = 'payin.refund' as const;

  /** Our refund's id (payin_refunds.id), not the merchant's refundId */
  @IsUUID()
  refundId!: string;

  @IsUUID()
  payinId!: string;

  @Matches(MINOR_UNITS)
  amount!: string;
}

/** The acquirer refused a debited refund: the money goes back where the debit took it from, once. */
export class ReturnPayinRefundCommand extends LedgerCommandBase {
  override type = 'payin.refund_return' as const;

  @IsUUID()
  refundId!: string;

  @IsString()
  @MaxLength(500)
  reason!: string;
}

export interface PostingLine {
  account: string;
  /** Signed minor units: debit positive, credit negative */
  amount: string;
}

/** Each element `{ account, amount }`: an account code and signed minor units (whether they balance is the ledger's to say). */
function IsPostingLines() {
  return ValidateBy({
    name: 'isPostingLines',
    validator: {
      validate: (value: unknown) =>
        Array.isArray(value) &&
        value.every(
          (p) =>
            typeof p === 'object' &&
            p !== null &&
            Object.keys(p).sort().join(',') === 'account,amount' &&
            typeof p.account === 'string' &&
            p.account.length <= 120 &&
            typeof p.amount === 'string' &&
            SIGNED_MINOR_UNITS.test(p.amount),
        ),
      defaultMessage: () => 'each posting must be { account, amount } with amount in signed minor units',
    },
  });
}

/**
 * A manual adjustment, approved by a second operator before it is sent: balanced postings
 * between accounts of the chart. One that moves a merchant's available is that merchant's
 * event (`balance.adjusted`), refused if it would overdraw; otherwise a platform entry.
 */
export class AdjustBooksCommand extends LedgerCommandBase {
  override type = 'books.adjust' as const;

  @IsUUID()
  adjustmentId!: string;

  @ArrayMinSize(2)
  @ArrayMaxSize(20)
  @IsPostingLines()
  postings!: PostingLine[];

  @IsString()
  @MaxLength(500)
  reason!: string;

  /** The operators who asked for and approved it */
  @IsString()
  @MaxLength(200)
  requestedBy!: string;

  @IsString()
  @MaxLength(200)
  approvedBy!: string;
}

export type LedgerCommand =
  | SettleAcquirerCommand
  | RailFeeCommand
  | AdjustBooksCommand
  | RecordPayinCommand
  | CreditSettlementCommand
  | DebitPayoutCommand
  | RefundPayoutCommand
  | SendPayoutCommand
  | ConfirmPayoutCommand
  | ReversePayoutCommand
  | RefundPayinCommand
  | ReturnPayinRefundCommand;

const CLASSES: Record<LedgerCommandType, new () => LedgerCommand> = {
  'payin.record': RecordPayinCommand,
  'settlement.credit': CreditSettlementCommand,
  'payout.debit': DebitPayoutCommand,
  'payout.refund': RefundPayoutCommand,
  'payout.send': SendPayoutCommand,
  'payout.confirm': ConfirmPayoutCommand,
  'payout.reverse': ReversePayoutCommand,
  'acquirer.settle': SettleAcquirerCommand,
  'rail.fee': RailFeeCommand,
  'books.adjust': AdjustBooksCommand,
  'payin.refund': RefundPayinCommand,
  'payin.refund_return': ReturnPayinRefundCommand,
};

/** A message that can never be processed: the bus dead-letters it at once (see classifyFault in @pay/platform). */
export class InvalidMessageError extends Error {
  readonly permanent = true;
  constructor(readonly problems: string[]) {
    super(`invalid message: ${problems.join('; ')}`);
    this.name = 'InvalidMessageError';
  }
}

/** Validates a received command (JSON text or already-parsed value) before anything acts on it. */
export function parseLedgerCommand(input: unknown): LedgerCommand {
  let plain: unknown = input;
  if (typeof input === 'string') {
    try {
      plain = JSON.parse(input);
    } catch {
      throw new InvalidMessageError(['not JSON']);
    }
  }
  const type = (plain as { type?: unknown } | null)?.type;
  const cls = typeof type === 'string' ? CLASSES[type as LedgerCommandType] : undefined;
  if (!cls) throw new InvalidMessageError([`unknown command type ${JSON.stringify(type)}`]);
  const command = plainToInstance(cls, plain);
  const errors = validateSync(command, { whitelist: true, forbidNonWhitelisted: true });
  if (errors.length) {
    throw new InvalidMessageError(errors.map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join(', ')}`));
  }
  return command;
}

/** Deterministic command ids: the same business fact always yields the same id, so retries are recognised. */
export const ledgerCommandId = {
  payinRecord: (payinId: string) => `payin.record:${payinId}`,
  settlementCredit: (settlementId: string) => `settlement.credit:${settlementId}`,
  payoutDebit: (payoutId: string) => `payout.debit:${payoutId}`,
  payoutRefund: (payoutId: string) => `payout.refund:${payoutId}`,
  payoutSend: (payoutId: string) => `payout.send:${payoutId}`,
  payoutConfirm: (payoutId: string) => `payout.confirm:${payoutId}`,
  payoutReverse: (payoutId: string) => `payout.reverse:${payoutId}`,
  acquirerSettle: (acquirer: string, settlementRef: string) => `acquirer.settle:${acquirer}:${settlementRef}`,
  railFee: (rail: string, feeRef: string) => `rail.fee:${rail}:${feeRef}`,
  booksAdjust: (adjustmentId: string) => `books.adjust:${adjustmentId}`,
  payinRefund: (refundId: string) => `payin.refund:${refundId}`,
  payinRefundReturn: (refundId: string) => `payin.refund_return:${refundId}`,
};
