/**
 * Why a payout failed, as merchants read it (disbursement inquiry, the callback, the lists, the
 * dashboard): a stable code beside the human `failureReason` (which carries the bank's own code).
 * A failed payout is always refunded in full.
 */
export enum PayoutFailureCode {
  /** The beneficiary account does not exist at its bank */
  AccountNotFound = 'ACCOUNT_NOT_FOUND',
  /** The beneficiary account exists but is inactive, blocked or dormant */
  AccountInactive = 'ACCOUNT_INACTIVE',
  /** The beneficiary bank cannot be reached on the route the transfer took */
  BankUnreachable = 'BANK_UNREACHABLE',
  /** Above a limit of the bank's for one transfer */
  AmountLimit = 'AMOUNT_LIMIT',
  /** The bank refused it (do not honor, not permitted, suspected fraud, a field it rejects) */
  RejectedByBank = 'REJECTED_BY_BANK',
  /** The bank accepted it, then reported it failed */
  BankFailed = 'BANK_FAILED',
  /** The platform's own account at the bank could not cover it (the operators are paged) */
  SourceInsufficientFunds = 'SOURCE_INSUFFICIENT_FUNDS',
  /** Sandbox money is never paid out over a live bank rail */
  SandboxMoney = 'SANDBOX_MONEY',
  /** The merchant's approver rejected it before it was sent (docs/payout-approvals.md) */
  ApprovalRejected = 'APPROVAL_REJECTED',
  /** No approver decided within the merchant's approval time */
  ApprovalExpired = 'APPROVAL_EXPIRED',
}

/** What each code means, for the merchant documentation and the dashboard. */
export const PAYOUT_FAILURE_TEXT: Record<PayoutFailureCode, string> = {
  [PayoutFailureCode.AccountNotFound]: 'The beneficiary account does not exist at its bank: check the account number',
  [PayoutFailureCode.AccountInactive]: 'The beneficiary account is inactive, blocked or dormant',
  [PayoutFailureCode.BankUnreachable]: 'The beneficiary bank could not be reached: try again later',
  [PayoutFailureCode.AmountLimit]: "Above the bank's limit for one transfer: send smaller amounts",
  [PayoutFailureCode.RejectedByBank]: 'The bank refused the transfer',
  [PayoutFailureCode.BankFailed]: 'The bank accepted the transfer, then reported it failed',
  [PayoutFailureCode.SourceInsufficientFunds]:
    "The platform's account at the bank could not cover it (our side, being fixed): send it again later",
  [PayoutFailureCode.SandboxMoney]: 'Sandbox money is never paid out over a live bank rail',
  [PayoutFailureCode.ApprovalRejected]: "Rejected by the merchant's approver before it was sent",
  [PayoutFailureCode.ApprovalExpired]: "Not approved within the merchant's approval time, so never sent",
};
