import { type DynamicModule, Module } from '@nestjs/common';
import { BalanceRepository, MerchantAuthRepository, type PrismaClient } from '@pay/persistence';
import { createMetricsRegistry, type ReadinessCheck } from '@pay/platform';
import { MerchantAuthGuard } from './auth/merchant-auth.guard';
import { BalanceController } from './balance/balance.controller';
import { HealthController, METRICS_REGISTRY, READINESS_CHECKS } from './health/health.controller';

export const PRISMA = Symbol('PRISMA');

@Module({})
export class GatewayModule {
  static register(deps: { prisma: PrismaClient }): DynamicModule {
    const checks: ReadinessCheck[] = [{ name: 'postgres', check: async () => void (await deps.prisma.$queryRaw`SELECT 1`) }];
    return {
      module: GatewayModule,
      controllers: [BalanceController, HealthController],
      providers: [
        { provide: PRISMA, useValue: deps.prisma },
        { provide: MerchantAuthRepository, useFactory: () => new MerchantAuthRepository(deps.prisma) },
        { provide: BalanceRepository, useFactory: () => new BalanceRepository(deps.prisma) },
        { provide: READINESS_CHECKS, useValue: checks },
        { provide: METRICS_REGISTRY, useFactory: () => createMetricsRegistry('gateway') },
        MerchantAuthGuard,
      ],
    };
  }
}
