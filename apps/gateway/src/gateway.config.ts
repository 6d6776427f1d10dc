import { railEnvShape } from '@pay/bank-rail';
import { bool, commonEnv, port, positiveInt, refuseLoopbackInProduction, serviceEnv, webhookEnv } from '@pay/platform';
import { z } from 'zod';

/** Every setting of the gateway; validated once at start-up (see .env.example). */
export const gatewayConfigSchema = z.object({
  ...serviceEnv,
  GATEWAY_PORT: port().default(3000),
  GATEWAY_HOST: z.string().min(1).default('0.0.0.0'),
  /**
   * Which proxies may set X-Forwarded-For (Express "trust proxy" syntax: comma-separated
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
  ...railEnvShape,
  ...webhookEnv,
  /** Enables /ops (webhook inspection and resend, Bull Board); at least 32 characters. Unset: /ops does not exist. */
  ADMIN_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Redis of the BullMQ queues shown by Bull Board */
  REDIS_URL: commonEnv.REDIS_URL,
  QUEUE_PREFIX: z.string().min(1).default('bull'),
}).superRefine((c, ctx) => {
  if (c.PAYOUT_MIN_AMOUNT > c.PAYOUT_MAX_AMOUNT) ctx.addIssue({ code: 'custom', path: ['PAYOUT_MIN_AMOUNT'], message: 'must not exceed PAYOUT_MAX_AMOUNT' });
  refuseLoopbackInProduction(c, ctx);
});

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
