export { LedgerService } from './ledger/ledger.service';
export { RejectionReason } from './handlers/decision';
export { AccountFolder, foldAccountDeltas } from './books/account-fold';
