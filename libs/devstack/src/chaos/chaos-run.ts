import { randomUUID } from 'node:crypto';
import { SANDBOX_ACCOUNTS } from '@pay/bank-rail';
import { formatJakartaDateTime } from '@pay/domain';
import { describeBreach, type PrismaClient, verifyLedger } from '@pay/persistence';
import { createMerchant, fundMerchant, waitFor, type WebhookReceiver } from '@pay/testing';
import { type LocalStack, type ServiceName } from '../stack/local-stack';
import type { BusProbe } from './bus-probe';
import { ChaosClient, type HttpTally } from './chaos-client';
import { type DeadLetter, readDeadLetters } from './dead-letters';
import { type ChaosInfra, type FaultEvent, FaultInjector, type FaultPlan } from './fault-injector';
import { checkMoney, sandboxBankRecord, snapBankRecord } from './money-checks';
import { ReconExports } from './recon-exports';

export interface ChaosOptions {
  merchants: number;
  transfers: number;
  payins: number;
  /** Recon exports spread over the workload (more are started while S3 is away) */
  reconExports?: number;
  faults: FaultPlan;
  /** The private PostgreSQL and Redis (and Kafka broker) the stack runs on; needed for their faults */
  infra?: ChaosInfra;
  /** The stack's bus seen from outside: kills wait for a consumer to hold records, and the end checks every group's backlog is 0 */
  probe?: BusProbe;
  concurrency: number;
  /** How long a request (or a recon export) may take to get a definitive answer, outages included; default 300 s */
  deadlineMs?: number;
  /** Random seed, printed so a failing run can be replayed */
  seed: number;
  log?: (line: string) => void;
}

export interface ChaosReport {
  seed: number;
  transfersAccepted: number;
  transfersRefused: number;
  /** Pay-ins that ended successful (from the rows: a retried payment may have been answered 409) */
  payinsPaid: number;
  recon: { requested: number; downloaded: number; rows: number };
  /** inFlight: records the consumer held unacknowledged when it was killed */
  kills: { service: ServiceName; atMs: number; inFlight?: number }[];
  /** Outages, restarts, rebalances and terminated sessions, in order, with how long each server was away */
  faults: FaultEvent[];
  /** Faults of the plan this bus cannot have (broker restarts on Redis Streams) */
  skipped: string[];
  /** Groups whose records were not all acknowledged after the run (Kafka lag, Redis Streams pending entries): should be none */
  backlog: { group: string; topic: string; records: number }[];
  deadLetters: DeadLetter[];
  /** Service processes that ended without the harness killing them */
  unexpectedExits: {
    service: ServiceName;
    pid?: number;
    code: number | null;
    signal: string | null;
    atMs: number;
    reason: string;
  }[];
  /** Services the harness started again after such an exit, so the run could go on */
  revived: { service: ServiceName; atMs: number }[];
  http: HttpTally & { serverErrorTotal: number };
  /** Breaches found by the ledger audit (verifyLedger) */
  audit: { breaches: number };
  violations: string[];
  seconds: number;
}

// On the SNAP simulator (apps/snap-simulator/README.md): refused at once, in progress then failed,
// executed with the answer lost, executed then a 5xx, in progress then success.
const ACCOUNTS: [string, string][] = [
  ['BCA', '1234567890'],
  ['BNI', '2345678901'],
  ['MANDIRI', SANDBOX_ACCOUNTS.rejected.bank],
  ['BRI', SANDBOX_ACCOUNTS.failAfterDelay.bank],
  ['OVO', SANDBOX_ACCOUNTS.timeoutThenSuccess.ewallet],
  ['BRI', '0000000502'],
  ['CIMB', '0000000202'],
];

/**
 * Transfers, pay-ins and recon exports across many merchants while services are SIGKILLed and
 * what they stand on is taken away (PostgreSQL stopped or its sessions cut, Redis restarted, S3
 * stopped); then checks that nothing was lost or moved twice, nothing was dead-lettered, no
 * service died on its own and no request was answered with a 5xx other than 503. Every request
 * is retried until it gets a definitive answer, as a merchant's integration would.
 */
