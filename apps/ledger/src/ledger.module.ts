import { type DynamicModule, Module } from '@nestjs/common';
import { LedgerService } from '@pay/ledger-core';
import type { Pool } from 'pg';
import type { Logger } from '@pay/platform';
import { LedgerCommandsController } from './ledger-commands.controller';
import { LOGGER } from './ledger.tokens';

@Module({})
export class LedgerModule {
  static register(deps: { pool: Pool; logger: Logger }): DynamicModule {
    return {
      module: LedgerModule,
      controllers: [LedgerCommandsController],
      providers: [
        { provide: LedgerService, useFactory: () => new LedgerService(deps.pool) },
        { provide: LOGGER, useValue: deps.logger },
      ],
    };
  }
}
