import { randomUUID } from 'node:crypto';
import { ledgerCommandId, parseLedgerCommand, Topic } from '@pay/contracts';
import { verifyLedger } from '@pay/persistence';
import { createDisbursement, createMerchant, fundMerchant, ledgerFor, signedInOperator } from '@pay/testing';
import request from 'supertest';
import type { App } from 'supertest/types';
import { type GatewayApp, startTestGateway } from '../../testing/test-gateway';

const ADMIN_TOKEN = 'adm_reverse_0123456789abcdef0123456789abcdef';
const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
const REASON = 'Returned by BCA on 2026-11-25: beneficiary account closed (RTN-0042)';

/**
 * A successful payout the beneficiary's bank returned, reversed by an operator (ops API, console):
 * the disbursement reads reversed everywhere the merchant looks, the ledger gives amount + fee back,
 * the merchant's callback is written, the audit log says who and why; a second reversal changes
 * nothing; anything but a success is refused with the error envelope.
 */
describe('POST /ops/disbursements/:id/reverse (real Postgres and Redis, the ledger applied by hand)', () => {
  let gateway: GatewayApp;
  let ops: App;
  let api: App;

  beforeAll(async () => {
    gateway = await startTestGateway({ ADMIN_TOKEN });
    ops = gateway.internalServer;
    api = gateway.app.getHttpServer();
  });
  afterAll(() => gateway.close());

  const available = async (merchantId: number) =>
    (await gateway.prisma.balance.findUniqueOrThrow({ where: { merchantId } })).available;
  /** The ledger applies what was written for it about the payout (its debit aside), in order, as from the bus */
  const ledgerApplies = async (payoutId: string) => {
    const rows = await gateway.prisma.outbox.findMany({
      where: { topic: Topic.LedgerCommands, payload: { path: ['payoutId'], equals: payoutId } },
      orderBy: { id: 'asc' },
    });
    const applied: string[] = [];
    for (const row of rows) {
      const command = parseLedgerCommand(row.payload);
      if (command.type === 'payout.debit') continue;
      applied.push(`${command.type} ${(await ledgerFor(gateway.prisma).apply(command)).outcome}`);
    }
    return applied;
  };
  const auditRowsOf = (target: string) =>
    gateway.prisma.$queryRaw<
      { operator_user_id: string | null; actor: string | null; action: string; details: object }[]
    >`
      SELECT operator_user_id::text, actor, action, details FROM operator_audit_log WHERE target = ${target} ORDER BY id`;

  async function paidPayout() {
    const { merchant, token } = await createMerchant(gateway.prisma);
    await fundMerchant(gateway.prisma, merchant.id, [500_000_00n]);
    const funded = await available(merchant.id);
    const { disbursement } = await createDisbursement(gateway.prisma, merchant.id, {
      amount: 100_000_00n,
      fee: 2_500_00n,
      outcome: 'success',
    });
    expect(await ledgerApplies(disbursement.id)).toEqual(['payout.confirm applied']);
    expect(await available(merchant.id)).toBe(funded - 102_500_00n);
    return { merchant, token, funded, disbursement };
  }

  it('reverses a success: reversed with time and reason, amount + fee back, the callback written, one audit row; again: the same answer, nothing more', async () => {
    const { merchant, token, funded, disbursement: d } = await paidPayout();

    const res = await request(ops).post(`/ops/disbursements/${d.id}/reverse`).set(auth).send({ reason: REASON });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: true,
      message: 'Disbursement reversed',
      data: {
        disbursementId: d.id,
        merchantId: merchant.id,
        merchantTrxId: d.merchantTrxId,
        status: 'reversed',
        reason: REASON,
        returned: 102500,
        alreadyReversed: false,
      },
    });
    const row = await gateway.prisma.disbursement.findUniqueOrThrow({ where: { id: d.id } });
    expect(row).toMatchObject({ status: 'reversed', reversalReason: REASON });
    expect(row.reversedAt?.toISOString()).toBe(res.body.data.reversedAt);

    // The ledger: payout.reverse, amount + fee back into available; the audit of the merchant is clean.
    expect(await ledgerApplies(d.id)).toEqual(['payout.confirm applied', 'payout.reverse applied']);
    expect(await available(merchant.id)).toBe(funded);
    expect(await verifyLedger(gateway.prisma, { merchantIds: [merchant.id] })).toMatchObject({
      breaches: [],
      inFlight: [],
    });

    // The merchant's callback, written in the same transaction, due now.
    const callbacks = await gateway.prisma.webhookDelivery.findMany({
      where: { disbursementId: d.id },
      orderBy: { createdAt: 'asc' },
    });
    const reversed = callbacks.find((c) => c.eventType === 'disbursement.reversed');
    expect(reversed).toMatchObject({ eventId: `disbursement.${d.id}.reversed`, status: 'pending' });
    expect(JSON.parse(reversed?.body ?? '{}')).toMatchObject({
      id: `disbursement.${d.id}.reversed`,
      type: 'disbursement.reversed',
      data: {
        merchantTrxId: d.merchantTrxId,
        status: 'reversed',
        fee: { amount: 0, fixed: 2500 },
        totalAmount: 100000,
        reversalReason: REASON,
        reversed_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      },
    });

    // The merchant sees it: the inquiry and the list.
    const inquiry = await request(api)
      .post('/api/v1/disbursement/inquiry')
      .set('token', token)
      .send({ merchantTrxId: d.merchantTrxId });
    expect(inquiry.status).toBe(200);
    expect(inquiry.body.data).toMatchObject({
      status: 'reversed',
      fee: { amount: 0, percentage: 0, fixed: 2500 },
      totalAmount: 100000,
      success_at: expect.stringMatching(/^\d{4}-/),
      reversed_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      reversalReason: REASON,
    });
    expect(inquiry.body.data).not.toHaveProperty('failureReason');
    const list = await request(api).get('/api/v1/disbursement/list').set('token', token).query({ status: 'reversed' });
    expect(list.status).toBe(200);
    expect(list.body.data.items).toEqual([
      expect.objectContaining({ merchantTrxId: d.merchantTrxId, status: 'reversed', reversalReason: REASON }),
    ]);

    // Audited once, by the ops API, with the reason.
    expect(await auditRowsOf(`disbursement:${d.id}`)).toEqual([
      { operator_user_id: null, actor: 'ops-api', action: 'disbursement.reverse', details: { reason: REASON } },
    ]);

    // Again (a retried request, another reason): the first reversal's answer; nothing written, nothing booked.
    const outbox = await gateway.prisma.outbox.count({ where: { key: String(merchant.id) } });
    const again = await request(ops)
      .post(`/ops/disbursements/${d.id}/reverse`)
      .set(auth)
      .send({ reason: 'another reason' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      message: 'Disbursement already reversed',
      data: { ...res.body.data, alreadyReversed: true },
    });
    expect(await gateway.prisma.outbox.count({ where: { key: String(merchant.id) } })).toBe(outbox);
    expect(await gateway.prisma.webhookDelivery.count({ where: { disbursementId: d.id } })).toBe(callbacks.length);
    expect(await auditRowsOf(`disbursement:${d.id}`)).toHaveLength(1);
    // And the ledger, handed payout.reverse again (a redelivery), answers it as the first time.
    const [reverse] = (
      await gateway.prisma.outbox.findMany({
        where: { headers: { path: ['message-id'], equals: ledgerCommandId.payoutReverse(d.id) } },
      })
    ).map((r) => parseLedgerCommand(r.payload));
    expect((await ledgerFor(gateway.prisma).apply(reverse)).outcome).toBe('applied');
    expect(await available(merchant.id)).toBe(funded);
  });

  it('refuses what is not a success (409 DISBURSEMENT_NOT_REVERSIBLE), an unknown disbursement (404), a missing reason (400); each changes nothing and writes no audit row', async () => {
    const { merchant } = await createMerchant(gateway.prisma);
    await fundMerchant(gateway.prisma, merchant.id, [500_000_00n]);
    const { disbursement: pending } = await createDisbursement(gateway.prisma, merchant.id, {
      amount: 100_000_00n,
      fee: 2_500_00n,
      outcome: 'pending',
    });
    const { disbursement: failed } = await createDisbursement(gateway.prisma, merchant.id, {
      amount: 100_000_00n,
      fee: 2_500_00n,
      outcome: 'failed',
    });
    for (const d of [pending, failed]) {
      const res = await request(ops).post(`/ops/disbursements/${d.id}/reverse`).set(auth).send({ reason: REASON });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        logId: expect.any(String),
        status: false,
        code: 'DISBURSEMENT_NOT_REVERSIBLE',
        message: `Only a successful disbursement can be reversed; this one is ${d.status}`,
      });
      expect((await gateway.prisma.disbursement.findUniqueOrThrow({ where: { id: d.id } })).status).toBe(d.status);
      expect(await auditRowsOf(`disbursement:${d.id}`)).toEqual([]);
    }

    for (const id of [randomUUID(), 'not-a-uuid']) {
      const res = await request(ops).post(`/ops/disbursements/${id}/reverse`).set(auth).send({ reason: REASON });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ status: false, code: 'NOT_FOUND', message: 'Disbursement not found' });
    }
    const noReason = await request(ops).post(`/ops/disbursements/${pending.id}/reverse`).set(auth).send({});
    expect(noReason.status).toBe(400);
    expect(noReason.body).toMatchObject({ status: false, code: 'VALIDATION_ERROR' });
    const blank = await request(ops).post(`/ops/disbursements/${pending.id}/reverse`).set(auth).send({ reason: '  ' });
    expect(blank.status).toBe(400);
    expect((await request(ops).post(`/ops/disbursements/${pending.id}/reverse`).send({ reason: REASON })).status).toBe(
      401,
    );
  });

  it("the console's: an operator with a recent password reverses, audited as that operator", async () => {
    const { disbursement: d } = await paidPayout();
    const operator = await signedInOperator(gateway.prisma, ops as never);
    const res = await request(ops)
      .post(`/console/api/disbursements/${d.id}/reverse`)
      .set(operator.headers)
      .send({ reason: REASON });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'reversed', alreadyReversed: false });
    expect(await auditRowsOf(`disbursement:${d.id}`)).toEqual([
      {
        operator_user_id: String(operator.userId),
        actor: null,
        action: 'disbursement.reverse',
        details: { reason: REASON },
      },
    ]);
  });
});
