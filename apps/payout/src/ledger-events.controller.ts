import { Controller, Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type LedgerEventMessage, LedgerEventType, Topic } from '@pay/contracts';
import { PayoutPoller } from './processing/payout.poller';

export const PAYOUT_POLLER = Symbol('PAYOUT_POLLER');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A debit recorded by the ledger is a disbursement ready to pay out: start on it at once. */
@Controller()
export class LedgerEventsController {
  constructor(@Inject(PAYOUT_POLLER) private readonly poller: PayoutPoller) {}

  @EventPattern(Topic.LedgerEvents)
  async handle(@Payload() message: LedgerEventMessage): Promise<void> {
    if (message?.kind !== 'event' || message.eventType !== LedgerEventType.PayoutDebited) return;
    // Debits of merchant disbursements carry the disbursement's UUID; others (manual corrections) are not ours.
    if (typeof message.reference !== 'string' || !UUID.test(message.reference)) return;
    await this.poller.kick(message.reference);
  }
}
