import { acquirerEnvShape, acquirerSection, refineAcquirerEnv, snapEnvShape } from '@pay/bank-rail';
import { busConfigFromEnv, busEnvShape, refineBusEnv } from '@pay/bus';
import { databaseEnvShape, databaseSection } from '@pay/persistence';
import {
  bool,
  opsEnvShape,
  opsSection,
  positiveInt,
  queueEnvShape,
  queueSection,
  redisEnvShape,
  redisSection,
  refuseLoopbackInProduction,
  refusePublishedStorageCredentials,
  serviceEnvShape,
  serviceSection,
  storageEnvShape,
  storageSection,
  webhookEnvShape,
} from '@pay/platform';
import { z } from 'zod';
import { reconDailyEnvShape, reconDailySection, refineReconDailyEnv } from './recon/recon-daily.config';

/**
 * Every setting of the workers service (docs/operations/configuration.md), validated once at
 * start-up into the typed config the service reads.
 */
export const workersConfigSchema = z
  .object({
    ...serviceEnvShape,
    ...databaseEnvShape,
    ...redisEnvShape,
    ...queueEnvShape,
    ...opsEnvShape(9103),
    WEBHOOK_TIMEOUT_MS: positiveInt()
      .max(60_000)
      .default(10_000)
      .meta({ description: 'A webhook attempt gives up after this long in all (connect + response)' }),
    WEBHOOK_CONNECT_TIMEOUT_MS: positiveInt().max(60_000).default(3_000).meta({
      description:
        "A webhook attempt gives up when the connection to the merchant's host (name lookup, TCP, TLS) is not made within this long",
    }),
    WEBHOOK_FIRST_BYTE_TIMEOUT_MS: positiveInt().max(60_000).default(5_000).meta({
      description:
        'A webhook attempt gives up when the answer (status line and headers) has not begun this long after connecting',
    }),
    WEBHOOK_MAX_RESPONSE_BYTES: positiveInt()
      .max(1_048_576)
      .default(4096)
      .meta({ description: 'Response bytes read per attempt; the first 1 KiB is stored' }),
    WEBHOOK_CONCURRENCY: positiveInt()
      .max(200)
      .default(20)
      .meta({ description: 'Parallel webhook attempts per workers process' }),
    WEBHOOK_MERCHANT_CONCURRENCY: positiveInt().max(200).default(5).meta({
      description:
        "Webhook attempts of one merchant in flight at most, across all workers processes; its other due callbacks wait (none is dropped, its retry schedule is unchanged), so one merchant's slow endpoint cannot take every slot",
    }),
    WEBHOOK_DISPATCH_INTERVAL_MS: positiveInt().max(60_000).default(5_000).meta({
      description:
        "The dispatcher's safety-net round (a lost notification, attempts abandoned by a worker that died); new deliveries and resends wake it at commit, scheduled retries are claimed when due",
    }),
    WEBHOOK_LEASE_GRACE_MS: positiveInt()
      .max(600_000)
      .default(30_000)
      .meta({ description: 'Added to WEBHOOK_TIMEOUT_MS: after that an attempt whose worker died is taken over' }),
    SETTLEMENT_SCAN_INTERVAL_MS: positiveInt().max(3_600_000).default(60_000).meta({
      description: 'How often the settlement schedule is checked (each merchant settles T+n at its hour, Asia/Jakarta)',
    }),
    PAYIN_EXPIRY_SCAN_INTERVAL_MS: positiveInt().max(3_600_000).default(30_000).meta({
      description:
        'How often pending QRIS codes past their expiry are moved to `expired` (and their payin.expired callbacks written); with QRIS_ACQUIRER=snap each is first asked about at the acquirer',
    }),
    SANDBOX_MODE: bool().optional().meta({
      description:
        "Walk the merchants' sandbox clocks (POST /api/v1/sandbox/clock/advance on a gateway in SANDBOX_MODE): at each instant of an advance, that merchant's due settlements, QR expiries and callback retries fire at the clock's time. Off: clocks are never read, every due time is real time",
      defaultText: '`true`, except `false` with NODE_ENV=production',
      production: 'refuses `true`',
    }),
    RECON_STALL_MS: positiveInt()
      .min(1000)
      .max(600_000)
      .default(30_000)
      .meta({ description: 'A recon export attempt whose CSV has not moved for this long is abandoned and retried' }),
    ...webhookEnvShape,
    ...storageEnvShape,
    ...busEnvShape,
    ...snapEnvShape,
    ...acquirerEnvShape,
    ...reconDailyEnvShape,
  })
  .superRefine((c, ctx) => {
    refineBusEnv(c, ctx);
    refineAcquirerEnv(c, ctx);
    refineReconDailyEnv(c, ctx);
    refuseLoopbackInProduction(c, ctx);
    if (c.NODE_ENV === 'production' && c.SANDBOX_MODE === true)
      ctx.addIssue({
        code: 'custom',
        path: ['SANDBOX_MODE'],
        message:
          'must not be true when NODE_ENV=production (a sandbox clock moves settlements and callbacks ahead of time)',
      });
    refusePublishedStorageCredentials(c, { OPS_HOST: c.OPS_HOST }, ctx);
  })
  .transform((env) => ({
    ...serviceSection(env),
    database: databaseSection(env, 'workers'),
    redis: redisSection(env),
    queues: queueSection(env),
    ops: opsSection(env),
    bus: busConfigFromEnv(env, 'workers'),
    storage: storageSection(env),
    webhooks: {
      allowLoopback: env.WEBHOOK_ALLOW_LOOPBACK,
      allowPrivateHosts: env.WEBHOOK_ALLOW_PRIVATE_HOSTS,
      timeoutMs: env.WEBHOOK_TIMEOUT_MS,
      connectTimeoutMs: env.WEBHOOK_CONNECT_TIMEOUT_MS,
      firstByteTimeoutMs: env.WEBHOOK_FIRST_BYTE_TIMEOUT_MS,
      maxResponseBytes: env.WEBHOOK_MAX_RESPONSE_BYTES,
      concurrency: env.WEBHOOK_CONCURRENCY,
      merchantConcurrency: env.WEBHOOK_MERCHANT_CONCURRENCY,
      dispatchIntervalMs: env.WEBHOOK_DISPATCH_INTERVAL_MS,
      leaseGraceMs: env.WEBHOOK_LEASE_GRACE_MS,
    },
    settlement: { scanIntervalMs: env.SETTLEMENT_SCAN_INTERVAL_MS },
    payins: {
      expiryScanIntervalMs: env.PAYIN_EXPIRY_SCAN_INTERVAL_MS,
      /** Who is asked about codes before they expire (QRIS_ACQUIRER=snap) */
      acquirer: acquirerSection(env),
      clockSkewMs: env.ACQUIRER_CLOCK_SKEW_SECONDS * 1000,
    },
    recon: { stallMs: env.RECON_STALL_MS },
    /** Sandbox clocks are walked (and read for callback times); never in production */
    sandbox: env.SANDBOX_MODE ?? env.NODE_ENV !== 'production',
    /** The daily reconciliation over SNAP; null: off */
    reconDaily: reconDailySection(env),
  }));

export type WorkersConfig = z.output<typeof workersConfigSchema>;
