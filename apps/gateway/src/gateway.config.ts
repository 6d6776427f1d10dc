import { railEnvShape } from '@pay/bank-rail';
import { bool, commonEnv, port, positiveInt, refuseLoopbackInProduction, serviceEnv, storageEnvShape, webhookEnv } from '@pay/platform';
import { z } from 'zod';
import { rateLimitEnvShape } from './rate-limit/rate-limit.config';

/** Every setting of the gateway; validated once at start-up (see .env.example). */
export const gatewayConfigSchema = z.object({
  ...serviceEnv,
  GATEWAY_PORT: port().default(3000),
  GATEWAY_HOST: z.string().min(1).default('0.0.0.0'),
  /**
   * Which proxies may set X-Forwarded-For (Fastify `trustProxy` / proxy-addr syntax: comma-separated
   * addresses/CIDRs or loopback, linklocal, uniquelocal). Empty: none, the socket peer is the client.
   */
  TRUSTED_PROXIES: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean)),
  SWAGGER_ENABLED: bool().default(true),
  /** Smallest and largest transfer, in Rupiah */
  PAYOUT_MIN_AMOUNT: positiveInt().default(10_000),
  PAYOUT_MAX_AMOUNT: positiveInt().default(250_000_000),
  /** How long an account inquiry can be used for a transfer */
  INQUIRY_TTL_SECONDS: positiveInt().max(86_400).default(900),
  /** How long a transfer request waits for the ledger's debit decision before answering TRANSFER_PROCESSING */
  TRANSFER_DECISION_TIMEOUT_MS: positiveInt().max(60_000).default(10_000),
  /** Smallest and largest QRIS pay-in, in Rupiah (Bank Indonesia caps QRIS at 10,000,000) */
  PAYIN_MIN_AMOUNT: positiveInt().default(1_000),
  PAYIN_MAX_AMOUNT: positiveInt().default(10_000_000),
  /** Validity of a dynamic QRIS code when the request names none, and the longest allowed */
  QRIS_EXPIRY_DEFAULT_SECONDS: positiveInt().max(7 * 86_400).default(900),
  QRIS_EXPIRY_MAX_SECONDS: positiveInt().max(7 * 86_400).default(86_400),
  /** Shared secret of the QRIS acquirer's signed notifications (32+ characters); required in production */
  ACQUIRER_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Serve POST /api/v1/payin/qris/sandbox/pay (a simulated payer). Default: on except in production */
  SANDBOX_MODE: bool().optional(),
  /** How far the acquirer's clock may be from ours: a notification's paidAt must lie between the code's creation and now, each widened by this */
  ACQUIRER_CLOCK_SKEW_SECONDS: positiveInt().max(3_600).default(300),
  ...railEnvShape,
  ...webhookEnv,
  ...storageEnvShape,
  /** Enables /ops (webhook inspection and resend, Bull Board); at least 32 characters. Unset: /ops does not exist. */
  ADMIN_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Redis of the BullMQ queues shown by Bull Board */
  REDIS_URL: commonEnv.REDIS_URL,
  QUEUE_PREFIX: z.string().min(1).default('bull'),
  ...rateLimitEnvShape,
}).superRefine((c, ctx) => {
  if (c.PAYOUT_MIN_AMOUNT > c.PAYOUT_MAX_AMOUNT) ctx.addIssue({ code: 'custom', path: ['PAYOUT_MIN_AMOUNT'], message: 'must not exceed PAYOUT_MAX_AMOUNT' });
  refuseLoopbackInProduction(c, ctx);
  if (c.NODE_ENV === 'production' && !c.ACQUIRER_SECRET) ctx.addIssue({ code: 'custom', path: ['ACQUIRER_SECRET'], message: 'is required when NODE_ENV=production' });
  if (c.QRIS_EXPIRY_DEFAULT_SECONDS > c.QRIS_EXPIRY_MAX_SECONDS) ctx.addIssue({ code: 'custom', path: ['QRIS_EXPIRY_DEFAULT_SECONDS'], message: 'must not exceed QRIS_EXPIRY_MAX_SECONDS' });
  if (c.PAYIN_MIN_AMOUNT > c.PAYIN_MAX_AMOUNT) ctx.addIssue({ code: 'custom', path: ['PAYIN_MIN_AMOUNT'], message: 'must not exceed PAYIN_MAX_AMOUNT' });
}).transform((c) => ({
  ...c,
  // Development and tests get a fixed, well-known secret; production must configure its own.
  ACQUIRER_SECRET: c.ACQUIRER_SECRET ?? 'dev-only-acquirer-secret-0123456789abcdef',
  SANDBOX_MODE: c.SANDBOX_MODE ?? c.NODE_ENV !== 'production',
}));

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
