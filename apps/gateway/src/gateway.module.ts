import { type DynamicModule, Module, type Provider } from '@nestjs/common';
import type { BankRail, SnapQrisAcquirer } from '@pay/bank-rail';
import type { PgListener, PrismaClient } from '@pay/persistence';
import type { Logger, ObjectStore, ReconExportProducer } from '@pay/platform';
import type Redis from 'ioredis';
import type { Pool } from 'pg';
import { CONSOLE_FACE } from './api/console/console.module';
import { DASHBOARD_FACE } from './api/dashboard/dashboard.module';
import { INTERNAL_FACE } from './api/internal/internal.module';
import { MERCHANT_FACE } from './api/merchant/merchant.module';
import { OPS_FACE } from './api/ops/ops.module';
import { SESSION_FACE } from './api/session/session.module';
import type { GatewayConfig } from './gateway.config';
import {
  BANK_RAIL,
  QRIS_ACQUIRER,
  GATEWAY_CONFIG,
  LOGGER,
  OBJECT_STORE,
  PG_LISTENER,
  PG_POOL,
  PRISMA,
  RECON_PRODUCER,
  REDIS,
} from './gateway.tokens';
import type { GatewayFace } from './kernel/face';
import { KernelModule } from './kernel/kernel.module';
import { ServicesModule } from './services/services.module';

export type Face = GatewayFace<GatewayConfig>;

/**
 * Every face of the gateway, in the order their routes are registered (and so their operations
 * listed in the OpenAPI documents): the merchant API, the acquirer, the ops API, the merchant
 * dashboard, the operator console, sign-in. One deployable serves them all (main.ts); serving a
 * face on its own is a list of one.
 */
export const ALL_FACES: readonly Face[] = [
  MERCHANT_FACE,
  INTERNAL_FACE,
  OPS_FACE,
  DASHBOARD_FACE,
  CONSOLE_FACE,
  SESSION_FACE,
];

/** What the app is built on: connections and clients made by gateway.app.ts, and the settings. */
export interface GatewayDeps {
  prisma: PrismaClient;
  pool: Pool;
  redis: Redis;
  rail: BankRail;
  /** The QRIS acquirer over SNAP (QRIS_ACQUIRER=snap); absent or null: we acquire our own codes */
  acquirer?: SnapQrisAcquirer | null;
  config: GatewayConfig;
  store: ObjectStore;
  reconProducer: ReconExportProducer;
  notices: PgListener;
  logger: Logger;
}

/** The app's dependencies as providers every module can inject (by the tokens of gateway.tokens.ts). */
@Module({})
class GatewayDepsModule {
  static register(deps: GatewayDeps): DynamicModule {
    const providers: Provider[] = [
      { provide: PRISMA, useValue: deps.prisma },
      { provide: PG_POOL, useValue: deps.pool },
      { provide: REDIS, useValue: deps.redis },
      { provide: BANK_RAIL, useValue: deps.rail },
      { provide: QRIS_ACQUIRER, useValue: deps.acquirer ?? null },
      { provide: GATEWAY_CONFIG, useValue: deps.config },
      { provide: OBJECT_STORE, useValue: deps.store },
      { provide: RECON_PRODUCER, useValue: deps.reconProducer },
      { provide: PG_LISTENER, useValue: deps.notices },
      { provide: LOGGER, useValue: deps.logger },
    ];
    return { module: GatewayDepsModule, global: true, providers, exports: providers };
  }
}

/** The gateway: the kernel, the services, and the modules of the faces it serves. */
@Module({})
export class GatewayModule {
  static register(deps: GatewayDeps, faces: readonly Face[] = ALL_FACES): DynamicModule {
    return {
      module: GatewayModule,
      imports: [GatewayDepsModule.register(deps), KernelModule, ServicesModule, ...faces.map((face) => face.module)],
    };
  }
}
