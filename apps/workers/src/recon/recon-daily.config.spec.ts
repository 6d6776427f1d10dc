import { snapEnvShape } from '@pay/bank-rail';
import { z } from 'zod';
import { reconDailyEnvShape, reconDailySection, refineReconDailyEnv } from './recon-daily.config';
import { jakartaYesterday } from './recon-daily.queue';

const schema = z
  .object({ ...snapEnvShape, ...reconDailyEnvShape, QRIS_ACQUIRER: z.string().default('self') })
  .superRefine((c, ctx) => refineReconDailyEnv(c, ctx));

describe('the daily reconciliation settings', () => {
  it('off unless RECON_DAILY_AT is set', () => {
    expect(reconDailySection(schema.parse({}))).toBeNull();
  });

  it('RECON_DAILY_AT needs HH:MM, the acquirer over SNAP and the SNAP provider', () => {
    const problems = (env: Record<string, string>) =>
      schema.safeParse(env).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];
    expect(problems({ RECON_DAILY_AT: '6:00' })).toContain('RECON_DAILY_AT: must be HH:MM (Asia/Jakarta)');
    expect(problems({ RECON_DAILY_AT: '06:00' })).toEqual([
      "RECON_DAILY_AT: needs QRIS_ACQUIRER=snap: the acquirer's settlement report is fetched over SNAP",
      "RECON_DAILY_AT: needs the SNAP provider (SNAP_BASE_URL, SNAP_CLIENT_ID, SNAP_PRIVATE_KEY_FILE, SNAP_CHANNEL_ID, SNAP_SOURCE_ACCOUNT_NO): the bank's statement is fetched over SNAP 14",
    ]);
  });

  it("the scheduled job's day is the Jakarta day before its run", () => {
    expect(jakartaYesterday(new Date('2026-12-04T23:00:00Z'))).toBe('2026-12-04'); // 06:00 WIB on the 5th
    expect(jakartaYesterday(new Date('2026-12-04T16:59:59Z'))).toBe('2026-12-03'); // 23:59:59 WIB on the 4th
  });
});
