import { Controller, Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type LedgerEventMessage, LedgerEventType, Topic } from '@pay/contracts';
import { PAYOUT_WAKE } from './payout.tokens';

/**
 * A debit recorded by the ledger is a disbursement ready to pay out. The payout loop hears of
 * it first from the ledger's NOTIFY at commit (the event only reaches the bus after the outbox
 * relay), so this wakes the loop only while that LISTEN connection is down (`wake` decides).
 * The events waiting on a partition come as one batch: one wake-up, one acknowledgement.
 */
@Controller()
export class LedgerEventsController {
  constructor(@Inject(PAYOUT_WAKE) private readonly wake: () => void) {}

  @EventPattern(Topic.LedgerEvents, { batch: true })
  handle(@Payload() messages: LedgerEventMessage[]): void {
    if (messages.some((m) => m?.kind === 'event' && m.eventType === LedgerEventType.PayoutDebited)) this.wake();
  }
}
