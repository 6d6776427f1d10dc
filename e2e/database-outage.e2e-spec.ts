import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createPrismaClient, dropDatabase, type PrismaClient, verifyLedger } from '@pay/persistence';
import { createMerchant, createTestDatabase, repoRoot, waitFor } from '@pay/testing';
import { LocalStack, testBus, PrivatePostgres, SERVICES, testS3 } from '@pay/devstack';
import Redis from 'ioredis';

/**
 * The incident that opened issue 12, replayed: a merchant's pay-ins wait on the bus while the
 * ledger is paused; PostgreSQL stops; the ledger resumes and meets the outage; PostgreSQL returns
 * later. Before, a command was dead-lettered after BUS_MAX_DELIVERIES and its money never reached
 * `pending` (and three services exited). Now every pay-in is booked once, nothing is dead-lettered
 * and every process is the one that started. A private PostgreSQL cluster is stopped, never the
 * machine's.
 */
describe('a PostgreSQL outage under a backlog of pay-ins (processes, private PostgreSQL)', () => {
  const redisUrl = process.env.TEST_REDIS_URL as string;
  const busKeyPrefix = `${process.env.TEST_REDIS_PREFIX}outage:bus:`;
  // Redis Streams, or Kafka with E2E_BUS_TRANSPORT=kafka: the delivery policy is the same on both.
  const { stack: stackBus } = testBus(busKeyPrefix);
  const OUTAGE_MS = 12_000;
  let pg: PrivatePostgres;
  let databaseUrl: string;
  let stack: LocalStack;
  let prisma: PrismaClient;
  let redis: Redis;

  beforeAll(async () => {
    pg = await PrivatePostgres.start();
    databaseUrl = await createTestDatabase('pay_outage', pg.url(''));
    stack = await LocalStack.start({
      databaseUrl,
      redisUrl,
      busKeyPrefix,
      bus: stackBus,
      s3: testS3(),
      logDir: join(repoRoot(), 'tmp', 'e2e-logs', `${process.env.TEST_REDIS_PREFIX}outage`),
      // Three deliveries for an unknown error: the old policy dead-lettered within a second of the outage.
      env: { BUS_LEASE_TTL_MS: '2000', BUS_MAX_DELIVERIES: '3' },
    });
    prisma = createPrismaClient(databaseUrl, 4);
    redis = new Redis(redisUrl);
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await prisma?.$disconnect();
    redis?.disconnect();
    if (pg?.isRunning) await dropDatabase(databaseUrl).catch(() => undefined);
    await pg?.destroy();
  });

  const api = async (path: string, token: string, body: object) => {
    const res = await fetch(`${stack.gatewayUrl}/api/v1/payin/${path}`, {
      method: 'POST',
      headers: { token, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { data: { status: string; netAmount: number } } };
  };
  /** Records dead-lettered, as each consuming service counts them, plus what sits in Redis DLQ streams. */
  const deadLettered = async () => {
    let n = 0;
    for (const s of ['ledger', 'payout', 'workers'] as const) {
      const text = await (await fetch(`${stack.opsUrl(s)}/metrics`)).text();
      for (const line of text.split('\n'))
        if (line.startsWith('bus_dead_letters_total{')) n += Number(line.split(' ').at(-1));
    }
    for (const key of await redis.keys(`${busKeyPrefix}*.dlq*`))
      if ((await redis.type(key)) === 'stream') n += await redis.xlen(key);
    return n;
  };

  /**
   * Each service's `pg_listen_up` (its one LISTEN connection in place: 1, reconnecting: 0);
   * undefined where the scrape did not answer in 3 s or failed (it must answer during the outage too).
   */
  const listenUp = async () => {
    const up: Record<string, number | undefined> = {};
    for (const s of SERVICES) {
      const text = await fetch(`${s === 'gateway' ? stack.internalUrl : stack.opsUrl(s)}/metrics`, {
        signal: AbortSignal.timeout(3000),
      }).then(
        (r) => (r.ok ? r.text() : ''),
        () => '',
      );
      const line = text.split('\n').find((l) => /^pg_listen_up[ {]/.test(l));
      up[s] = line === undefined ? undefined : Number(line.split(' ').at(-1));
    }
    return up;
  };
  const everyService = (value: number) => Object.fromEntries(SERVICES.map((s) => [s, value]));

  it('books every pay-in once, dead-letters nothing, and no process exits', async () => {
    expect(await listenUp()).toEqual(everyService(1));
    const pids = Object.fromEntries(SERVICES.map((s) => [s, stack.pid(s)]));
    const { merchant, token } = await createMerchant(prisma);

    const ledgerPid = stack.pid('ledger') as number;
    process.kill(ledgerPid, 'SIGSTOP');
    let expectedNet = 0;
    try {
      for (let i = 0; i < 20; i++) {
        const merchantTrxId = `OUT-${randomUUID().slice(0, 12)}`;
        const amount = 10_000 + i * 1_000;
        expect((await api('qris/generate', token, { merchantTrxId, amount })).status).toBe(200);
        const paid = await api('qris/sandbox/pay', token, { merchantTrxId });
        expect(paid.body.data.status).toBe('success');
        expectedNet += paid.body.data.netAmount;
      }
      // The gateway's outbox rows reach the bus through a relay: wait until they are all published.
      await waitFor(
        async () => (await prisma.outbox.count({ where: { publishedAt: null } })) === 0,
        20_000,
        'commands on the bus',
      );
      await prisma.$disconnect();
      await pg.stop('fast');
    } finally {
      process.kill(ledgerPid, 'SIGCONT');
    }
    // Every service shows its LISTEN connection down while the database is away (the metric an operator watches).
    await waitFor(
      async () => JSON.stringify(await listenUp()) === JSON.stringify(everyService(0)),
      OUTAGE_MS,
      'pg_listen_up 0 everywhere',
    );
    await new Promise((r) => setTimeout(r, OUTAGE_MS));
    await pg.start();

    prisma = createPrismaClient(databaseUrl, 4);
    const pendingMinor = BigInt(Math.round(expectedNet * 100));
    await waitFor(
      async () =>
        (await prisma.balance.findUniqueOrThrow({ where: { merchantId: merchant.id } })).pending === pendingMinor,
      60_000,
      'every pay-in booked',
    );
    expect(await prisma.ledgerEvent.count({ where: { merchantId: merchant.id, type: 'payin.recorded' } })).toBe(20);
    expect(await deadLettered()).toBe(0);
    expect(await prisma.deadLetter.count()).toBe(0);
    expect((await verifyLedger(prisma)).breaches).toEqual([]); // the full audit: every successful pay-in has its event
    // The same processes that started: none exited because the database went away.
    const alive = (pid: number | undefined) => {
      try {
        return pid !== undefined && process.kill(pid, 0);
      } catch {
        return false;
      }
    };
    expect(SERVICES.filter((s) => stack.pid(s) !== pids[s] || !alive(pids[s]))).toEqual([]);
    for (const s of SERVICES) {
      const url = s === 'gateway' ? `${stack.gatewayUrl}/readyz` : `${stack.opsUrl(s)}/readyz`;
      await waitFor(async () => (await fetch(url)).status === 200, 20_000, `${s} ready again`);
    }
    // Each LISTEN connection is back by itself (its retries back off to 5 s).
    await waitFor(
      async () => JSON.stringify(await listenUp()) === JSON.stringify(everyService(1)),
      20_000,
      'pg_listen_up 1 everywhere',
    );
  }, 180_000);
});
