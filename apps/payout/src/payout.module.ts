import { type DynamicModule, Module } from '@nestjs/common';
import { LedgerEventsController, PAYOUT_POLLER } from './ledger-events.controller';
import type { PayoutPoller } from './processing/payout.poller';

@Module({})
export class PayoutModule {
  static register(deps: { poller: PayoutPoller }): DynamicModule {
    return { module: PayoutModule, controllers: [LedgerEventsController], providers: [{ provide: PAYOUT_POLLER, useValue: deps.poller }] };
  }
}
