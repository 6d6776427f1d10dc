export { Topic, ConsumerGroup } from './topics/topics';
export {
  LEDGER_COMMAND_TYPES,
  type LedgerCommandType,
  type LedgerCommand,
  RecordPayinCommand,
  CreditSettlementCommand,
  DebitPayoutCommand,
  RefundPayoutCommand,
  RefundPayinCommand,
  ReturnPayinRefundCommand,
  SendPayoutCommand,
  ConfirmPayoutCommand,
  ReversePayoutCommand,
  SettleAcquirerCommand,
  RailFeeCommand,
  AdjustBooksCommand,
  type PostingLine,
  PLATFORM_MERCHANT_ID,
  InvalidMessageError,
  parseLedgerCommand,
  ledgerCommandId,
} from './ledger-commands/ledger-command';
export {
  BooksEntryType,
  LedgerEventType,
  type LedgerEventMessage,
  type LedgerOutcome,
} from './ledger-events/ledger-event';
export {
  ErrorCode,
  ERROR_HTTP_STATUS,
  ERROR_MESSAGE,
  type ErrorEnvelope,
  type SuccessEnvelope,
} from './api/error-code';
export { BackofficeError, BackofficeErrorCode } from './api/backoffice-error';
export { PayoutEventType, type PayoutEventMessage } from './payout-events/payout-event';
export { QueueName, type SettlementScanJob, type ReconExportJob } from './queues/queues';
