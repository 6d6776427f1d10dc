import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dropDatabase } from '@pay/persistence';
import { createTestDatabase, repoRoot, waitFor } from '@pay/testing';
import { LocalStack, SERVICES, type ServiceName, SilentRelay, testS3 } from '@pay/devstack';

/**
 * A stop is bounded (SHUTDOWN_TIMEOUT_MS, decision 0015). The four services run on a database
 * reached through a relay that can go silent, as a failed-over primary whose packets are dropped.
 * With it answering, a SIGTERM stops a service cleanly (exit 0) well within the deadline. Once it
 * is silent, a stop waits on queries that will never be answered: every service is out within the
 * deadline and a few seconds, and one that had to be cut short exits 1 with a last line naming
 * the step it waited on, where before it hung until its query timeout (37 s for the ledger and
 * payout) or the orchestrator's SIGKILL.
 */
// The deadline is the process's, whatever the bus: the Kafka pass of the suite would repeat it.
const onKafka = process.env.E2E_BUS_TRANSPORT === 'kafka';
(onKafka ? describe.skip : describe)('the shutdown deadline (processes, a database gone silent)', () => {
  const DEADLINE_MS = 3000;
  let relay: SilentRelay;
  let databaseUrl: string;
  let stack: LocalStack;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase('pay_shutdown');
    relay = await SilentRelay.start(databaseUrl);
    stack = await LocalStack.start({
      databaseUrl: relay.url,
      redisUrl: process.env.TEST_REDIS_URL as string,
      busKeyPrefix: `${process.env.TEST_REDIS_PREFIX}shutdown:bus:`,
      s3: testS3(),
      logDir: join(repoRoot(), 'tmp', 'e2e-logs', `${process.env.TEST_REDIS_PREFIX}shutdown`),
      // The loops poll often, so the ledger's relay and payout's poller have a query out when the database goes silent.
      env: { SHUTDOWN_TIMEOUT_MS: String(DEADLINE_MS), OUTBOX_POLL_MS: '300', PAYOUT_POLL_INTERVAL_MS: '300' },
    });
  });
  afterAll(async () => {
    relay?.thaw();
    await stack?.stop();
    await relay?.stop();
    if (databaseUrl) await dropDatabase(databaseUrl);
  });

  /** The service's log lines, parsed (every start of it appends to the same file). */
  const logLines = (service: ServiceName): { msg?: string; step?: string; level?: string }[] =>
    readFileSync(stack.logFile(service), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg?: string; step?: string; level?: string });
  const lastLines = (service: ServiceName) => logLines(service).slice(-20);
  /** How many of the service's starts have finished (a stop during a start exits at once, with nothing to stop). */
  const startsFinished = (service: 'ledger' | 'payout') =>
    logLines(service).filter((l) => l.msg === `${service} started`).length;

  it('with the database answering, SIGTERM stops a service cleanly, well within the deadline', async () => {
    const { code, ms } = await stack.terminateService('payout');
    expect(code).toBe(0);
    expect(ms).toBeLessThan(DEADLINE_MS);
    expect(lastLines('payout').some((l) => l.msg?.startsWith('shutdown did not finish'))).toBe(false);
    await stack.startService('payout');
  });

  it('with the database silent, every service is out within the deadline; the ones cut short exit 1 naming the step they waited on', async () => {
    // Ready is not started: payout answers /readyz before its start has finished, and the first test restarted it.
    await waitFor(
      async () => startsFinished('ledger') === 1 && startsFinished('payout') === 2,
      30_000,
      'the ledger and payout started',
    );
    relay.freeze();
    // Long enough for each service's loops (polling every 300 ms) to have a query out on the silent
    // connections, and short enough that the stop's deadline (1 s + 3 s after the freeze) comes
    // before a connection begun just before the freeze gives up (the pools' 5 s connect timeout):
    // with 2 s, payout's did so 18 ms before its deadline once, and its stop ended cleanly.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const stopped = await Promise.all(
      SERVICES.map(async (service) => ({ service, ...(await stack.terminateService(service)) })),
    );
    for (const { service, code, ms } of stopped) {
      expect({ service, beforeSigkill: code !== null, withinDeadline: ms < DEADLINE_MS + 5000 }).toEqual({
        service,
        beforeSigkill: true,
        withinDeadline: true,
      });
      const cut = lastLines(service).find((l) => l.msg?.startsWith('shutdown did not finish'));
      // Exit 1 exactly when the deadline cut the stop short, and then the line says where it was.
      expect({ service, code, cutShort: cut !== undefined }).toEqual({
        service,
        code: cut ? 1 : 0,
        cutShort: code === 1,
      });
      if (cut) {
        expect(cut).toMatchObject({
          level: 'fatal',
          msg: `shutdown did not finish within ${DEADLINE_MS} ms (still on: ${cut.step}); exiting`,
        });
        expect(cut.step).not.toMatch(/^(not started|done|unknown)$/);
      }
    }
    // The two whose loops have a query out by then: before, they hung 37 s on their query timeout.
    for (const service of ['ledger', 'payout'] as const) {
      expect(stopped.find((s) => s.service === service)).toMatchObject({ code: 1 });
      expect(stopped.find((s) => s.service === service)?.ms).toBeGreaterThanOrEqual(DEADLINE_MS);
    }
  });
});
