import { type DynamicModule, Module } from '@nestjs/common';
import { LedgerEventsController, PAYOUT_WAKE } from './ledger-events.controller';

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
