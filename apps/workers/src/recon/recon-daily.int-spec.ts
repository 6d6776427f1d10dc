import { randomUUID } from 'node:crypto';
import { payinsPaidAtSimulator, simulatorAcquirerAndBank, SnapSimulator } from '@pay/devstack';
import { createPgPool, createPrismaClient } from '@pay/persistence';
import { createLogger } from '@pay/platform';
import { createMerchant, createTestDatabase, dropDatabase, waitFor } from '@pay/testing';
import { Job, Queue } from 'bullmq';
import { RECON_DAILY_ACTOR, RECON_DAILY_QUEUE, type ReconDailyJob, ReconDailyQueue } from './recon-daily.queue';

/**
 * The daily reconciliation over SNAP on BullMQ (real Redis, a database of its own, the simulator's
 * process as acquirer and bank): the job is scheduled at RECON_DAILY_AT Jakarta time; a day whose
 * bank does not answer is asked again, nothing stored meanwhile, and reconciled once it answers;
 * the scheduled job (no day given) takes yesterday's, and a day run again books nothing twice.
 */
describe('ReconDailyQueue (real Redis and Postgres, the SNAP simulator process)', () => {
  const today = new Date(Date.now() + 7 * 3_600_000).toISOString().slice(0, 10);
  const connection = { url: process.env.TEST_REDIS_URL as string };
  const prefix = `${process.env.TEST_REDIS_PREFIX}recon-daily-${randomUUID().slice(0, 8)}`;
  const cleanups: (() => Promise<unknown> | unknown)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it("scheduled at 06:00 Jakarta; a bank away is asked again (nothing stored), then the day is reconciled: the planted short batch exactly its break; yesterday's day when none is given, booked once", async () => {
    const url = await createTestDatabase('pay_recon_daily');
    const prisma = createPrismaClient(url, 2);
    const pool = createPgPool(url, 4);
    const sim = await SnapSimulator.start({
      databaseUrl: url,
      notifyUrl: 'http://127.0.0.1:9/snap/v1.0/qr/qr-mpm-notify',
    });
    const { acquirer, bank, snap } = simulatorAcquirerAndBank(sim, pool);
    const jobs = new Queue<ReconDailyJob>(RECON_DAILY_QUEUE, { connection, prefix });
    // The scheduled job's clock: 06:00 Jakarta the day after today, so its yesterday is today.
    const tomorrowMorning = new Date(Date.parse(`${today}T06:00:00+07:00`) + 86_400_000);
    const daily = new ReconDailyQueue(
      pool,
      { acquirer, bank },
      createLogger('recon-daily-test', 'fatal'),
      { at: '06:00', acquirer: 'sandbox', rail: 'snap', lagDays: 0, retryMs: 250, attempts: 30, snap },
      { connection, prefix },
      () => tomorrowMorning,
    );
    cleanups.push(async () => {
      await daily.stop();
      await jobs.close();
      bank.close();
      acquirer.close();
      await sim.stop();
      await prisma.$disconnect();
      await pool.end();
      await dropDatabase(url);
    });
    await payinsPaidAtSimulator(prisma, sim, acquirer, (await createMerchant(prisma)).merchant.id, [
      150_000_00n,
      25_000_00n,
      1_234_56n,
    ]);
    expect(
      (await sim.control('qris/settle', { date: today, settlementDate: today, mode: 'short', shortBy: '50000' }))
        .status,
    ).toBe(200);
    const count = async (sql: string) => Number((await pool.query<{ n: string }>(sql)).rows[0].n);

    await daily.start();
    const scheduler = await jobs.getJobScheduler('recon-daily');
    expect(scheduler).toMatchObject({ pattern: '0 6 * * *', tz: 'Asia/Jakarta' });
    expect(new Date((scheduler?.next as number) + 7 * 3_600_000).toISOString().slice(11, 16)).toBe('06:00');

    // The bank (and the acquirer) away: the day is asked again and again, nothing stored.
    await sim.kill();
    const job = await daily.runDay(today);
    const attempts = async () => (await Job.fromId(jobs, job.id as string))?.attemptsMade ?? 0;
    await waitFor(async () => (await attempts()) >= 2, 20_000, 'two attempts while the bank is away');
    expect(await count('SELECT count(*) AS n FROM recon_sources')).toBe(0);
    expect(await count('SELECT count(*) AS n FROM recon_runs')).toBe(0);

    // Back: the next attempt reconciles the day.
    await sim.restart();
    await waitFor(
      async () => (await Job.fromId(jobs, job.id as string))?.finishedOn !== undefined,
      30_000,
      'the day reconciled',
    );
    const done = await Job.fromId(jobs, job.id as string);
    expect(await done?.getState()).toBe('completed');
    expect(done?.returnvalue).toEqual({ date: today, openBreaks: 1 });
    const { rows: breaks } = await pool.query<{ code: string; subject: string; suspense: string }>(
      `SELECT code, subject, suspense::text FROM recon_breaks WHERE status = 'open'`,
    );
    expect(breaks).toEqual([{ code: 'amount_differs', subject: 'batch', suspense: '50000' }]);
    const { rows: sources } = await pool.query(`SELECT kind, origin, ingested_by FROM recon_sources ORDER BY kind`);
    expect(sources).toEqual([
      { kind: 'report', origin: 'snap', ingested_by: RECON_DAILY_ACTOR },
      { kind: 'statement', origin: 'snap', ingested_by: RECON_DAILY_ACTOR },
    ]);
    const bookings = await count('SELECT count(*) AS n FROM recon_bookings');
    expect(bookings).toBe(2); // acquirer.settle and the shortfall's books.adjust

    // The scheduled job names no day: its first attempt takes yesterday's (today, by its clock), run again: nothing booked twice.
    const scheduled = await jobs.add('day', {}, { attempts: 3, backoff: { type: 'fixed', delay: 250 } });
    await waitFor(
      async () => (await Job.fromId(jobs, scheduled.id as string))?.finishedOn !== undefined,
      20_000,
      'the scheduled day',
    );
    const again = await Job.fromId(jobs, scheduled.id as string);
    expect(again?.data).toEqual({ date: today });
    expect(again?.returnvalue).toEqual({ date: today, openBreaks: 1 });
    expect(await count('SELECT count(*) AS n FROM recon_runs')).toBe(1);
    expect(await count('SELECT count(*) AS n FROM recon_bookings')).toBe(bookings);
  });
});
