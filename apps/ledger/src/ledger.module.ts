import { type DynamicModule, Module } from '@nestjs/common';
import { LedgerService } from '@pay/ledger-core';
import type { PrismaClient } from '@pay/persistence';
import type { Logger } from '@pay/platform';
import { LedgerCommandsController, LOGGER } from './ledger-commands.controller';

@Module({})
export class LedgerModule {
  static register(deps: { prisma: PrismaClient; logger: Logger }): DynamicModule {
    return {
      module: LedgerModule,
      controllers: [LedgerCommandsController],
      providers: [
        { provide: LedgerService, useFactory: () => new LedgerService(deps.prisma) },
        { provide: LOGGER, useValue: deps.logger },
      ],
    };
  }
}
