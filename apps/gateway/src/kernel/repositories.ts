import type { Provider } from '@nestjs/common';
import {
  AuditLogRepository,
  BalanceRepository,
  BatchRepository,
  DashboardPasswordLinkRepository,
  DashboardSessionRepository,
  DashboardUserRepository,
  DeadLetterRepository,
  DeliveryHistoryRepository,
  DisbursementRepository,
  HistoryRepository,
  MerchantAuthRepository,
  MerchantEventRepository,
  OverviewRepository,
  PayinRefundRepository,
  PayinRepository,
  PayoutApprovalRepository,
  type PrismaClient,
  ReconExportRepository,
  SettlementListRepository,
  WebhookDeliveryRepository,
} from '@pay/persistence';
import type { Pool } from 'pg';
import { PG_POOL, PRISMA } from '../gateway.tokens';

const onPool = <T>(repository: new (pool: Pool) => T): Provider => ({
  provide: repository,
  useFactory: (pool: Pool) => new repository(pool),
  inject: [PG_POOL],
});

const onPrisma = <T>(repository: new (prisma: PrismaClient) => T): Provider => ({
  provide: repository,
  useFactory: (prisma: PrismaClient) => new repository(prisma),
  inject: [PRISMA],
});

/** The repositories of libs/persistence the gateway reads and writes through: the money path's on the pg pool, the rest on Prisma. */
export const REPOSITORIES: Provider[] = [
  onPool(MerchantAuthRepository),
  onPool(BalanceRepository),
  onPool(DisbursementRepository),
  onPool(BatchRepository),
  onPool(WebhookDeliveryRepository),
  onPool(DeadLetterRepository),
  onPool(HistoryRepository),
  onPool(OverviewRepository),
  onPool(DeliveryHistoryRepository),
  onPool(MerchantEventRepository),
  onPool(SettlementListRepository),
  onPool(AuditLogRepository),
  onPool(DashboardUserRepository),
  onPool(DashboardSessionRepository),
  onPool(DashboardPasswordLinkRepository),
  onPool(PayinRefundRepository),
  onPool(PayoutApprovalRepository),
  onPrisma(PayinRepository),
  onPrisma(ReconExportRepository),
];
