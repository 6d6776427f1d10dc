import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { QueueName } from '@pay/contracts';
import { createPrismaClient, type PrismaClient } from '@pay/persistence';
import { Queue } from 'bullmq';
import { createMerchant, createTestDatabase, fundMerchant, repoRoot, waitFor } from '@pay/testing';
import { freePort, LocalStack, PrivatePostgres, PrivateRedis, SERVICES, type ServiceName, testS3 } from '@pay/devstack';

/**
 * The four services as processes on a PostgreSQL and a Redis of their own, each stopped under
 * them (PostgreSQL for 10 s, then Redis for 5 s, which comes back empty): nobody exits,
 * readiness is 503 during and 200 after, merchants get 503 SERVICE_UNAVAILABLE (never a 500,
 * never a hung request), and a transfer and a pay-in made after each recovery complete.
 */
// The bus here is the private Redis being restarted; the Kafka pass of the suite would repeat the same run.
const onKafka = process.env.E2E_BUS_TRANSPORT === 'kafka';
(onKafka ? describe.skip : describe)(
  'dependency outages under the running stack (processes, private PostgreSQL and Redis)',
  () => {
    let pg: PrivatePostgres;
    let redis: PrivateRedis;
    let stack: LocalStack;
    let prisma: PrismaClient;
    let token: string;

    beforeAll(async () => {
      pg = await PrivatePostgres.start();
      redis = await PrivateRedis.start();
      const databaseUrl = await createTestDatabase('pay_outage_e2e', pg.url(''));
      stack = await LocalStack.start({
        databaseUrl,
        redisUrl: redis.url,
        busKeyPrefix: 'outage:',
        s3: testS3(),
        logDir: join(repoRoot(), 'tmp', 'e2e-logs', `${process.env.TEST_REDIS_PREFIX}dependency-outage`),
        env: {
          BUS_LEASE_TTL_MS: '2000',
          PAYOUT_POLL_INTERVAL_MS: '200',
          PAYOUT_LEASE_MS: '1500',
        },
      });
      // The test's own client: quiet about the outage it causes.
      prisma = createPrismaClient(databaseUrl, 2, () => undefined);
      const { merchant, token: t } = await createMerchant(prisma);
      token = t;
      await fundMerchant(prisma, merchant.id, [10_000_000_00n]);
      // It exports yesterday: no export of a day before the merchant existed.
      await prisma.merchant.update({
        where: { id: merchant.id },
        data: { createdAt: new Date(Date.now() - 7 * 86_400_000) },
      });
    });
    afterAll(async () => {
      await stack?.stop();
      await prisma?.$disconnect();
      await pg?.destroy();
      await redis?.destroy();
    });

    const api = async (path: string, body?: object) => {
      const t0 = Date.now();
      const res = await fetch(`${stack.gatewayUrl}/api/v1/${path}`, {
        method: body ? 'POST' : 'GET',
        headers: { token, 'content-type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(15_000),
      });
      return {
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        ms: Date.now() - t0,
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are asserted field by field
        body: (await res.json()) as any,
      };
    };
    const readyz = async (service: ServiceName) => {
      const base = service === 'gateway' ? stack.gatewayUrl : stack.opsUrl(service);
      return (await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(5000) })).status;
    };
    const everyoneRunning = () => SERVICES.filter((s) => !stack.isRunning(s));
    const allReady = async () => (await Promise.all(SERVICES.map(readyz))).every((s) => s === 200);

    /** A transfer that completes (success) and a pay-in that reaches the merchant's pending balance. */
    async function moneyMoves(): Promise<void> {
      const merchantTrxId = `INV-${randomUUID().slice(0, 12)}`;
      const inquiry = await api('disbursement/account-inquiry', {
        merchantTrxId,
        accountNo: '1234567890',
        bankCode: 'BCA',
        amount: 100000,
      });
      expect(inquiry.status).toBe(200);
      const { platformTrxId, accountNo, accountName, bankCode, amount } = inquiry.body.data;
      const accepted = await api('disbursement/transfer', {
        merchantTrxId,
        platformTrxId,
        accountNo,
        accountName,
        bankCode,
        amount,
        notifyUrl: 'http://127.0.0.1:9/callback',
      });
      expect(accepted.status).toBe(200);
      await waitFor(
        async () => (await api('disbursement/inquiry', { merchantTrxId })).body.data?.status === 'success',
        30_000,
        'transfer success',
      );

      const before = (await api('payin/balance')).body.data.balance.pending;
      const orderId = `ORD-${randomUUID().slice(0, 12)}`;
      expect((await api('payin/qris/generate', { merchantTrxId: orderId, amount: 50000 })).status).toBe(200);
      expect((await api('payin/qris/sandbox/pay', { merchantTrxId: orderId })).body.data.status).toBe('success');
      await waitFor(
        async () => (await api('payin/balance')).body.data.balance.pending === before + 49500,
        30_000,
        'pay-in recorded by the ledger',
      );
    }

    /** Runs `probe` every 250 ms for `ms`, then returns what it saw. */
    async function during<T>(ms: number, probe: () => Promise<T>): Promise<T[]> {
      const seen: T[] = [];
      const end = Date.now() + ms;
      while (Date.now() < end) {
        seen.push(await probe());
        await new Promise((r) => setTimeout(r, 250));
      }
      return seen;
    }

    it('PostgreSQL down for 10 s: every service stays up, 503 everywhere meanwhile, and money moves again afterwards', async () => {
      await moneyMoves();
      await pg.stop();
      const seen = await during(10_000, async () => {
        const [balance, inquiry] = await Promise.all([
          api('payin/balance'),
          api('disbursement/account-inquiry', {
            merchantTrxId: `INV-${randomUUID().slice(0, 12)}`,
            accountNo: '1234567890',
            bankCode: 'BCA',
            amount: 100000,
          }),
        ]);
        return { merchant: [balance, inquiry], ready: await Promise.all(SERVICES.map(readyz)) };
      });
      for (const { merchant, ready } of seen) {
        for (const res of merchant) {
          expect(res).toMatchObject({
            status: 503,
            retryAfter: '5',
            body: { status: false, code: 'SERVICE_UNAVAILABLE' },
          });
          expect(res.ms).toBeLessThan(6000);
        }
        expect(ready).toEqual([503, 503, 503, 503]);
      }
      expect(everyoneRunning()).toEqual([]);

      await pg.start();
      await waitFor(allReady, 30_000, 'every service ready after PostgreSQL came back');
      await moneyMoves();
      expect(everyoneRunning()).toEqual([]);
    });

    it('Redis down for 5 s (back empty): every service stays up, readiness 503, merchants never get a 500, and money moves again afterwards', async () => {
      await redis.stop();
      const seen = await during(5000, async () => {
        const [balance, recon] = await Promise.all([
          api('payin/balance'),
          api('payin/reconFile', { date: new Date(Date.now() - 86400_000 + 7 * 3600_000).toISOString().slice(0, 10) }),
        ]);
        return { balance, recon, ready: await Promise.all(SERVICES.map(readyz)) };
      });
      for (const { balance, recon, ready } of seen) {
        expect(balance.status).toBe(200); // the balance needs only PostgreSQL
        // The first recon request records the export and cannot queue it: 503; later ones find it queued (the sweeper queues it once Redis is back).
        expect([200, 503]).toContain(recon.status);
        if (recon.status === 503) expect(recon.body.code).toBe('SERVICE_UNAVAILABLE');
        expect(recon.ms).toBeLessThan(3000);
        expect(ready).toEqual([503, 503, 503, 503]);
      }
      expect(seen[0].recon).toMatchObject({ status: 503, retryAfter: '5' });
      expect(everyoneRunning()).toEqual([]);

      await redis.start();
      await waitFor(allReady, 30_000, 'every service ready after Redis came back');
      // Redis came back empty: the workers scheduled the settlement scan and the recon sweep again.
      for (const name of [QueueName.Settlement, QueueName.ReconExport]) {
        const queue = new Queue(name, { connection: { url: redis.url }, prefix: 'outage:bull' });
        try {
          await waitFor(
            async () => (await queue.getJobSchedulers()).length === 1,
            10_000,
            `the ${name} schedule re-created`,
          );
        } finally {
          await queue.close();
        }
      }
      await moneyMoves();
      expect(everyoneRunning()).toEqual([]);
    });

    /** A second copy of a service, started by hand: its output, and a promise of its exit code. */
    function launch(service: ServiceName, env: Record<string, string>) {
      const child = spawn(process.execPath, [join(repoRoot(), 'dist', 'apps', service, 'src', 'main.js')], {
        cwd: repoRoot(),
        env: { ...stack.envFor(service), ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      return { child, exited, output: () => output };
    }

    it('services started while PostgreSQL is down wait for it (alive, not ready, a log line; the gateway answers 503), then run; a database that does not exist exits 1 at once', async () => {
      await pg.stop();
      const opsPort = await freePort();
      const gatewayPort = await freePort();
      const ledger = launch('ledger', { OPS_PORT: String(opsPort) });
      const gateway = launch('gateway', {
        GATEWAY_PORT: String(gatewayPort),
        GATEWAY_INTERNAL_PORT: String(await freePort()),
      });
      const late = [ledger, gateway];
      try {
        for (const p of late)
          await waitFor(
            async () => p.output().includes('waiting for postgres at start-up'),
            15_000,
            'the waiting line',
          );
        for (const port of [opsPort, gatewayPort]) {
          expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
          expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(503);
        }
        const early = await fetch(`http://127.0.0.1:${gatewayPort}/api/v1/payin/balance`, { headers: { token } });
        expect(early.status).toBe(503);
        expect(await early.json()).toMatchObject({ status: false, code: 'SERVICE_UNAVAILABLE' });
        await new Promise((r) => setTimeout(r, 3000));
        for (const p of late) expect(p.child.exitCode).toBeNull();
        await pg.start();
        for (const port of [opsPort, gatewayPort])
          await waitFor(
            async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200,
            30_000,
            'the late services ready',
          );
        await waitFor(async () => ledger.output().includes('ledger started'), 10_000, 'ledger started');
        expect(
          (await fetch(`http://127.0.0.1:${gatewayPort}/api/v1/payin/balance`, { headers: { token } })).status,
        ).toBe(200);
      } finally {
        for (const p of late) p.child.kill('SIGTERM');
      }
      for (const p of late) expect(await p.exited).toBe(0);

      const wrong = launch('gateway', {
        GATEWAY_PORT: String(await freePort()),
        GATEWAY_INTERNAL_PORT: String(await freePort()),
        DATABASE_URL: pg.url('no_such_database'),
      });
      expect(await Promise.race([wrong.exited, new Promise((r) => setTimeout(() => r('still running'), 15_000))])).toBe(
        1,
      );
      expect(wrong.output()).toMatch(
        /gateway: Invalid configuration:\n {2}- postgres: cannot use the database at DATABASE_URL=postgresql:\/\/postgres@127\.0\.0\.1:\d+\/no_such_database: database "no_such_database" does not exist \(a setting is wrong; not retrying\)/,
      );
      expect(wrong.output()).not.toMatch(/\n\s+at /); // no stack trace
    });
  },
);
