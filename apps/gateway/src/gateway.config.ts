import { resolve } from 'node:path';
import {
  acquirerEnvShape,
  acquirerSection,
  railEnvShape,
  railSection,
  refineAcquirerEnv,
  refineRailEnv,
} from '@pay/bank-rail';
import {
  bindHost,
  bool,
  port,
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
import { DEFAULT_CONSOLE_PUBLIC_URL, DEFAULT_DASHBOARD_PUBLIC_URL } from '@pay/backoffice';
import { databaseEnvShape, databaseSection } from '@pay/persistence';
import { z } from 'zod';
import { defaultApiReferenceFile, defaultDashboardDir } from './kernel/static/dashboard-dir';
import { rateLimitEnvShape, rateLimitSection } from './kernel/rate-limit/rate-limit.config';
import { signInEnvShape, signInSection } from './kernel/rate-limit/sign-in.config';
import { refineServerLimits, serverLimitsEnvShape, serverLimitsSection } from './kernel/http/server-limits';
import { DEV_ACQUIRER_SECRET } from './kernel/security/published-secrets';
import { refuseWeakSecrets } from './kernel/security/secret-rules';
import { sandboxBesideLiveRail, sandboxPayerOn } from './kernel/security/sandbox-rules';

/** A comma-separated list of secrets being rotated out, each 32+ characters; empty outside a rotation. */
const previousSecrets = () =>
  z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().min(32, 'each secret must be at least 32 characters')))
    .meta({ typeText: 'comma-separated list (each 32+ characters)' });

/**
 * Every setting of the gateway (docs/operations/configuration.md), validated once at start-up
 * into the typed config the gateway reads.
 */
