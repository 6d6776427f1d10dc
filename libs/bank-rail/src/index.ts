export {
  type AccountLookup,
  type BankRail,
  type TransferRequest,
  type TransferStatus,
  RailTimeoutError,
  UnknownBankError,
} from './bank-rail';
export {
  SandboxBankRail,
  type SandboxRailOptions,
  SANDBOX_ACCOUNTS,
  sandboxHolderName,
} from './sandbox/sandbox-bank-rail';
export {
  createBankRail,
  railEnvShape,
  railSection,
  refineRailEnv,
  type RailConfig,
  type RailProvider,
} from './rail.config';
export { SANDBOX_MONEY_REFUSAL, sendsSandboxMoney } from './sandbox-money';
export {
  SNAP_BANK_CODES,
  SnapBankRail,
  type SnapRailHooks,
  STATEMENT_MAX_PAGES,
  type StatementAnswer,
} from './snap/snap-bank-rail';
export {
  readSnapCredentials,
  type SnapCredentials,
  snapEnvShape,
  type SnapRailConfig,
  snapSection,
} from './snap/snap.config';
export {
  type AcquirerConfig,
  acquirerEnvShape,
  acquirerSection,
  createQrisAcquirer,
  refineAcquirerEnv,
} from './snap/snap-acquirer.config';
export {
  type NotificationReading,
  type QrGenerated,
  type QrNotification,
  type QrState,
  type RefundResult,
  SnapQrisAcquirer,
} from './snap/snap-qris-acquirer';
