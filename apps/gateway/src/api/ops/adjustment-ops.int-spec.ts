import { randomUUID } from 'node:crypto';
import { ledgerCommandId, parseLedgerCommand, Topic } from '@pay/contracts';
import { verifyLedger } from '@pay/persistence';
import { createMerchant, fundMerchant, ledgerFor, signedInOperator } from '@pay/testing';
import request from 'supertest';
import type { App } from 'supertest/types';
import { type GatewayApp, startTestGateway } from '../../testing/test-gateway';

const ADMIN_TOKEN = 'adm_adjust_0123456789abcdef0123456789abcdef0';
const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };

type Operator = Awaited<ReturnType<typeof signedInOperator>>;

/**
 * Manual adjustments, maker-checker (issue 43): one operator requests, another approves (the
 * ledger's books.adjust, applied here by hand as from the bus) or rejects; the requester never
 * decides their own; every step is in the audit log; what the ledger made of it shows on the
 * adjustment. Through the console (two operators) and the ops API (actor ops-api).
 */
describe('adjustments: /ops/adjustments and /console/api/adjustments (real Postgres and Redis)', () => {
  let gateway: GatewayApp;
  let ops: App;
  let maker: Operator;
  let checker: Operator;

  beforeAll(async () => {
    gateway = await startTestGateway({ ADMIN_TOKEN });
    ops = gateway.internalServer;
    maker = await signedInOperator(gateway.prisma, ops as never);
    checker = await signedInOperator(gateway.prisma, ops as never);
  });
  afterAll(() => gateway.close());

  const available = async (merchantId: number) =>
    (await gateway.prisma.balance.findUniqueOrThrow({ where: { merchantId } })).available;
  const commandsOf = (adjustmentId: string) =>
    gateway.prisma.outbox.findMany({
      where: { topic: Topic.LedgerCommands, payload: { path: ['adjustmentId'], equals: adjustmentId } },
      orderBy: { id: 'asc' },
    });
  /** The ledger applies the adjustment's command as from the bus; its outcome */
  const ledgerApplies = async (adjustmentId: string) => {
    const [row, ...more] = await commandsOf(adjustmentId);
    expect(more).toEqual([]);
    return ledgerFor(gateway.prisma).apply(parseLedgerCommand(row.payload));
  };
  const auditRowsOf = (id: string) =>
    gateway.prisma.$queryRaw<
      { operator_user_id: string | null; actor: string | null; action: string; details: object }[]
    >`
      SELECT operator_user_id::text, actor, action, details FROM operator_audit_log WHERE target = ${`adjustment:${id}`} ORDER BY id`;
  const console = (op: Operator) => ({
    post: (path: string, body: object) => request(ops).post(`/console/api${path}`).set(op.headers).send(body),
    get: (path: string) => request(ops).get(`/console/api${path}`).set(op.headers),
  });

  it('a credit to a merchant: requested by one operator, refused to the same (403, nothing changes), approved by another; available moves by exactly the amount; the audit clean', async () => {
    const { merchant } = await createMerchant(gateway.prisma);
    await fundMerchant(gateway.prisma, merchant.id, [10_000_00n]);
    const before = await available(merchant.id);
    const reason = `Goodwill credit for the outage, ticket OPS-${randomUUID().slice(0, 6)}`;
    const postings = [
      { account: 'expense:adjustments', amount: 1500.5 },
      { account: `merchant:${merchant.id}:available`, amount: -1500.5 },
    ];

    const asked = await console(maker).post('/adjustments', { merchantId: merchant.id, postings, reason });
    expect(asked.status).toBe(201);
    const id = asked.body.data.id as string;
    expect(asked.body).toMatchObject({
      status: true,
      message: 'Adjustment requested',
      data: {
        merchantId: merchant.id,
        postings,
        reason,
        status: 'requested',
        requestedBy: `operator:${maker.userId}`,
        requestedByName: maker.email,
        decidedBy: null,
        ledger: null,
      },
    });
    const ttl = Date.parse(asked.body.data.expiresAt) - Date.parse(asked.body.data.requestedAt);
    expect(ttl).toBe(72 * 3_600_000);

    // The requester approving or rejecting their own: 403, nothing written.
    const own = await console(maker).post(`/adjustments/${id}/approve`, {});
    expect(own.status).toBe(403);
    expect(own.body).toMatchObject({ status: false, code: 'OWN_ADJUSTMENT', logId: expect.any(String) });
    expect((await console(maker).post(`/adjustments/${id}/reject`, { note: 'mine' })).status).toBe(403);
    expect((await console(maker).get(`/adjustments/${id}`)).body.data).toMatchObject({ status: 'requested' });
    expect(await commandsOf(id)).toEqual([]);

    const approved = await console(checker).post(`/adjustments/${id}/approve`, { note: 'Checked the outage report' });
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({
      status: 'approved',
      decidedBy: `operator:${checker.userId}`,
      decidedByName: checker.email,
      decisionNote: 'Checked the outage report',
      ledger: { outcome: 'pending', reason: null },
    });
    const [command] = await commandsOf(id);
    expect(parseLedgerCommand(command.payload)).toMatchObject({
      type: 'books.adjust',
      commandId: ledgerCommandId.booksAdjust(id),
      merchantId: merchant.id,
      adjustmentId: id,
      postings: [
        { account: 'expense:adjustments', amount: '150050' },
        { account: `merchant:${merchant.id}:available`, amount: '-150050' },
      ],
      reason,
      requestedBy: `operator:${maker.userId}`,
      approvedBy: `operator:${checker.userId}`,
    });

    expect(await ledgerApplies(id)).toMatchObject({ outcome: 'applied' });
    expect(await available(merchant.id)).toBe(before + 1500_50n);
    expect(await verifyLedger(gateway.prisma, { merchantIds: [merchant.id] })).toMatchObject({
      breaches: [],
      inFlight: [],
    });
    expect((await console(maker).get(`/adjustments/${id}`)).body.data.ledger).toMatchObject({
      outcome: 'applied',
      reason: null,
      decidedAt: expect.any(String),
    });

    // Decided once: approving or rejecting again is 409, nothing more written.
    const again = await console(checker).post(`/adjustments/${id}/approve`, {});
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ status: false, code: 'ADJUSTMENT_NOT_REQUESTED' });
    expect(await commandsOf(id)).toHaveLength(1);

    expect(await auditRowsOf(id)).toEqual([
      {
        operator_user_id: String(maker.userId),
        actor: null,
        action: 'adjustment.request',
        details: { merchantId: merchant.id, postings, reason },
      },
      {
        operator_user_id: String(checker.userId),
        actor: null,
        action: 'adjustment.approve',
        details: { note: 'Checked the outage report' },
      },
    ]);
  });

  it('rejected by another operator with a note: nothing booked; the ops API (ops-api) cannot decide what it asked', async () => {
    const { merchant } = await createMerchant(gateway.prisma);
    const reason = `Refund a double fee ${randomUUID().slice(0, 6)}`;
    const asked = await request(ops)
      .post('/ops/adjustments')
      .set(auth)
      .send({
        merchantId: merchant.id,
        postings: [
          { account: `merchant:${merchant.id}:available`, amount: -2500 },
          { account: 'revenue:fees:payout', amount: 2500 },
        ],
        reason,
      });
    expect(asked.status).toBe(201);
    const id = asked.body.data.id as string;
    expect(asked.body.data).toMatchObject({ requestedBy: 'ops-api', requestedByName: 'ops-api' });

    const own = await request(ops).post(`/ops/adjustments/${id}/approve`).set(auth).send({});
    expect(own.status).toBe(403);
    expect(own.body.code).toBe('OWN_ADJUSTMENT');

    const noNote = await console(checker).post(`/adjustments/${id}/reject`, { note: ' ' });
    expect(noNote.status).toBe(400);
    const rejected = await console(checker).post(`/adjustments/${id}/reject`, { note: 'The fee was right' });
    expect(rejected.status).toBe(200);
    expect(rejected.body.data).toMatchObject({ status: 'rejected', decisionNote: 'The fee was right', ledger: null });
    expect(await commandsOf(id)).toEqual([]);
    expect((await request(ops).post(`/ops/adjustments/${id}/approve`).set(auth).send({})).status).toBe(409);
    expect((await console(maker).post(`/adjustments/${id}/approve`, {})).status).toBe(409);

    const listed = await request(ops).get(`/ops/adjustments?merchantId=${merchant.id}`).set(auth);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((a: { id: string; status: string }) => [a.id, a.status])).toEqual([[id, 'rejected']]);
    expect((await auditRowsOf(id)).map((r) => [r.actor ?? r.operator_user_id, r.action, r.details])).toEqual([
      ['ops-api', 'adjustment.request', expect.objectContaining({ reason })],
      [String(checker.userId), 'adjustment.reject', { note: 'The fee was right' }],
    ]);
  });

  it('one that would overdraw is approved but refused by the ledger (INSUFFICIENT_BALANCE), shown as refused; available unchanged', async () => {
    const { merchant } = await createMerchant(gateway.prisma);
    await fundMerchant(gateway.prisma, merchant.id, [1_000_00n]);
    const before = await available(merchant.id);
    const asked = await console(maker).post('/adjustments', {
      merchantId: merchant.id,
      postings: [
        { account: `merchant:${merchant.id}:available`, amount: 5000 },
        { account: 'suspense', amount: -5000 },
      ],
      reason: 'Claw back a duplicate settlement',
    });
    expect(asked.status).toBe(201);
    const id = asked.body.data.id as string;
    expect((await console(checker).post(`/adjustments/${id}/approve`, {})).status).toBe(200);
    expect(await ledgerApplies(id)).toMatchObject({ outcome: 'rejected', reason: 'INSUFFICIENT_BALANCE' });
    expect(await available(merchant.id)).toBe(before);
    const shown = await request(ops).get(`/ops/adjustments/${id}`).set(auth);
    expect(shown.body.data).toMatchObject({
      status: 'approved',
      ledger: { outcome: 'rejected', reason: 'INSUFFICIENT_BALANCE' },
    });
    expect(await verifyLedger(gateway.prisma, { merchantIds: [merchant.id] })).toMatchObject({ breaches: [] });
  });

  it("a platform-only adjustment (suspense -> expense:adjustments) books the platform's entry", async () => {
    const reason = `Write off an unmatched break ${randomUUID()}`;
    const asked = await request(ops)
      .post('/ops/adjustments')
      .set(auth)
      .send({
        postings: [
          { account: 'expense:adjustments', amount: 15 },
          { account: 'suspense', amount: -15 },
        ],
        reason,
      });
    expect(asked.status).toBe(201);
    const id = asked.body.data.id as string;
    expect(asked.body.data.merchantId).toBeNull();
    const approved = await console(checker).post(`/adjustments/${id}/approve`, {});
    expect(approved.status).toBe(200);
    const [command] = await commandsOf(id);
    expect(parseLedgerCommand(command.payload)).toMatchObject({ merchantId: 0, requestedBy: 'ops-api' });
    expect(await ledgerApplies(id)).toMatchObject({ outcome: 'applied' });
    const [entry] = await gateway.prisma.$queryRaw<{ id: bigint; type: string; merchant_id: number | null }[]>`
      SELECT id, type, merchant_id FROM journal_entries WHERE reference = ${id}`;
    expect(entry).toMatchObject({ type: 'adjustment', merchant_id: null });
    const postings = await gateway.prisma.$queryRaw<{ account: string; amount: bigint }[]>`
      SELECT account, amount FROM postings WHERE entry_id = ${entry.id} ORDER BY account`;
    expect(postings).toEqual([
      { account: 'expense:adjustments', amount: 1500n },
      { account: 'suspense', amount: -1500n },
    ]);
    expect((await console(maker).get(`/adjustments/${id}`)).body.data.ledger.outcome).toBe('applied');
  });

  it('bad postings are 400 with the field named, and nothing is written; an unknown id 404, an unknown merchant 404', async () => {
    const { merchant } = await createMerchant(gateway.prisma);
    const { merchant: other } = await createMerchant(gateway.prisma);
    const mine = `merchant:${merchant.id}:available`;
    const reason = `bad ${randomUUID()}`;
    const cases: [object, string][] = [
      [{ postings: [{ account: 'expense:adjustments', amount: 10 }] }, 'postings'],
      [
        {
          postings: [
            { account: 'expense:adjustments', amount: 10 },
            { account: 'suspense', amount: -9 },
          ],
        },
        'postings',
      ],
      [
        {
          postings: [
            { account: 'expense:coffee', amount: 10 },
            { account: 'suspense', amount: -10 },
          ],
        },
        'postings[0].account',
      ],
      [
        {
          postings: [
            { account: 'suspense', amount: 0 },
            { account: 'expense:adjustments', amount: 0 },
          ],
        },
        'postings[0].amount',
      ],
      [
        {
          postings: [
            { account: 'suspense', amount: 0.001 },
            { account: 'expense:adjustments', amount: -0.001 },
          ],
        },
        'postings[0].amount',
      ],
      [
        {
          postings: [
            { account: mine, amount: -10 },
            { account: 'suspense', amount: 10 },
          ],
        },
        'postings[0].account',
      ],
      [
        {
          merchantId: merchant.id,
          postings: [
            { account: `merchant:${merchant.id}:pending`, amount: -10 },
            { account: 'suspense', amount: 10 },
          ],
        },
        'postings[0].account',
      ],
      [
        {
          merchantId: merchant.id,
          postings: [
            { account: mine, amount: -10 },
            { account: `merchant:${other.id}:available`, amount: 10 },
          ],
        },
        'postings[1].account',
      ],
      [
        {
          merchantId: merchant.id,
          postings: [
            { account: 'suspense', amount: -10 },
            { account: 'expense:adjustments', amount: 10 },
          ],
        },
        'postings',
      ],
    ];
    for (const [body, field] of cases) {
      const res = await request(ops)
        .post('/ops/adjustments')
        .set(auth)
        .send({ reason, ...body });
      expect([JSON.stringify(body), res.status, res.body.code, res.body.errors?.[0]?.field]).toEqual([
        JSON.stringify(body),
        400,
        'VALIDATION_ERROR',
        field,
      ]);
    }
    const noReason = await request(ops)
      .post('/ops/adjustments')
      .set(auth)
      .send({
        postings: [
          { account: 'suspense', amount: -1 },
          { account: 'expense:adjustments', amount: 1 },
        ],
        reason: '  ',
      });
    expect(noReason.status).toBe(400);
    const noMerchant = await request(ops)
      .post('/ops/adjustments')
      .set(auth)
      .send({
        merchantId: 999_999_999,
        postings: [
          { account: 'merchant:999999999:available', amount: -1 },
          { account: 'suspense', amount: 1 },
        ],
        reason,
      });
    expect(noMerchant.status).toBe(404);
    expect(await gateway.prisma.adjustment.count({ where: { reason } })).toBe(0);

    const unknown = await request(ops).post(`/ops/adjustments/${randomUUID()}/approve`).set(auth).send({});
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ status: false, code: 'NOT_FOUND' });
    expect((await request(ops).get('/ops/adjustments/not-a-uuid').set(auth)).status).toBe(404);
    expect((await request(ops).get('/ops/adjustments').send()).status).toBe(401);
  });

  it('a request past its expiry is listed as expired and cannot be approved (409): it must be asked again', async () => {
    const asked = await console(maker).post('/adjustments', {
      postings: [
        { account: 'expense:adjustments', amount: 1 },
        { account: 'suspense', amount: -1 },
      ],
      reason: 'Expires before anyone looks',
    });
    const id = asked.body.data.id as string;
    await gateway.prisma.$executeRaw`
      UPDATE adjustments SET requested_at = now() - interval '73 hours', expires_at = now() - interval '1 hour' WHERE id = ${id}::uuid`;
    const listed = await console(checker).get('/adjustments?status=expired&limit=500');
    expect(listed.body.data.find((a: { id: string }) => a.id === id)).toMatchObject({ status: 'expired' });
    const late = await console(checker).post(`/adjustments/${id}/approve`, {});
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 'ADJUSTMENT_NOT_REQUESTED', message: expect.stringMatching(/expired/) });
    expect(await commandsOf(id)).toEqual([]);
    expect((await gateway.prisma.adjustment.findUniqueOrThrow({ where: { id } })).status).toBe('expired');
  });

  it('the table itself refuses a decision by the requester (CHECK decided_by <> requested_by)', async () => {
    const asked = await console(maker).post('/adjustments', {
      postings: [
        { account: 'expense:adjustments', amount: 1 },
        { account: 'suspense', amount: -1 },
      ],
      reason: 'Four eyes in the schema',
    });
    const id = asked.body.data.id as string;
    await expect(
      gateway.prisma.$executeRaw`
        UPDATE adjustments SET status = 'approved', decided_by = requested_by, decided_at = now() WHERE id = ${id}::uuid`,
    ).rejects.toThrow(/adjustments_maker_checker_check/);
  });

  it('the console wants a recent password for a change', async () => {
    const stale = await signedInOperator(gateway.prisma, ops as never);
    await gateway.prisma
      .$executeRaw`UPDATE dashboard_sessions SET authenticated_at = now() - interval '1 hour' WHERE user_id = ${BigInt(stale.userId)}`;
    const res = await console(stale).post('/adjustments', {
      postings: [
        { account: 'expense:adjustments', amount: 1 },
        { account: 'suspense', amount: -1 },
      ],
      reason: 'stale',
    });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('REAUTH_REQUIRED');
  });
});
