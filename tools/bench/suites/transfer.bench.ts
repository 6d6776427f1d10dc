import { randomUUID } from 'node:crypto';
import { Agent } from 'node:http';
import { createPrismaClient, dropDatabase, ensureDatabase, PG_LISTEN_HEARTBEAT_MS } from '@pay/persistence';
import { createMerchant, createTestDatabase, fundMerchant, waitFor, WebhookReceiver } from '@pay/testing';
import { type LocalStack } from '@pay/devstack';
import {
  backendsMs,
  backendsMsByRole,
  coresAllow,
  cpuMsOf,
  cpuPerUnit,
  jitCompilerMsOf,
  DATABASE_BACKENDS_SQL,
  sampleBackends,
  sampleCpu,
} from '../lib/cpu';
import { postJson } from '../lib/http-load';
import { percentile, printResults, recordNumbers } from '../lib/report';
import { BENCH_RATE_LIMITS, benchBus, benchBusName, runBench, startBenchStack } from '../lib/harness';
import { pgbenchTps } from '../lib/pgbench';
import { benchArgs, historyMode } from '../lib/history-mode';
import { describeLoad, loadHistory, type HistoryLoad } from '../seeds/history.seed';
import { cloneHistoryDatabase, keptHistoryDatabase } from '../lib/history-db';

/**
 * Disbursement under load, against the four services as processes (Redis Streams bus, or Kafka
 * with BENCH_BUS=kafka; zero-latency sandbox rail), at increasing concurrency:
 *  - acceptance: account inquiry + transfer pairs; accepted transfers per second counted by the
 *    ledger's committed debits (not just HTTP answers), and the latency of the pair;
 *  - end to end: transfer accepted -> final status -> webhook received by a local receiver.
 * Before the measured steps, a warm-up step (not in the targets, printed apart) and an ANALYZE:
 * the steps measure services that have been running, not the JIT's and the planner's first minute.
 * Beside it, the ceiling measured in the same run: pgbench -N (simple update TPS) on this
 * machine's Postgres. Prints a table and JSON, and what the machine's cores allow: the rate at
 * which the CPU measured per transfer fills them, and the rate they would allow if the four
 * services cost nothing (the bench database's Postgres backends and the load generator only,
 * which share the same cores here), each against the 0.15x pgbench -N target of issue 15.
 * History mode (--history or BENCH_HISTORY=1): the same run again on a database holding a
 * realistic history (tools/bench/seeds/history.seed.ts: 10,000 merchants, the bench's among them, 5M ledger
 * events), then both figures side by side with their ratio. BENCH_HISTORY_DB=<name> clones a
 * history loaded once and kept (npm run bench -- keep-history) instead of loading one (10-17 min).
 * On Kafka the warm-up is longer: the broker is a JVM started for the run, whose JIT compilers
 * take most of its CPU through the first thousands of transfers (the kafkaBrokerJit column).
 * Usage: npm run build && npm run bench -- transfer [transfersPerStep=400] [merchants=20] [concurrency list=4,8,16] [warm-up transfers=2000, 8000 on Kafka, 0 for none] [--history]
 */
const args = benchArgs();
const PER_STEP = Number(args[0] ?? 400);
const M = Number(args[1] ?? 20);
const LEVELS = (args[2] ?? '4,8,16').split(',').map(Number);
const WARMUP = Number(args[3] ?? (benchBusName() === 'Kafka' ? 8000 : 2000));
const MEASURED = 'inquiry + transfer';
const WARMUP_STEP = 'warm-up (not in the targets)';

type Rows = Record<string, string | number>[];
const SCANS_TITLE =
  'sequential scans during the steps, by table (pg_stat_user_tables; a hot statement should read none)';
const PG_BY_SERVICE_TITLE =
  "the bench database's Postgres CPU ms per accepted transfer, by the service whose connection used it (application_name; LISTEN connections apart)";
const PG_ROLES = ['gateway', 'ledger', 'payout', 'workers', 'listen'];
const CEILINGS_TITLE =
  "what this machine's cores allow per accepted transfer: at the CPU measured (all processes and the load generator), and with the four services and the bus at zero cost (the bench database's Postgres backends and the load generator alone), against 0.15x pgbench -N";

