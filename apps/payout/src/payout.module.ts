import { type DynamicModule, Module } from '@nestjs/common';
import { LedgerEventsController } from './ledger-events.controller';
import { PAYOUT_WAKE } from './payout.tokens';

@Module({})
export class PayoutModule {
  static register(deps: { wake: () => void }): DynamicModule {
    return {
      module: PayoutModule,
      controllers: [LedgerEventsController],
      providers: [{ provide: PAYOUT_WAKE, useValue: deps.wake }],
    };
  }
}
