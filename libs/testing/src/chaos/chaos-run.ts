import { randomUUID } from 'node:crypto';
import { type PrismaClient, verifyLedger } from '@pay/persistence';
import { SANDBOX_ACCOUNTS } from '@pay/bank-rail';
import { createMerchant, fundMerchant } from '../fixtures';
import type { WebhookReceiver } from '../http/webhook-receiver';
import { waitFor } from '../seed/demo-merchant';
import { type LocalStack, type ServiceName } from '../stack/local-stack';

export interface ChaosOptions {
  merchants: number;
  transfers: number;
  payins: number;
  kills: number;
  concurrency: number;
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
  kills: { service: ServiceName; atMs: number }[];
  violations: string[];
  seconds: number;
}

const ACCOUNTS: [string, string][] = [
  ['BCA', '1234567890'],
  ['BNI', '2345678901'],
  ['MANDIRI', SANDBOX_ACCOUNTS.rejected.bank],
  ['BRI', SANDBOX_ACCOUNTS.failAfterDelay.bank],
  ['OVO', SANDBOX_ACCOUNTS.timeoutThenSuccess.ewallet],
];
const KILLABLE: ServiceName[] = ['ledger', 'payout', 'workers', 'gateway'];

/**
 * Transfers and pay-ins across many merchants while random services are SIGKILLed and
 * restarted; then checks that nothing was lost or moved twice. Every request is retried until
 * it gets a definitive answer, as a merchant's integration would.
 */