async function main(): Promise<void> {
  const tps = pgbenchTps();
  const empty = await measure(tps, false);
  const title = `transfer acceptance and end to end (accepted -> webhook received), ${benchBusName()} bus`;
  const cpuTitle =
    'CPU ms (and Postgres transactions) per accepted transfer (inquiry, transfer, debit, payout, webhook), by process';
  printResults(title, empty.rows);
  printResults(cpuTitle, empty.cpuRows);
  printResults(PG_BY_SERVICE_TITLE, empty.pgByService);
  printResults(CEILINGS_TITLE, empty.ceilings);
  printResults(SCANS_TITLE, empty.scans);
  if (!historyMode()) return;
  const history = await measure(tps, true);
  console.log(`\n${describeLoad(history.load as HistoryLoad)}`);
  recordNumbers('history loaded', { ...(history.load as HistoryLoad) });
  printResults(`${title}, on the history`, history.rows);
  printResults(`${cpuTitle}, on the history`, history.cpuRows);
  printResults(`${PG_BY_SERVICE_TITLE}, on the history`, history.pgByService);
  printResults(`${CEILINGS_TITLE}, on the history`, history.ceilings);
  printResults(`${SCANS_TITLE}, on the history`, history.scans);
  // The same steps in the same process, one database empty, the other holding the history.
  printResults(
    'transfer: empty database vs history (target: history >= 0.8x empty)',
    measuredRows(empty.rows).map((e, i) => {
      const h = measuredRows(history.rows)[i];
      return {
        concurrency: e.concurrency,
        emptyPerSecond: e.acceptedPerSecond,
        historyPerSecond: h.acceptedPerSecond,
        ratio: (Number(h.acceptedPerSecond) / Number(e.acceptedPerSecond)).toFixed(2),
        emptyPairP50ms: e.pairP50ms,
        historyPairP50ms: h.pairP50ms,
        emptyE2eP50ms: e.e2eP50ms,
        historyE2eP50ms: h.e2eP50ms,
      };
    }),
  );
}

const measuredRows = (rows: Rows) => rows.filter((r) => r.step === MEASURED);