export async function runChaos(
  stack: LocalStack,
  prisma: PrismaClient,
  receiver: WebhookReceiver,
  o: ChaosOptions,
): Promise<ChaosReport> {
  const log = o.log ?? (() => undefined);
  let seed = o.seed;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const started = Date.now();
  const notifyUrl = `http://127.0.0.1:${new URL(receiver.url).port}/callback`;

  const merchants: { id: number; token: string }[] = [];
  for (let i = 0; i < o.merchants; i++) {
    const { merchant, token } = await createMerchant(prisma);
    // About its share of the transfers (10,000-100,000 IDR each, ~55,000 on average): most are accepted, and a
    // merchant that runs low meets refusals (failed payouts refund, so how many varies with the seed).
    const share = Math.ceil(o.transfers / o.merchants);
    await fundMerchant(prisma, merchant.id, [BigInt(share * 50_000_00 + Math.floor(random() * 1_000_000_00))]);
    merchants.push({ id: merchant.id, token });
  }
  // The harness holds no database session while the faults run: it reconnects for the checks.
  await prisma.$disconnect();

  const client = new ChaosClient(stack.gatewayUrl, started, random, o.deadlineMs);
  const recon = new ReconExports(client, formatJakartaDateTime(new Date()).slice(0, 10), o.deadlineMs);
  const pick = () => merchants[Math.floor(random() * merchants.length)];
  const report = { seed: o.seed, transfersAccepted: 0, transfersRefused: 0, payinsPaid: 0 };
  // What the platform confirmed (200) and later answered as unknown (404): a write lost, whatever lost it.
  const forgotten: string[] = [];
  const jobs: (() => Promise<void>)[] = [];
  for (let i = 0; i < o.transfers; i++) {
    jobs.push(async () => {
      const m = pick();
      const [bankCode, accountNo] = ACCOUNTS[Math.floor(random() * ACCOUNTS.length)];
      const amount = 10_000 + Math.floor(random() * 90_000);
      const inq = await client.post('disbursement/account-inquiry', m.token, {
        merchantTrxId: `CH-${randomUUID()}`,
        accountNo,
        bankCode,
        amount,
      });
      if (inq.status !== 200 || !inq.body.data) return;
      const { fee: _fee, totalAmount: _total, ...fields } = inq.body.data;
      const res = await client.post('disbursement/transfer', m.token, { ...fields, notifyUrl });
      if (res.status === 200) report.transfersAccepted++;
      else report.transfersRefused++;
      if (res.status === 404)
        forgotten.push(
          `account inquiry ${String(fields.merchantTrxId)} answered 200, then its transfer ${res.body.code ?? 404}`,
        );
    });
  }
  for (let i = 0; i < o.payins; i++) {
    jobs.push(async () => {
      const m = pick();
      const merchantTrxId = `CHP-${randomUUID()}`;
      if (
        (
          await client.post('payin/qris/generate', m.token, {
            merchantTrxId,
            amount: 1_000 + Math.floor(random() * 500_000),
          })
        ).status !== 200
      )
        return;
      // A retry after a lost response finds the code already paid (409): counted from the rows at the end.
      const paid = await client.post('payin/qris/sandbox/pay', m.token, { merchantTrxId });
      if (paid.status === 404)
        forgotten.push(`pay-in ${merchantTrxId} generated (200), then its payment ${paid.body.code ?? 404}`);
    });
  }
  // An export polls for a while: it runs beside the workload instead of holding a worker slot.
  for (let i = 0; i < (o.reconExports ?? 0); i++) jobs.push(async () => void recon.start(pick()));
  jobs.sort(() => random() - 0.5);

  const injector = new FaultInjector(
    stack,
    o.infra,
    o.faults,
    random,
    started,
    log,
    () => {
      for (let i = 0; i < Math.min(3, merchants.length); i++) void recon.start(pick());
    },
    o.probe,
  );
  let next = 0;
  let workDone = false;
  const faults = injector.run(
    jobs.length,
    () => next,
    () => workDone,
  );
  faults.catch(() => undefined); // awaited below; this only keeps an early failure from being unhandled meanwhile
  await Promise.all(
    Array.from({ length: o.concurrency }, async () => {
      while (next < jobs.length) {
        const i = next++;
        await injector.due(i);
        await jobs[i]();
      }
    }),
  ).finally(() => (workDone = true));
  await faults;
  await recon.settle();
  await injector.reviveExited();

  // Quiescence: every accepted transfer final, every pay-in recorded, every final status delivered.
  const ids = merchants.map((m) => m.id);
  await waitFor(
    async () =>
      (await prisma.disbursement.count({
        where: { merchantId: { in: ids }, status: { in: ['funding', 'pending'] } },
      })) === 0,
    300_000,
    'all disbursements final',
  );
  await waitFor(
    async () =>
      (await prisma.payin.count({ where: { merchantId: { in: ids }, status: 'success', ledgerEventId: null } })) === 0,
    120_000,
    'all pay-ins recorded',
  );
  const payinsPaid = await prisma.payin.count({
    where: { merchantId: { in: ids }, status: 'success', merchantTrxId: { startsWith: 'CHP-' } },
  });
  const finals = await prisma.disbursement.findMany({
    where: { merchantId: { in: ids }, status: { in: ['success', 'failed'] } },
  });
  // A failed transfer's refund is a ledger command of its own: wait for it too (the audit below names any never booked).
  const refundsBooked = async () =>
    (await prisma.disbursement.count({ where: { merchantId: { in: ids }, status: 'failed' } })) ===
    (await prisma.ledgerEvent.count({ where: { merchantId: { in: ids }, type: 'payout.refunded' } }));
  await waitFor(refundsBooked, 60_000, 'all refunds booked').catch(() => undefined);
  await waitFor(
    async () => new Set(receiver.requests.map((r) => r.headers['x-callback-event-id'])).size >= finals.length,
    180_000,
    'all webhooks delivered',
  ).catch(() => undefined);
  await waitFor(
    async () => (await prisma.outbox.count({ where: { publishedAt: null } })) === 0,
    60_000,
    'outbox drained',
  ).catch(() => undefined);

  const bank = stack.snap ? await snapBankRecord(stack.snap) : sandboxBankRecord(prisma);
  const v = await checkMoney(prisma, receiver, ids, finals, bank);
  // The ledger audit: balances against events, and every pay-in, settlement, disbursement and
  // decision against exactly its event (strict: after quiescence nothing may be in flight).
  const audit = await verifyLedger(prisma, { merchantIds: ids });
  for (const b of audit.breaches) v.push(`audit: ${describeBreach(b)}`);
  // The platform's books as a whole (the run's database is its own): every account folds, the
  // platform's entries have their decisions, and the trial balance is zero.
  const books = await verifyLedger(prisma);
  for (const b of books.breaches.filter((x) => x.check.startsWith('books.') && x.merchantId === null))
    v.push(`audit: ${describeBreach(b)}`);
  v.push(...(await recon.check(prisma)));
  const deadLetters = await readDeadLetters(stack.bus.redisUrl, stack.bus.keyPrefix, prisma);
  // Every consumer caught up: nothing left unacknowledged in any group (a record stuck there was never handled).
  let backlog: ChaosReport['backlog'] = [];
  if (o.probe) {
    const probe = o.probe;
    // A probe that cannot look counts as a backlog: the check must not pass by not looking.
    const look = () =>
      probe.backlog().catch((err: Error) => [{ group: '?', topic: `(probe failed: ${err.message})`, records: -1 }]);
    await waitFor(async () => (backlog = await look()).length === 0, 60_000, 'every group caught up').catch(
      () => undefined,
    );
    for (const b of backlog) v.push(`group ${b.group} has ${b.records} unacknowledged records of ${b.topic}`);
    for (const [topic, n] of Object.entries(await probe.deadLetterTopicRecords()))
      v.push(`${topic} holds ${n} dead-lettered records`);
  }
  v.push(...forgotten.map((f) => `forgotten: ${f}`));
  for (const f of injector.events) if (f.error) v.push(`${f.kind} at ${(f.atMs / 1000).toFixed(1)} s: ${f.error}`);
  for (const d of deadLetters)
    v.push(
      `dead letter ${d.dlqTopic} ${d.id} (${d.seenIn}): group ${d.group ?? '?'} key ${d.key ?? '?'} after ${d.deliveryCount ?? '?'} deliveries, fault ${d.fault ?? '?'} (${d.error ?? ''}): ${d.value}`,
    );
  const unexpectedExits = stack.unexpectedExits.map((e) => ({
    ...e,
    signal: e.signal as string | null,
    atMs: e.at.getTime() - started,
  }));
  for (const e of unexpectedExits)
    v.push(
      `${e.service} (pid ${e.pid}) exited on its own at ${(e.atMs / 1000).toFixed(1)} s with ${e.code ?? e.signal}: ${e.reason}`,
    );
  for (const e of client.tally.serverErrors)
    v.push(
      `HTTP ${e.status} ${e.code ?? ''} on ${e.path} ${e.merchantTrxId ?? ''} at ${(e.atMs / 1000).toFixed(1)} s: ${e.message ?? ''}`,
    );
  for (const u of client.tally.unanswered)
    v.push(`no definitive answer on ${u.path} ${u.merchantTrxId ?? ''} (given up at ${(u.atMs / 1000).toFixed(1)} s)`);
  if (client.serverErrorTotal > client.tally.serverErrors.length)
    v.push(`... ${client.serverErrorTotal - client.tally.serverErrors.length} more 5xx answers (not 503)`);

  return {
    ...report,
    payinsPaid,
    recon: { requested: recon.requested, downloaded: recon.downloads.length, rows: recon.rows },
    kills: injector.events
      .filter((e) => e.kind === 'kill')
      .map((e) => ({ service: e.service as ServiceName, atMs: e.atMs, inFlight: e.inFlight })),
    faults: injector.events.filter((e) => e.kind !== 'kill'),
    skipped: injector.skipped,
    backlog,
    deadLetters,
    unexpectedExits,
    revived: injector.revived,
    http: { ...client.tally, serverErrorTotal: client.serverErrorTotal },
    audit: { breaches: audit.breaches.length },
    violations: v,
    seconds: (Date.now() - started) / 1000,
  };
}
