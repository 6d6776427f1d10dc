export { type Minor, parseAmount, formatAmount, formatAmountString, InvalidAmountError } from './money/money';
export { type PayinFeeRate, payinFee, pctMilliToPercent, percentToPctMilli } from './fees/fees';
export { isIpAllowed, normaliseAllowlistEntry } from './ip-allowlist/ip-allowlist';
export { type BalanceChange, type BalanceState, decideDebit, type DebitDecision } from './ledger/balance';
export { type BankInfo, type BankKind, BANKS, findBank, accountNumberProblem } from './banks/bank-directory';
export { type DisbursementStatus, type PublicDisbursementStatus, canTransition, publicStatus, chargedFee } from './disbursement/disbursement-status';
export { formatJakartaDateTime } from './time/jakarta-time';
