import { readFileSync } from 'node:fs';
import { z } from 'zod';

const file = (what: string) =>
  z
    .string()
    .min(1)
    .transform((path, ctx) => {
      try {
        return readFileSync(path, 'utf8').trim();
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: `cannot read ${what} from ${path}: ${(err as Error).message}` });
        return z.NEVER;
      }
    });

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** Everything the simulator is told, from its environment; secrets and keys from files. */
export const simulatorEnv = z
  .object({
    SNAP_SIM_HOST: z.string().default('127.0.0.1'),
    SNAP_SIM_PORT: int(0, 65_535).default(4010),
    SNAP_SIM_DATABASE_URL: z.string().startsWith('postgres'),
    SNAP_SIM_SCHEMA: z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/)
      .default('snap_sim'),
    SNAP_SIM_PATH_PREFIX: z
      .string()
      .regex(/^(\/[A-Za-z0-9._-]+)*$/)
      .default('/snap'),
    SNAP_SIM_CLIENT_ID: z.string().min(1).max(36),
    SNAP_SIM_CLIENT_SECRET_FILE: file('the client secret'),
    SNAP_SIM_CLIENT_PUBLIC_KEY_FILE: file("the client's public key"),
    SNAP_SIM_SIGNATURE_MODE: z.enum(['symmetric', 'asymmetric']).default('symmetric'),
    SNAP_SIM_PRIVATE_KEY_FILE: file("the simulator's private key"),
    SNAP_SIM_CHANNEL_ID: z.string().min(1).max(5).default('95221'),
    SNAP_SIM_SOURCE_BANK_CODE: z.string().min(3).max(11).default('014'),
    SNAP_SIM_SOURCE_ACCOUNT_NO: z
      .string()
      .regex(/^\d{6,19}$/)
      .default('8881234567'),
    SNAP_SIM_SOURCE_BALANCE: z.coerce
      .bigint()
      .nonnegative()
      .default(10n ** 15n),
    SNAP_SIM_TIMESTAMP_WINDOW_SECONDS: int(1, 86_400).default(300),
    SNAP_SIM_DELAY_MS: int(0, 3_600_000).default(5_000),
    SNAP_SIM_HANG_MS: int(0, 600_000).default(30_000),
    SNAP_SIM_NOTIFY_URL: z.url().optional(),
    SNAP_SIM_ACQUIRER_PARTNER_ID: z.string().min(1).max(36).default('SNAPSIM-ACQ'),
    SNAP_SIM_QR_MERCHANT_ID: z.string().min(1).max(64).default('SIM-MERCHANT-1'),
    SNAP_SIM_CONTROL_TOKEN: z.string().min(16).optional(),
    SNAP_SIM_MDR_BASIS_POINTS: int(0, 10_000).default(70),
    SNAP_SIM_SETTLEMENT_LAG_DAYS: int(0, 7).default(1),
    SNAP_SIM_TRANSFER_FEE: z.coerce.bigint().nonnegative().default(0n),
    SNAP_SIM_STATEMENT_PAGE_SIZE: int(1, 1_000).default(100),
  })
  .transform((e) => ({
    host: e.SNAP_SIM_HOST,
    port: e.SNAP_SIM_PORT,
    databaseUrl: e.SNAP_SIM_DATABASE_URL,
    schema: e.SNAP_SIM_SCHEMA,
    prefix: e.SNAP_SIM_PATH_PREFIX,
    client: {
      id: e.SNAP_SIM_CLIENT_ID,
      secret: e.SNAP_SIM_CLIENT_SECRET_FILE,
      publicKeyPem: e.SNAP_SIM_CLIENT_PUBLIC_KEY_FILE,
      mode: e.SNAP_SIM_SIGNATURE_MODE,
      channelId: e.SNAP_SIM_CHANNEL_ID,
    },
    privateKeyPem: e.SNAP_SIM_PRIVATE_KEY_FILE,
    source: {
      bankCode: e.SNAP_SIM_SOURCE_BANK_CODE,
      accountNo: e.SNAP_SIM_SOURCE_ACCOUNT_NO,
      balance: e.SNAP_SIM_SOURCE_BALANCE,
    },
    windowMs: e.SNAP_SIM_TIMESTAMP_WINDOW_SECONDS * 1000,
    delayMs: e.SNAP_SIM_DELAY_MS,
    hangMs: e.SNAP_SIM_HANG_MS,
    acquirer: {
      notifyUrl: e.SNAP_SIM_NOTIFY_URL,
      partnerId: e.SNAP_SIM_ACQUIRER_PARTNER_ID,
      merchantId: e.SNAP_SIM_QR_MERCHANT_ID,
    },
    controlToken: e.SNAP_SIM_CONTROL_TOKEN,
    settlement: { mdrBasisPoints: e.SNAP_SIM_MDR_BASIS_POINTS, lagDays: e.SNAP_SIM_SETTLEMENT_LAG_DAYS },
    /** What the bank charges per interbank transfer (sen): a fee line on the statement */
    transferFee: e.SNAP_SIM_TRANSFER_FEE,
    /** Lines per page of a statement (14) at most; a request may ask fewer (additionalInfo.pageSize) */
    statementPageSize: e.SNAP_SIM_STATEMENT_PAGE_SIZE,
  }));

export type SimulatorConfig = z.output<typeof simulatorEnv>;

export function loadSimulatorConfig(env: NodeJS.ProcessEnv = process.env): SimulatorConfig {
  const parsed = simulatorEnv.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
  throw new Error(`the SNAP simulator's configuration is invalid:\n${problems}`);
}