export async function runChaos(stack: LocalStack, prisma: PrismaClient, receiver: WebhookReceiver, o: ChaosOptions): Promise<ChaosReport> {
  const log = o.log ?? (() => undefined);
  let seed = o.seed;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
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

  /** POST until the answer is definitive: 2xx or a 4xx; connection errors and 5xx are retried. */
  async function post(path: string, token: string, body: object): Promise<{ status: number; body: { data?: Record<string, unknown>; code?: string } }> {
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await fetch(`${stack.gatewayUrl}/api/v1/${path}`, { method: 'POST', headers: { token, 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(15_000) });
        if (res.status < 500) return { status: res.status, body: (await res.json()) as { data?: Record<string, unknown>; code?: string } };
      } catch {
        // the gateway is down or restarting
      }
      if (attempt > 200) throw new Error(`${path} never got a definitive answer`);
      await new Promise((r) => setTimeout(r, 100 + random() * 200));
    }
  }

  const report: ChaosReport = { seed: o.seed, transfersAccepted: 0, transfersRefused: 0, payinsPaid: 0, kills: [], violations: [], seconds: 0 };
  const jobs: (() => Promise<void>)[] = [];
  for (let i = 0; i < o.transfers; i++) {
    jobs.push(async () => {
      const m = merchants[Math.floor(random() * merchants.length)];
      const [bankCode, accountNo] = ACCOUNTS[Math.floor(random() * ACCOUNTS.length)];
      const amount = 10_000 + Math.floor(random() * 90_000);
      const inq = await post('disbursement/account-inquiry', m.token, { merchantTrxId: `CH-${randomUUID()}`, accountNo, bankCode, amount });
      if (inq.status !== 200 || !inq.body.data) return;
      const { fee: _fee, totalAmount: _total, ...fields } = inq.body.data;
      const res = await post('disbursement/transfer', m.token, { ...fields, notifyUrl });
      if (res.status === 200) report.transfersAccepted++;
      else report.transfersRefused++;
    });
  }
  for (let i = 0; i < o.payins; i++) {
    jobs.push(async () => {
      const m = merchants[Math.floor(random() * merchants.length)];
      const merchantTrxId = `CHP-${randomUUID()}`;
      if ((await post('payin/qris/generate', m.token, { merchantTrxId, amount: 1_000 + Math.floor(random() * 500_000) })).status !== 200) return;
      // A retry after a lost response finds the code already paid (409): counted from the rows at the end.
      await post('payin/qris/sandbox/pay', m.token, { merchantTrxId });
    });
  }
  jobs.sort(() => random() - 0.5);

  // The killer: o.kills SIGKILLs spread over the whole workload (the k-th at a random point of
  // the k-th of o.kills equal slices of the jobs), each followed by a restart.
  let workloadDone = false;
  let next = 0;
  const killer = (async () => {
    for (let k = 0; k < o.kills && !workloadDone; k++) {
      const at = Math.floor(((k + 0.9 * random()) / o.kills) * jobs.length); // never in a slice's last tenth, so the last kill lands before the work ends
      while (next < at && !workloadDone) await new Promise((r) => setTimeout(r, 50));
      if (workloadDone) break;
      const service = KILLABLE[Math.floor(random() * KILLABLE.length)];
      report.kills.push({ service, atMs: Date.now() - started });
      log(`kill -9 ${service}`);
      await stack.kill(service);
      await new Promise((r) => setTimeout(r, 200 + random() * 500));
      await stack.startService(service);
    }
  })();
  await Promise.all(
    Array.from({ length: o.concurrency }, async () => {
      while (next < jobs.length) await jobs[next++]();
    }),
  );
  workloadDone = true;
  await killer;

  // Quiescence: every accepted transfer final, every pay-in recorded, every final status delivered.
  const ids = merchants.map((m) => m.id);
  await waitFor(async () => (await prisma.disbursement.count({ where: { merchantId: { in: ids }, status: { in: ['funding', 'pending'] } } })) === 0, 180_000, 'all disbursements final');
  await waitFor(async () => (await prisma.payin.count({ where: { merchantId: { in: ids }, status: 'success', ledgerEventId: null } })) === 0, 120_000, 'all pay-ins recorded');
  report.payinsPaid = await prisma.payin.count({ where: { merchantId: { in: ids }, status: 'success', merchantTrxId: { startsWith: 'CHP-' } } });
  const finals = await prisma.disbursement.findMany({ where: { merchantId: { in: ids }, status: { in: ['success', 'failed'] } } });
  await waitFor(async () => (await prisma.payin.count({ where: { merchantId: { in: ids }, status: 'success', ledgerEventId: null } })) === 0, 60_000, 'ledger caught up');
  await waitFor(async () => new Set(receiver.requests.map((r) => r.headers['x-callback-event-id'])).size >= finals.length, 180_000, 'all webhooks delivered').catch(() => undefined);
  await waitFor(async () => (await prisma.outbox.count({ where: { publishedAt: null } })) === 0, 60_000, 'outbox drained').catch(() => undefined);

  const v = report.violations;
  // 1. Every disbursement final, each paid by the rail exactly once.
  for (const d of finals) {
    const rail = await prisma.sandboxRailTransfer.count({ where: { idempotencyKey: d.id } });
    if (rail !== 1) v.push(`disbursement ${d.id} reached the rail ${rail} times`);
  }
  // 2. Every balance equals the fold of its events.
  for (const m of (await verifyLedger(prisma)).mismatches) if (ids.includes(m.merchantId)) v.push(`verify: merchant ${m.merchantId} ${m.field} projection ${m.projection} != ${m.expected}`);
  for (const id of ids) {
    // 3. Money is conserved: settled pay-in nets = available + successful payouts (amount + fee); pending = unsettled nets.
    const settled = await prisma.payin.findMany({ where: { merchantId: id, status: 'success', settlementId: { not: null } }, select: { amount: true, fee: true } });
    const unsettled = await prisma.payin.findMany({ where: { merchantId: id, status: 'success', settlementId: null }, select: { amount: true, fee: true } });
    const paidOut = await prisma.disbursement.findMany({ where: { merchantId: id, status: 'success' }, select: { amount: true, fee: true } });
    const balance = await prisma.balance.findUniqueOrThrow({ where: { merchantId: id } });
    const settledNet = settled.reduce((s, p) => s + p.amount - p.fee, 0n);
    const out = paidOut.reduce((s, d) => s + d.amount + d.fee, 0n);
    if (settledNet !== balance.available + out) v.push(`merchant ${id}: settled nets ${settledNet} != available ${balance.available} + payouts ${out}`);
    const unsettledNet = unsettled.reduce((s, p) => s + p.amount - p.fee, 0n);
    if (unsettledNet !== balance.pending) v.push(`merchant ${id}: pending ${balance.pending} != unsettled nets ${unsettledNet}`);
    // 4. available never negative along the event sequence.
    const events = await prisma.ledgerEvent.findMany({ where: { merchantId: id }, orderBy: { seq: 'asc' }, select: { seq: true, availableDelta: true } });
    let running = 0n;
    for (const e of events) {
      running += e.availableDelta;
      if (running < 0n) v.push(`merchant ${id}: available ${running} < 0 at seq ${e.seq}`);
    }
  }
  // 5. Every final status reached the receiver, one event id per disbursement.
  const received = new Map<string, Set<string>>();
  for (const r of receiver.requests) {
    const body = JSON.parse(r.rawBody) as { id: string; data: { platformTrxId: string } };
    const set = received.get(body.data.platformTrxId) ?? new Set<string>();
    set.add(body.id);
    received.set(body.data.platformTrxId, set);
  }
  for (const d of finals) {
    const got = received.get(d.platformTrxId);
    if (!got) v.push(`disbursement ${d.id} (${d.status}): no webhook received`);
    else if (got.size !== 1 || !got.has(`disbursement.${d.id}.${d.status}`)) v.push(`disbursement ${d.id}: webhook event ids ${[...got].join(', ')}`);
  }
  report.seconds = (Date.now() - started) / 1000;
  return report;
}
