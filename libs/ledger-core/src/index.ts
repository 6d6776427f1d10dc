export { LedgerService } from './ledger/ledger.service';
export { RejectionReason } from './handlers/decision';
