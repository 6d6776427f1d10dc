import { readSnapCredentials, type SnapRailConfig, type snapEnvShape, snapSection } from '@pay/bank-rail';
import { positiveInt } from '@pay/platform';
import { z } from 'zod';

/** The daily reconciliation over SNAP (docs/operations/reconciliation.md): off unless RECON_DAILY_AT is set. */
export const reconDailyEnvShape = {
  RECON_DAILY_AT: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM (Asia/Jakarta)')
    .optional()
    .meta({
      description:
        "At this Jakarta time (HH:MM, e.g. `06:00`) every day the workers fetch yesterday's acquirer settlement report and bank statement over SNAP and reconcile that day, asking again while the bank or the acquirer does not give it; unset: no daily reconciliation",
    }),
  RECON_DAILY_ACQUIRER: z
    .string()
    .regex(/^[a-z0-9_-]{1,32}$/)
    .default('qris')
    .meta({
      description:
        "The acquirer's account in the books the daily reconciliation is of (`qris`; `sandbox` for the SNAP provider simulator's sandbox money)",
    }),
  RECON_DAILY_RAIL: z
    .string()
    .regex(/^[a-z0-9_-]{1,32}$/)
    .default('snap')
    .meta({ description: "The rail whose bank statement the daily reconciliation reads (the SNAP_* provider's)" }),
  RECON_DAILY_LAG_DAYS: z.coerce
    .number()
    .int()
    .min(0)
    .max(7)
    .default(1)
    .meta({ description: "T+n: the settlement date the daily reconciliation expects of a day's pay-ins" }),
  RECON_DAILY_RETRY_MS: positiveInt().min(1_000).max(3_600_000).default(600_000).meta({
    description:
      'While the bank or the acquirer does not give the day (no answer, a refusal), the daily reconciliation asks again after this long, doubling each time',
  }),
  RECON_DAILY_ATTEMPTS: positiveInt().max(100).default(8).meta({
    description:
      'How many times the daily reconciliation asks for a day before giving up on it (an error in the log; `admin recon run --date D --snap` runs it by hand)',
  }),
};

type ReconDailyEnv = z.output<z.ZodObject<typeof reconDailyEnvShape>> &
  z.output<z.ZodObject<typeof snapEnvShape>> & { QRIS_ACQUIRER: string };

export interface ReconDailyConfig {
  /** HH:MM, Asia/Jakarta */
  at: string;
  acquirer: string;
  rail: string;
  lagDays: number;
  retryMs: number;
  attempts: number;
  /** The bank whose statement (14) is read */
  snap: SnapRailConfig;
}

export function reconDailySection(env: ReconDailyEnv): ReconDailyConfig | null {
  const snap = snapSection(env);
  if (!env.RECON_DAILY_AT || !snap) return null;
  return {
    at: env.RECON_DAILY_AT,
    acquirer: env.RECON_DAILY_ACQUIRER,
    rail: env.RECON_DAILY_RAIL,
    lagDays: env.RECON_DAILY_LAG_DAYS,
    retryMs: env.RECON_DAILY_RETRY_MS,
    attempts: env.RECON_DAILY_ATTEMPTS,
    snap,
  };
}

/** RECON_DAILY_AT needs the acquirer over SNAP (its report) and the SNAP provider with our account (its statement). */
export function refineReconDailyEnv(env: ReconDailyEnv, ctx: z.RefinementCtx): void {
  if (!env.RECON_DAILY_AT) return;
  if (env.QRIS_ACQUIRER !== 'snap')
    ctx.addIssue({
      code: 'custom',
      path: ['RECON_DAILY_AT'],
      message: "needs QRIS_ACQUIRER=snap: the acquirer's settlement report is fetched over SNAP",
    });
  const snap = snapSection(env);
  if (!snap || !env.SNAP_SOURCE_ACCOUNT_NO || !env.SNAP_CHANNEL_ID) {
    ctx.addIssue({
      code: 'custom',
      path: ['RECON_DAILY_AT'],
      message:
        "needs the SNAP provider (SNAP_BASE_URL, SNAP_CLIENT_ID, SNAP_PRIVATE_KEY_FILE, SNAP_CHANNEL_ID, SNAP_SOURCE_ACCOUNT_NO): the bank's statement is fetched over SNAP 14",
    });
    return;
  }
  try {
    readSnapCredentials(snap.files);
  } catch (err) {
    ctx.addIssue({
      code: 'custom',
      path: ['RECON_DAILY_AT'],
      message: `the SNAP provider's files: ${(err as Error).message}`,
    });
  }
}
