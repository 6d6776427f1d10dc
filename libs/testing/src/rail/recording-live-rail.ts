import type { AccountLookup, BankRail, TransferRequest, TransferStatus } from '@pay/bank-rail';

/**
 * The smallest rail that says it moves real money (`live`), for tests only: it records every
 * transfer it is asked to send and completes it at once, one transfer per idempotency key.
 * It stands in for a real bank until the SNAP provider simulator exists (issue 40), which
 * replaces it in the tests that need a live rail.
 */
export class RecordingLiveRail implements BankRail {
  readonly live = true;
  readonly name = 'live-test';
  /** Every submission, in order, repeats included: what the "bank" was asked to send */
  readonly sent: TransferRequest[] = [];
  private readonly transfers = new Map<string, TransferStatus>();

  lookupAccount(): Promise<AccountLookup> {
    return Promise.resolve({ kind: 'found', accountName: 'LIVE ACCOUNT HOLDER' });
  }

  submitTransfer(request: TransferRequest): Promise<TransferStatus> {
    this.sent.push(request);
    let status = this.transfers.get(request.idempotencyKey);
    if (!status) {
      status = { state: 'completed', reference: `LIVE-${this.transfers.size + 1}`, completedAt: new Date() };
      this.transfers.set(request.idempotencyKey, status);
    }
    return Promise.resolve(status);
  }

  transferStatus(idempotencyKey: string): Promise<TransferStatus | null> {
    return Promise.resolve(this.transfers.get(idempotencyKey) ?? null);
  }
}