/** One full run of the steps on a new database, empty or first loaded with the history. */
async function measure(
  tps: number,
  withHistory: boolean,
): Promise<{ rows: Rows; cpuRows: Rows; pgByService: Rows; ceilings: Rows; scans: Rows; load?: HistoryLoad }> {
  const kept = withHistory ? keptHistoryDatabase() : undefined;
  const clone = kept ? await cloneHistoryDatabase(kept, M) : undefined;
  const databaseUrl = clone?.databaseUrl ?? (await createTestDatabase('pay_bench'));
  await ensureDatabase(databaseUrl);
  const prisma = createPrismaClient(databaseUrl, 4);
  const receivedAt = new Map<string, number>();
  const bus = await benchBus();
  // The load's keep-alive connections, one per client at most.
  const agent = new Agent({ keepAlive: true, maxSockets: Math.max(...LEVELS) });
  const receiver = await WebhookReceiver.start((_n, req) => {
    receivedAt.set(JSON.parse(req.rawBody).data.platformTrxId as string, Date.now());
    return { status: 200 };
  });
  let stack: LocalStack | undefined;
  const notifyUrl = `http://127.0.0.1:${new URL(receiver.url).port}/callback`;
  try {
    const tokens: string[] = clone ? clone.merchants.map((m) => m.token) : [];
    const merchantIds: number[] = clone ? clone.merchants.map((m) => m.id) : [];
    for (let i = 0; !clone && i < M; i++) {
      const { merchant, token, admin } = await createMerchant(prisma);
      await admin.setRateLimits(merchant.id, BENCH_RATE_LIMITS);
      tokens.push(token);
      merchantIds.push(merchant.id);
    }
    // The bench's merchants are among the history's 10,000, with the same history as the others.
    const load = clone?.load ?? (withHistory ? await loadHistory(databaseUrl, merchantIds) : undefined);
    for (const id of merchantIds) await fundMerchant(prisma, id, [100_000_000_00n]);
    // Started once the data is in place, so no service works while the history loads.
    // The loops' own defaults: notifications move the work, their safety-net polls are long.
    stack = await startBenchStack(
      databaseUrl,
      { RAIL_SANDBOX_LATENCY_MS: '0', PAYOUT_BATCH_SIZE: '64' },
      'bench',
      undefined,
      bus.stack,
    );
    const running = stack;
    // Every process of the stack, and on Kafka the broker (Redis is in sampleCpu either way).
    // On Kafka also the broker's JIT compilers apart (part of kafkaBroker, not added again to the total).
    const sampleAll = () => ({
      ...sampleCpu(running),
      ...(bus.pid ? { kafkaBroker: cpuMsOf(bus.pid), kafkaBrokerJit: jitCompilerMsOf(bus.pid) } : {}),
    });
    const post = (path: string, token: string, body: object) =>
      postJson<{ data: Record<string, unknown> }>(
        `${running.gatewayUrl}/api/v1/disbursement/${path}`,
        { token },
        body,
        agent,
      );
    const rows: Rows = [
      {
        step: 'ceiling: pgbench -N (8 clients)',
        concurrency: 8,
        acceptedPerSecond: Math.round(tps),
        ratioToPgbench: '1.00',
      },
    ];
    // What the system costs doing nothing (pollers, heartbeats), per second, for comparison.
    // Postgres transactions committed in the bench database: round trips are what Postgres pays for.
    const pgTransactions = async () => {
      const [row] = await prisma.$queryRaw<
        { n: bigint }[]
      >`SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()`;
      return Number(row.n);
    };
    // Start-up work (the first settlement scan, JIT warm-up) is not idle cost: let it pass first.
    await new Promise((r) => setTimeout(r, 5000));
    // The bench database's own backends, apart from the machine's other Postgres work (cpu.ts).
    // Each backend's role (the connecting service) as last seen: a pool's connections live through the steps.
    const roles = new Map<number, string>();
    const backends = async () => {
      const listed = await prisma.$queryRawUnsafe<{ pid: number; role: string }[]>(DATABASE_BACKENDS_SQL);
      for (const b of listed) roles.set(b.pid, b.role);
      return sampleBackends(listed.map((b) => b.pid));
    };
    const idleBefore = sampleAll();
    const idleBackends = await backends();
    const idleXacts = await pgTransactions();
    await new Promise((r) => setTimeout(r, 5000));
    // Sequential scans per table during the steps: a hot statement that reads a growing table whole shows here.
    const seqScans = async () =>
      new Map(
        (
          await prisma.$queryRawUnsafe<{ relname: string; n: bigint; rows: bigint }[]>(
            'SELECT relname, seq_scan AS n, seq_tup_read AS rows FROM pg_stat_user_tables',
          )
        ).map((r) => [r.relname, { n: Number(r.n), rows: Number(r.rows) }]),
      );
    const pgByService: Rows = [];
    const ceilings: Rows = [];
    const idleXactsPerSecond = ((await pgTransactions()) - idleXacts) / 5;
    const cpuRows: Record<string, string | number>[] = [
      {
        concurrency: 'idle, per second',
        ...cpuPerUnit(idleBefore, sampleAll(), 5),
        postgresBenchDb: Math.round(backendsMs(idleBackends, await backends()) / 5),
        pgTransactions: Math.round(idleXactsPerSecond),
      },
    ];
    // A LISTEN connection's reads of notifications are transactions too, but its backend reports them
    // to pg_stat_database only when it next runs a statement: its heartbeat, every 10 s (PgListener).
    // So the count is read once a heartbeat has passed with nothing to do, less the idle rate meanwhile.
    const SETTLE_MS = PG_LISTEN_HEARTBEAT_MS + 2000;
    const settledTransactions = async () => {
      await new Promise((r) => setTimeout(r, SETTLE_MS));
      return (await pgTransactions()) - (idleXactsPerSecond * SETTLE_MS) / 1000;
    };
    let xactsSettled = await settledTransactions();
    /** One step: `count` inquiry + transfer pairs from `c` clients, until every callback is in. */
    const runStep = async (step: string, c: number, count: number): Promise<void> => {
      const cpuBefore = sampleAll();
      const backendsBefore = await backends();
      const xactsBefore = xactsSettled;
      const latencies: number[] = [];
      const acceptedAt = new Map<string, number>();
      let next = 0;
      // The debits of this step: events after a watermark (a primary key range), not a count of every
      // debit (on the history a scan of 5M events, 730 MB read between steps).
      const watermark = (await prisma.ledgerEvent.aggregate({ _max: { id: true } }))._max.id ?? 0n;
      const started = Date.now();
      await Promise.all(
        Array.from({ length: c }, async () => {
          while (next < count) {
            const token = tokens[next++ % M];
            const t = process.hrtime.bigint();
            const inq = await post('account-inquiry', token, {
              merchantTrxId: randomUUID(),
              accountNo: '1234567890',
              bankCode: 'BCA',
              amount: 10000,
            });
            const { fee: _fee, totalAmount: _total, ...fields } = inq.body.data;
            const res = await post('transfer', token, { ...fields, notifyUrl });
            if (res.status === 200) acceptedAt.set(fields.platformTrxId as string, Date.now());
            latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
          }
        }),
      );
      const seconds = (Date.now() - started) / 1000;
      const debits = await prisma.ledgerEvent.count({ where: { id: { gt: watermark }, type: 'payout.debited' } });
      await waitFor(async () => [...acceptedAt.keys()].every((k) => receivedAt.has(k)), 300_000, 'all webhooks');
      // Until every webhook is in, so the payout and webhook work of this step is counted too.
      const backendsAfter = await backends();
      const cpuAfter = sampleAll();
      xactsSettled = await settledTransactions();
      const label = step === MEASURED ? c : `${c}, ${step}`;
      const perTransfer = cpuPerUnit(cpuBefore, cpuAfter, debits);
      const postgresBenchDb = backendsMs(backendsBefore, backendsAfter) / debits;
      cpuRows.push({
        concurrency: label,
        ...perTransfer,
        postgresBenchDb: Math.round(postgresBenchDb * 100) / 100,
        pgTransactions: Math.round(((xactsSettled - xactsBefore) / debits) * 10) / 10,
      });
      ceilings.push({
        concurrency: label,
        acceptedPerSecond: Math.round(debits / seconds),
        ...coresAllow(
          perTransfer.totalWithoutLoadGenerator + perTransfer.loadGenerator,
          postgresBenchDb + perTransfer.loadGenerator,
          0.15 * tps,
          tps,
        ),
      });
      const byRole = backendsMsByRole(backendsBefore, backendsAfter, roles);
      const perDebit = (ms: number) => Math.round((ms / debits) * 100) / 100;
      const other = Object.entries(byRole)
        .filter(([role]) => !PG_ROLES.includes(role))
        .reduce((n, [, ms]) => n + ms, 0);
      pgByService.push({
        concurrency: label,
        ...Object.fromEntries(PG_ROLES.map((role) => [role, perDebit(byRole[role] ?? 0)])),
        other: perDebit(other),
      });
      const e2e = [...acceptedAt.entries()].map(([k, t]) => (receivedAt.get(k) as number) - t).sort((a, b) => a - b);
      latencies.sort((a, b) => a - b);
      const perSecond = debits / seconds;
      rows.push({
        step,
        concurrency: c,
        acceptedPerSecond: Math.round(perSecond),
        ratioToPgbench: (perSecond / tps).toFixed(3),
        pairP50ms: Math.round(percentile(latencies, 50)),
        pairP95ms: Math.round(percentile(latencies, 95)),
        pairP99ms: Math.round(percentile(latencies, 99)),
        e2eP50ms: Math.round(percentile(e2e, 50)),
        e2eP95ms: Math.round(percentile(e2e, 95)),
        e2eP99ms: Math.round(percentile(e2e, 99)),
      });
    };
    if (WARMUP > 0) {
      // Services that have run for a while: their hot code compiled (V8 is still optimising it
      // through the first thousands of transfers) and the new tables analysed, as autovacuum does
      // in a new database's first minute (a statement's cached plan is made again then). The
      // warm-up's own figures are printed too: the cost of the first minute after a deployment.
      await runStep(WARMUP_STEP, Math.max(...LEVELS), WARMUP);
      await prisma.$executeRawUnsafe('ANALYZE');
    }
    const scansBefore = await seqScans();
    for (const c of LEVELS) await runStep(MEASURED, c, PER_STEP);
    // The statistics collector lags a little: let it catch up before reading.
    await new Promise((r) => setTimeout(r, 1000));
    const scans = [...(await seqScans())]
      .map(([table, after]) => ({
        table,
        seqScans: after.n - (scansBefore.get(table)?.n ?? 0),
        rowsRead: after.rows - (scansBefore.get(table)?.rows ?? 0),
      }))
      .filter((r) => r.seqScans > 0)
      .sort((a, b) => b.rowsRead - a.rowsRead);
    return { rows, cpuRows, pgByService, ceilings, scans, load };
  } finally {
    agent.destroy();
    await stack?.stop();
    await receiver.close();
    await bus.stop();
    await prisma.$disconnect();
    await dropDatabase(databaseUrl);
  }
}

runBench(main);
