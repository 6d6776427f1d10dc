import { randomUUID } from 'node:crypto';
import { type BankRail, SANDBOX_ACCOUNTS, SandboxBankRail } from '@pay/bank-rail';
import { ledgerCommandId, parseLedgerCommand, PayoutEventType, Topic } from '@pay/contracts';
import {
  createPgPool,
  createPrismaClient,
  ledgerCommandMessage,
  PayoutRepository,
  type PrismaClient,
} from '@pay/persistence';
import { createLogger } from '@pay/platform';
import { createMerchant } from '@pay/testing';
import type { Pool } from 'pg';
import { PayoutProcessor } from './payout.processor';

describe('PayoutProcessor (real Postgres, sandbox rail)', () => {
  let prisma: PrismaClient;
  let pool: Pool;
  let payouts: PayoutRepository;
  let processor: PayoutProcessor;
  let rail: SandboxBankRail;
  let merchantId: number;
  let merchantName: string;
  const options = { batchSize: 16, leaseMs: 30_000, timeoutRetryMs: 2_000 };
  const SANDBOX = { name: 'sandbox', live: false };

  beforeAll(async () => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 2);
    pool = createPgPool(process.env.DATABASE_URL as string, 4);
    payouts = new PayoutRepository(pool);
    rail = new SandboxBankRail(pool, { latencyMs: 0, delayMs: 60_000 });
    processor = new PayoutProcessor(payouts, rail, createLogger('test', 'fatal'), options);
    ({ id: merchantId, name: merchantName } = (await createMerchant(prisma)).merchant);
  });
  afterAll(async () => {
    await prisma.$disconnect();
    await pool.end();
  });

  /** A debited disbursement, as the gateway and the ledger leave it: pending and due now. */
  async function pendingDisbursement(accountNo = '1234567890'): Promise<string> {
    const id = randomUUID();
    const platformTrxId = `DSB${randomUUID().replace(/-/g, '').slice(0, 20).toUpperCase()}`;
    const merchantTrxId = `INV-${id.slice(0, 8)}`;
    await prisma.$executeRaw`
      INSERT INTO disbursement_inquiries (platform_trx_id, merchant_id, merchant_trx_id, bank_code, account_no, account_name, amount, fee, expires_at)
      VALUES (${platformTrxId}, ${merchantId}, ${merchantTrxId}, 'BCA', ${accountNo}, 'BUDI SANTOSO', 10000000, 250000, now() + interval '1 hour')`;
    await prisma.$executeRaw`
      INSERT INTO disbursements (id, merchant_id, merchant_trx_id, platform_trx_id, bank_code, account_no, account_name, amount, fee, notify_url, status, next_check_at, debited_at, log_id)
      VALUES (${id}::uuid, ${merchantId}, ${merchantTrxId}, ${platformTrxId}, 'BCA', ${accountNo}, 'BUDI SANTOSO', 10000000, 250000, 'https://merchant.example/cb', 'pending', now(), now(), ${`log-${id}`})`;
    return id;
  }

  const callbacksOf = (id: string) =>
    prisma.webhookDelivery.findMany({ where: { disbursementId: id }, orderBy: { createdAt: 'asc' } });
  const outboxOf = (id: string) =>
    prisma.outbox.findMany({
      where: {
        OR: [{ payload: { path: ['payoutId'], equals: id } }, { payload: { path: ['disbursementId'], equals: id } }],
      },
      orderBy: { id: 'asc' },
    });
  /** The message ids of what the payout wrote for a disbursement, in order */
  const messageIdsOf = async (id: string) =>
    (await outboxOf(id)).map((r) => (r.headers as Record<string, string>)['message-id']);
  const send = (id: string) => ledgerCommandId.payoutSend(id);
  const confirm = (id: string) => ledgerCommandId.payoutConfirm(id);
  const refund = (id: string) => ledgerCommandId.payoutRefund(id);

  it('claims a due disbursement with every field of the model, leases it and records its submission in the same statement', async () => {
    const id = await pendingDisbursement();
    const {
      claimed: [claimed],
    } = await payouts.claimDue(16, 30_000, SANDBOX, [id]);
    expect(claimed).toMatchObject({
      id,
      merchantId,
      merchantName,
      bankCode: 'BCA',
      accountNo: '1234567890',
      amount: 10000000n,
      fee: 250000n,
      status: 'pending',
      submitAttempts: 1,
      priorSubmittedAt: null,
      merchantSandboxReceived: 0n,
      rail: 'sandbox',
      logId: `log-${id}`,
    });
    expect(claimed.submittedAt).toBeInstanceOf(Date);
    expect(claimed.leaseUntil?.getTime()).toBeGreaterThan(Date.now() + 25_000);
    const row = await prisma.disbursement.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ submitAttempts: 1, submittedAt: claimed.submittedAt });
    expect(Object.keys(claimed).sort()).toEqual(
      [...Object.keys(row as object), 'merchantName', 'merchantSandboxReceived', 'priorSubmittedAt', 'rail'].sort(),
    );
    // Leased: no other worker gets it until the lease lapses or is let go.
    expect((await payouts.claimDue(16, 30_000, SANDBOX, [id])).claimed).toEqual([]);
    // A recheck lets the lease go; a future one is reported as the next due time.
    const later = new Date(Date.now() + 3_600_000);
    await payouts.complete([{ kind: 'recheck', disbursement: claimed, at: later, railReference: 'REF-0' }]);
    expect((await payouts.claimDue(16, 30_000, SANDBOX, [id])).nextDueAt?.getTime()).toBeLessThanOrEqual(
      later.getTime(),
    );
    await payouts.complete([
      { kind: 'recheck', disbursement: claimed, at: new Date(Date.now() - 1000), railReference: 'REF-1' },
    ]);
    const {
      claimed: [again],
    } = await payouts.claimDue(16, 30_000, SANDBOX, [id]);
    // Submitted before this claim: the rail is asked first, and no second submission is counted yet.
    expect(again).toMatchObject({
      id,
      railReference: 'REF-1',
      priorSubmittedAt: claimed.submittedAt,
      submitAttempts: 1,
    });
  });

  it('pays a disbursement out once and announces the success in the same transaction', async () => {
    const id = await pendingDisbursement();
    expect((await processor.processDue([id])).claimed).toBe(1);
    const d = await prisma.disbursement.findUniqueOrThrow({ where: { id } });
    expect(d).toMatchObject({ status: 'success', submitAttempts: 1, leaseUntil: null });
    expect(d.successAt).toBeInstanceOf(Date);
    expect(d.railReference).toMatch(/^SBX/);
    expect(await prisma.sandboxRailTransfer.findUniqueOrThrow({ where: { idempotencyKey: id } })).toMatchObject({
      submissions: 1,
      amount: 10000000n,
    });

    // The books: sent over the sandbox rail when the claim recorded the submission, confirmed with the success.
    const [sent, confirmed, ...rows] = await outboxOf(id);
    expect(rows).toHaveLength(1);
    expect(sent).toMatchObject({
      topic: Topic.LedgerCommands,
      key: String(merchantId),
      headers: { 'message-id': send(id), 'log-id': `log-${id}` },
      payload: {
        type: 'payout.send',
        commandId: send(id),
        merchantId,
        logId: `log-${id}`,
        issuedAt: d.submittedAt?.toISOString(),
        payoutId: id,
        rail: 'sandbox',
      },
    });
    // Written by the claim statement, it is the command the ledger's own writer would have written.
    const sendCommand = parseLedgerCommand(sent.payload);
    expect(ledgerCommandMessage(sendCommand)).toEqual({
      topic: sent.topic,
      key: sent.key,
      payload: sent.payload,
      headers: sent.headers,
    });
    expect(confirmed).toMatchObject({
      topic: Topic.LedgerCommands,
      headers: { 'message-id': confirm(id), 'log-id': `log-${id}` },
      payload: {
        type: 'payout.confirm',
        commandId: confirm(id),
        merchantId,
        issuedAt: d.successAt?.toISOString(),
        payoutId: id,
        rail: 'sandbox',
      },
    });
    expect(rows[0]).toMatchObject({
      topic: Topic.PayoutEvents,
      key: String(merchantId),
      headers: { 'message-id': `disbursement.${id}.success`, 'log-id': `log-${id}` },
      payload: {
        eventId: `disbursement.${id}.success`,
        type: PayoutEventType.DisbursementSucceeded,
        merchantId,
        amount: '10000000',
        fee: '250000',
        totalAmount: '10250000',
        status: 'success',
        successAt: d.successAt?.toISOString(),
        failureReason: null,
      },
    });

    // The merchant's callback is written in the same transaction: its delivery row, due now, with the body to sign.
    const callbacks = await callbacksOf(id);
    expect(callbacks).toHaveLength(1);
    expect(callbacks[0]).toMatchObject({
      eventId: `disbursement.${id}.success`,
      eventType: 'disbursement.succeeded',
      merchantId,
      url: 'https://merchant.example/cb',
      status: 'pending',
      attemptCount: 0,
      logId: `log-${id}`,
    });
    expect(callbacks[0].nextAttemptAt?.getTime()).toBeLessThanOrEqual(Date.now());
    expect(JSON.parse(callbacks[0].body)).toMatchObject({
      id: `disbursement.${id}.success`,
      type: 'disbursement.succeeded',
      data: {
        idMerchant: merchantId,
        merchantName,
        amount: 100000,
        fee: { amount: 2500, percentage: 0, fixed: 2500 },
        totalAmount: 102500,
        status: 'success',
      },
    });

    // Final: nothing more to do, and finalising again changes nothing.
    expect((await processor.processDue([id])).claimed).toBe(0);
    expect(
      await payouts.complete([
        {
          kind: 'success',
          disbursement: {
            ...d,
            status: 'pending',
            priorSubmittedAt: d.submittedAt,
            merchantName: 'x',
            merchantSandboxReceived: 0n,
            rail: 'sandbox',
          },
          railReference: 'OTHER',
          at: new Date(),
        },
      ]),
    ).toEqual(new Set());
    expect(await messageIdsOf(id)).toEqual([send(id), confirm(id), `disbursement.${id}.success`]);
    expect(await callbacksOf(id)).toHaveLength(1);
  });

  it('records a rejected transfer as failed with the refund command before the outcome event', async () => {
    const id = await pendingDisbursement(SANDBOX_ACCOUNTS.rejected.bank);
    expect((await processor.processDue([id])).claimed).toBe(1);
    expect(await prisma.disbursement.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: 'failed',
      failureReason: 'Rejected by the beneficiary bank',
      successAt: null,
    });
    const [sent, ...rows] = await outboxOf(id);
    expect(sent.payload).toMatchObject({ type: 'payout.send', payoutId: id, rail: 'sandbox' });
    expect(rows.map((r) => r.topic)).toEqual([Topic.LedgerCommands, Topic.PayoutEvents]);
    expect(rows[0]).toMatchObject({
      key: String(merchantId),
      headers: { 'message-id': ledgerCommandId.payoutRefund(id), 'log-id': `log-${id}` },
      payload: {
        type: 'payout.refund',
        commandId: ledgerCommandId.payoutRefund(id),
        merchantId,
        payoutId: id,
        reason: 'Rejected by the beneficiary bank',
      },
    });
    expect(rows[1].payload).toMatchObject({
      type: PayoutEventType.DisbursementFailed,
      status: 'failed',
      fee: '0',
      feeFixed: '250000',
      totalAmount: '10000000',
      failureReason: 'Rejected by the beneficiary bank',
    });
    const [callback, ...more] = await callbacksOf(id);
    expect(more).toHaveLength(0);
    expect(callback).toMatchObject({
      eventId: `disbursement.${id}.failed`,
      eventType: 'disbursement.failed',
      status: 'pending',
    });
    expect(JSON.parse(callback.body).data).toMatchObject({
      status: 'failed',
      fee: { amount: 0, fixed: 2500 },
      totalAmount: 100000,
      success_at: null,
      failureReason: 'Rejected by the beneficiary bank',
    });
  });

  it('after a rail timeout asks the rail again later instead of submitting twice', async () => {
    const id = await pendingDisbursement(SANDBOX_ACCOUNTS.timeoutThenSuccess.bank);
    expect((await processor.processDue([id])).claimed).toBe(1);
    const d = await prisma.disbursement.findUniqueOrThrow({ where: { id } });
    expect(d).toMatchObject({ status: 'pending', submitAttempts: 1, leaseUntil: null });
    expect(d.submittedAt).toBeInstanceOf(Date);
    expect(d.nextCheckAt?.getTime()).toBeGreaterThan(Date.now());
    // Due again: the rail is asked for the transfer's status (processing), not sent it again.
    await prisma.disbursement.update({ where: { id }, data: { nextCheckAt: new Date(Date.now() - 1000) } });
    expect((await processor.processDue([id])).claimed).toBe(1);
    expect(await prisma.disbursement.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: 'pending',
      submitAttempts: 1,
      railReference: expect.stringMatching(/^SBX/),
    });
    expect(await prisma.sandboxRailTransfer.findUniqueOrThrow({ where: { idempotencyKey: id } })).toMatchObject({
      submissions: 1,
    });
    // Sent once in the books, however often the rail is asked.
    expect(await messageIdsOf(id)).toEqual([send(id)]);
    expect(await callbacksOf(id)).toHaveLength(0);
  });

  it('advances a batch with mixed outcomes in one round: each ends right, with exactly one event and one refund where due', async () => {
    const ok = await Promise.all([1, 2, 3, 4].map(() => pendingDisbursement()));
    const rejected = await Promise.all([1, 2].map(() => pendingDisbursement(SANDBOX_ACCOUNTS.rejected.bank)));
    const processing = await Promise.all([1, 2].map(() => pendingDisbursement(SANDBOX_ACCOUNTS.failAfterDelay.bank)));
    const all = [...ok, ...rejected, ...processing];

    const round = await processor.processDue(all);
    expect(round).toMatchObject({ claimed: all.length, more: false });
    // The processing ones are looked at again when the rail said, and the round says when.
    expect(round.nextDueAt?.getTime()).toBeGreaterThan(Date.now() + 30_000);

    const rows = await prisma.disbursement.findMany({ where: { id: { in: all } } });
    const statusOf = new Map(rows.map((d) => [d.id, d]));
    for (const id of ok)
      expect(statusOf.get(id)).toMatchObject({ status: 'success', submitAttempts: 1, leaseUntil: null });
    for (const id of rejected)
      expect(statusOf.get(id)).toMatchObject({
        status: 'failed',
        failureReason: 'Rejected by the beneficiary bank',
        leaseUntil: null,
      });
    for (const id of processing)
      expect(statusOf.get(id)).toMatchObject({
        status: 'pending',
        submitAttempts: 1,
        leaseUntil: null,
        railReference: expect.stringMatching(/^SBX/),
      });
    for (const id of ok) expect(await messageIdsOf(id)).toEqual([send(id), confirm(id), `disbursement.${id}.success`]);
    for (const id of rejected)
      expect(await messageIdsOf(id)).toEqual([send(id), refund(id), `disbursement.${id}.failed`]);
    for (const id of processing) expect(await messageIdsOf(id)).toEqual([send(id)]);
    for (const id of [...ok, ...rejected]) expect(await callbacksOf(id)).toHaveLength(1);
    for (const id of processing) expect(await callbacksOf(id)).toHaveLength(0);
    for (const id of all)
      expect(await prisma.sandboxRailTransfer.findUniqueOrThrow({ where: { idempotencyKey: id } })).toMatchObject({
        submissions: 1,
      });

    // Nothing of the batch is due again now.
    expect((await processor.processDue(all)).claimed).toBe(0);
  });

  it('a rail error for one disbursement leaves it for later and the rest of the batch goes on', async () => {
    const ids = await Promise.all([1, 2, 3].map(() => pendingDisbursement()));
    const broken = ids[1];
    // The sandbox rail, except that submitting `broken` fails (a connection reset, say).
    const flaky: BankRail = {
      name: rail.name,
      live: rail.live,
      lookupAccount: (bank, account) => rail.lookupAccount(bank, account),
      transferStatus: (key) => rail.transferStatus(key),
      submitTransfer: (request) =>
        request.idempotencyKey === broken ? Promise.reject(new Error('ECONNRESET')) : rail.submitTransfer(request),
    };
    const round = await new PayoutProcessor(payouts, flaky, createLogger('test', 'fatal'), options).processDue(ids);
    expect(round.claimed).toBe(3);
    for (const id of ids.filter((i) => i !== broken)) {
      expect(await prisma.disbursement.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'success' });
      expect(await messageIdsOf(id)).toEqual([send(id), confirm(id), `disbursement.${id}.success`]);
    }
    const left = await prisma.disbursement.findUniqueOrThrow({ where: { id: broken } });
    // Recorded as submitted (the call may have reached the bank), asked again after PAYOUT_TIMEOUT_RETRY_MS.
    expect(left).toMatchObject({ status: 'pending', submitAttempts: 1, leaseUntil: null });
    expect(left.nextCheckAt?.getTime()).toBeGreaterThan(Date.now());
    expect(await messageIdsOf(broken)).toEqual([send(broken)]);

    // Next time round the rail is asked first; it never got the transfer, so it is submitted once and paid.
    await prisma.disbursement.update({ where: { id: broken }, data: { nextCheckAt: new Date(Date.now() - 1000) } });
    expect((await processor.processDue([broken])).claimed).toBe(1);
    expect(await prisma.disbursement.findUniqueOrThrow({ where: { id: broken } })).toMatchObject({
      status: 'success',
      submitAttempts: 2,
    });
    expect(await prisma.sandboxRailTransfer.findUniqueOrThrow({ where: { idempotencyKey: broken } })).toMatchObject({
      submissions: 1,
    });
    // Submitted again, but sent once in the books: no second payout.send.
    expect(await messageIdsOf(broken)).toEqual([send(broken), confirm(broken), `disbursement.${broken}.success`]);
  });

  it('completing the same disbursements twice at once (a lapsed lease taken over) records one outcome, one event, one refund', async () => {
    const failing = await pendingDisbursement(SANDBOX_ACCOUNTS.rejected.bank);
    const paying = await pendingDisbursement();
    const { claimed } = await payouts.claimDue(16, 30_000, SANDBOX, [failing, paying]);
    const outcomes = claimed.map((d) =>
      d.id === failing
        ? {
            kind: 'failed' as const,
            disbursement: d,
            railReference: 'SBX-F',
            reason: 'Rejected by the beneficiary bank',
            code: 'REJECTED_BY_BANK',
            at: new Date(),
          }
        : { kind: 'success' as const, disbursement: d, railReference: 'SBX-S', at: new Date() },
    );
    const [first, second] = await Promise.all([payouts.complete(outcomes), payouts.complete([...outcomes].reverse())]);
    expect(new Set([...first, ...second])).toEqual(new Set([failing, paying]));
    expect(first.size + second.size).toBe(2);
    expect(await messageIdsOf(failing)).toEqual([send(failing), refund(failing), `disbursement.${failing}.failed`]);
    expect(await messageIdsOf(paying)).toEqual([send(paying), confirm(paying), `disbursement.${paying}.success`]);
    expect((await callbacksOf(failing)).map((c) => c.eventId)).toEqual([`disbursement.${failing}.failed`]);
    expect((await callbacksOf(paying)).map((c) => c.eventId)).toEqual([`disbursement.${paying}.success`]);
    expect(await prisma.disbursement.findUniqueOrThrow({ where: { id: failing } })).toMatchObject({ status: 'failed' });
    expect(await prisma.disbursement.findUniqueOrThrow({ where: { id: paying } })).toMatchObject({
      status: 'success',
      railReference: 'SBX-S',
    });
  });
});