export const gatewayConfigSchema = z
  .object({
    ...serviceEnvShape,
    ...databaseEnvShape,
    GATEWAY_PORT: port()
      .default(3000)
      .meta({ description: 'The merchant API (/api/v1, /docs, /healthz, /readyz): the port the ingress exposes' }),
    GATEWAY_HOST: bindHost().meta({ description: 'Bind address of the public port (the image sets 0.0.0.0)' }),
    GATEWAY_INTERNAL_PORT: port().default(3001).meta({
      description:
        "The acquirer's notifications (/internal), operators (/ops, Bull Board), Prometheus (/metrics), /healthz, /readyz; never exposed by the ingress",
    }),
    GATEWAY_INTERNAL_HOST: bindHost().meta({
      description: 'Bind address of the internal port (the image sets 0.0.0.0)',
    }),
    ...serverLimitsEnvShape,
    TRUSTED_PROXIES: z
      .string()
      .default('')
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      )
      .meta({
        description:
          'Which proxies may set X-Forwarded-For (Fastify `trustProxy` / proxy-addr syntax: comma-separated addresses/CIDRs or loopback, linklocal, uniquelocal). Empty: none, the socket peer is the client',
        typeText: 'comma-separated list',
      }),
    SWAGGER_ENABLED: bool()
      .default(true)
      .meta({ description: 'Serve `/docs` (Swagger UI), `/docs/reference` (Redoc, offline) and `/docs/openapi.json`' }),
    DASHBOARD_DIR: z
      .string()
      .default(() => defaultDashboardDir())
      .transform((dir) => resolve(dir))
      .meta({
        description:
          "The web app's builds (merchant/ served at /dashboard/, console/ at /console/). A bundle missing there is not served (a warning at start-up), the rest of the gateway runs as usual",
        typeText: 'directory',
        defaultText: 'dist/apps/dashboard of the checkout or image the gateway runs from',
      }),
    PAYOUT_MIN_AMOUNT: positiveInt().default(10_000).meta({ description: 'Smallest transfer, in Rupiah' }),
    PAYOUT_MAX_AMOUNT: positiveInt().default(250_000_000).meta({ description: 'Largest transfer, in Rupiah' }),
    INQUIRY_TTL_SECONDS: positiveInt()
      .max(86_400)
      .default(900)
      .meta({ description: 'How long an account inquiry can be used for a transfer' }),
    TRANSFER_DECISION_TIMEOUT_MS: positiveInt().max(60_000).default(10_000).meta({
      description:
        "How long a transfer request waits for the ledger's debit decision before answering TRANSFER_PROCESSING",
    }),
    PAYIN_MIN_AMOUNT: positiveInt().default(1_000).meta({ description: 'Smallest QRIS pay-in, in Rupiah' }),
    PAYIN_MAX_AMOUNT: positiveInt()
      .default(10_000_000)
      .meta({ description: 'Largest QRIS pay-in, in Rupiah (Bank Indonesia caps QRIS at 10,000,000)' }),
    QRIS_EXPIRY_DEFAULT_SECONDS: positiveInt()
      .max(7 * 86_400)
      .default(900)
      .meta({ description: 'Validity of a dynamic QRIS code when the request names none' }),
    QRIS_EXPIRY_MAX_SECONDS: positiveInt()
      .max(7 * 86_400)
      .default(86_400)
      .meta({ description: 'The longest validity a request may ask for' }),
    QRIS_REFUND_WINDOW_DAYS: positiveInt().max(365).default(30).meta({
      description:
        "The acquirer's refund window: a QRIS pay-in paid longer ago than this many days is not refundable (POST /api/v1/payin/refund answers REFUND_WINDOW_CLOSED)",
    }),
    ACQUIRER_SECRET: z.string().min(32, 'must be at least 32 characters').optional().meta({
      description:
        "Shared secret of the QRIS acquirer's signed notifications (32+ characters; openssl rand -hex 32). Required, and never a value published in this repository, in production or when the gateway listens beyond loopback",
      defaultText: 'a fixed development value, only on loopback outside production',
      requiredWhen: 'with NODE_ENV=production, or when either gateway host is not loopback',
    }),
    ACQUIRER_SECRET_PREVIOUS: previousSecrets().meta({
      description:
        'During a rotation: the secrets being replaced (comma-separated), still accepted on notifications; never used to sign',
    }),
    SANDBOX_MODE: bool().optional().meta({
      description:
        "Serve POST /api/v1/payin/qris/sandbox/pay (a simulated payer; its pay-ins are sandbox money in the ledger), sandbox/settle and the merchants' sandbox clocks (/api/v1/sandbox/clock; the workers' SANDBOX_MODE walks them). Refused beside a live rail (RAIL_PROVIDER of a bank without RAIL_SIMULATOR=true) and beside a real acquirer (QRIS_ACQUIRER=snap without SNAP_ACQUIRER_SIMULATOR_URL); with QRIS_ACQUIRER=snap it pays through the simulator's controls",
      defaultText: '`true`, except `false` with NODE_ENV=production',
      production: 'refuses `true`',
    }),
    ...railEnvShape,
    ...acquirerEnvShape,
    ...webhookEnvShape,
    ...storageEnvShape,
    ADMIN_TOKEN: z.string().min(32, 'must be at least 32 characters').optional().meta({
      description:
        'Enables /ops (webhook inspection and resend, Bull Board); at least 32 characters. Unset: /ops does not exist',
      production: 'refuses a value published in this repository, as a gateway beyond loopback does',
    }),
    ADMIN_TOKEN_PREVIOUS: previousSecrets().meta({
      description:
        'During a rotation: the admin tokens being replaced (comma-separated), still accepted by /ops and Bull Board',
    }),
    ...redisEnvShape,
    ...queueEnvShape,
    AUTH_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(2_000).meta({
      description:
        'How long a token that authenticated is let in without a lookup on the routes whose own statement checks it again (account inquiry, transfer); forgotten at once when any token or merchant changes (NOTIFY). 0: every request looks its token up',
    }),
    ...rateLimitEnvShape,
    ...signInEnvShape,
    DASHBOARD_COOKIE_SECURE: bool().default(true).meta({
      description:
        "The dashboard's and console's session cookies carry Secure (browsers accept it on http://localhost too); false only for a browser reaching a non-local http:// address in development",
      production: 'refuses `false`',
    }),
    DASHBOARD_PUBLIC_URL: z.string().url().default(DEFAULT_DASHBOARD_PUBLIC_URL).meta({
      description:
        "Where the merchant dashboard is served: merchant users' set-password links (POST /ops/dashboard-users) point there",
    }),
    CONSOLE_PUBLIC_URL: z.string().url().default(DEFAULT_CONSOLE_PUBLIC_URL).meta({
      description:
        "Where the operator console is served (the internal port, reached through a port-forward or a VPN): operators' set-password links point there",
    }),
  })
  .superRefine((c, ctx) => {
    if (c.ADMIN_TOKEN_PREVIOUS.length && !c.ADMIN_TOKEN)
      ctx.addIssue({
        code: 'custom',
        path: ['ADMIN_TOKEN_PREVIOUS'],
        message: 'needs ADMIN_TOKEN (the token rotated to)',
      });
    if (c.PAYOUT_MIN_AMOUNT > c.PAYOUT_MAX_AMOUNT)
      ctx.addIssue({ code: 'custom', path: ['PAYOUT_MIN_AMOUNT'], message: 'must not exceed PAYOUT_MAX_AMOUNT' });
    refuseLoopbackInProduction(c, ctx);
    if (c.NODE_ENV === 'production' && !c.DASHBOARD_COOKIE_SECURE)
      ctx.addIssue({
        code: 'custom',
        path: ['DASHBOARD_COOKIE_SECURE'],
        message: 'must not be false when NODE_ENV=production',
      });
    refuseWeakSecrets(c, ctx);
    refusePublishedStorageCredentials(
      c,
      { GATEWAY_HOST: c.GATEWAY_HOST, GATEWAY_INTERNAL_HOST: c.GATEWAY_INTERNAL_HOST },
      ctx,
    );
    refineRailEnv(c, ctx);
    const sandboxOnLiveRail = sandboxBesideLiveRail(c, railSection(c));
    if (sandboxOnLiveRail) ctx.addIssue({ code: 'custom', path: ['SANDBOX_MODE'], message: sandboxOnLiveRail });
    refineAcquirerEnv(c, ctx);
    if (c.QRIS_ACQUIRER === 'snap' && !c.SNAP_ACQUIRER_SIMULATOR_URL && sandboxPayerOn(c))
      ctx.addIssue({
        code: 'custom',
        path: ['SANDBOX_MODE'],
        message:
          "must not be true beside a real acquirer (QRIS_ACQUIRER=snap without SNAP_ACQUIRER_SIMULATOR_URL): the sandbox payer pays codes through the simulator's controls. Set SANDBOX_MODE=false, or SNAP_ACQUIRER_SIMULATOR_URL if the acquirer is the simulator",
      });
    refineServerLimits(c, ctx);
    if (c.GATEWAY_INTERNAL_PORT !== 0 && c.GATEWAY_INTERNAL_PORT === c.GATEWAY_PORT)
      ctx.addIssue({ code: 'custom', path: ['GATEWAY_INTERNAL_PORT'], message: 'must differ from GATEWAY_PORT' });
    if (c.QRIS_EXPIRY_DEFAULT_SECONDS > c.QRIS_EXPIRY_MAX_SECONDS)
      ctx.addIssue({
        code: 'custom',
        path: ['QRIS_EXPIRY_DEFAULT_SECONDS'],
        message: 'must not exceed QRIS_EXPIRY_MAX_SECONDS',
      });
    if (c.PAYIN_MIN_AMOUNT > c.PAYIN_MAX_AMOUNT)
      ctx.addIssue({ code: 'custom', path: ['PAYIN_MIN_AMOUNT'], message: 'must not exceed PAYIN_MAX_AMOUNT' });
  })
  .transform((env) => ({
    ...serviceSection(env),
    database: {
      ...databaseSection(env, 'gateway'),
      /** DATABASE_URL as set, without the application_name `url` adds: what a refusal at start-up names */
      urlAsSet: env.DATABASE_URL,
    },
    redis: redisSection(env),
    queues: queueSection(env),
    storage: storageSection(env),
    rail: railSection(env),
    webhooks: { allowLoopback: env.WEBHOOK_ALLOW_LOOPBACK, allowPrivateHosts: env.WEBHOOK_ALLOW_PRIVATE_HOSTS },
    http: {
      /** The merchant API, through the ingress */
      public: { port: env.GATEWAY_PORT, host: env.GATEWAY_HOST },
      /** The acquirer, operators, Prometheus: never exposed by the ingress */
      internal: { port: env.GATEWAY_INTERNAL_PORT, host: env.GATEWAY_INTERNAL_HOST },
      limits: serverLimitsSection(env),
      /** Who may set X-Forwarded-For (Fastify's trustProxy); empty: the socket peer is the client */
      trustedProxies: env.TRUSTED_PROXIES,
    },
    docs: {
      enabled: env.SWAGGER_ENABLED,
      /** Redoc's page of docs/openapi.json, served at /docs/reference beside Swagger UI (built by `npm run build`) */
      referenceFile: defaultApiReferenceFile(),
    },
    dashboard: {
      /** The web app's builds (merchant/, console/) */
      dir: env.DASHBOARD_DIR,
      /** The dashboard's and console's session cookies carry Secure */
      secureCookies: env.DASHBOARD_COOKIE_SECURE,
      /** Where the set-password links point */
      links: { dashboard: env.DASHBOARD_PUBLIC_URL, console: env.CONSOLE_PUBLIC_URL },
    },
    transfers: {
      minAmount: env.PAYOUT_MIN_AMOUNT,
      maxAmount: env.PAYOUT_MAX_AMOUNT,
      inquiryTtlSeconds: env.INQUIRY_TTL_SECONDS,
      decisionTimeoutMs: env.TRANSFER_DECISION_TIMEOUT_MS,
    },
    payins: {
      minAmount: env.PAYIN_MIN_AMOUNT,
      maxAmount: env.PAYIN_MAX_AMOUNT,
      qrisExpiry: { defaultSeconds: env.QRIS_EXPIRY_DEFAULT_SECONDS, maxSeconds: env.QRIS_EXPIRY_MAX_SECONDS },
      /** A pay-in is refundable this long after it was paid */
      refundWindowSeconds: env.QRIS_REFUND_WINDOW_DAYS * 86_400,
      /** The sandbox payer (POST /api/v1/payin/qris/sandbox/pay) is served */
      sandbox: sandboxPayerOn(env),
    },
    acquirer: {
      /** Who generates codes and reports payments (QRIS_ACQUIRER) */
      qris: acquirerSection(env),
      // Only a gateway on loopback outside production gets here without a secret (refuseWeakSecrets):
      // development and tests use a fixed, well-known one.
      secret: env.ACQUIRER_SECRET ?? DEV_ACQUIRER_SECRET,
      previousSecrets: env.ACQUIRER_SECRET_PREVIOUS,
      clockSkewSeconds: env.ACQUIRER_CLOCK_SKEW_SECONDS,
    },
    /** Absent adminToken: /ops and Bull Board do not exist */
    opsApi: { adminToken: env.ADMIN_TOKEN, previousAdminTokens: env.ADMIN_TOKEN_PREVIOUS },
    auth: { cacheMs: env.AUTH_CACHE_MS },
    rateLimits: rateLimitSection(env),
    signIn: signInSection(env),
  }));

export type GatewayConfig = z.output<typeof gatewayConfigSchema>;
