import { createHash, randomUUID } from 'node:crypto';
import { createMerchant, createTestDatabase, dropDatabase, signedInMerchantUser, signedInOperator } from '@pay/testing';
import request from 'supertest';
import type { App } from 'supertest/types';
import { type GatewayApp, startTestGateway } from '../../testing/test-gateway';

const ADMIN_TOKEN = 'adm_recon_0123456789abcdef0123456789abcdef012';
const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
const DATE = '2026-10-14';
const RRN = '612345678901';

const reportCsv = (lines: string[]) => [
  'rrn,reference_no,transaction_date,settlement_date,batch_id,gross,mdr,net',
  ...lines,
];
const statementCsv = (lines: string[]) => ['transaction_date,transaction_id,type,amount,remark', ...lines];
/** A report line of an RRN no pay-in has (missing_in_ledger), settled T+1 */
const UNKNOWN_LINE = `${RRN},QRX1,${DATE},2026-10-15,STL-RCN-1,150000.00,1050.00,148950.00`;
/** A credit of no batch (unexpected) */
const STRAY_CREDIT = `${DATE}T10:00:00+07:00,TRF-STRAY-1,CREDIT,2500.50,transfer in`;

type Operator = Awaited<ReturnType<typeof signedInOperator>>;

/**
 * The reconciliation desk (issue 43) through /ops/recon and /console/api/recon: a day planted in a
 * database of its own (a run reads the whole day), its CSVs uploaded and run, a break assigned and
 * resolved (persisted, audited, the operator as actor), a re-run keeping both, bad input refused
 * with nothing changed, a merchant's session refused.
 */
describe('reconciliation: /ops/recon and /console/api/recon (real Postgres, a database of its own)', () => {
  let url: string;
  let gateway: GatewayApp;
  let ops: App;
  let operator: Operator;

  beforeAll(async () => {
    url = await createTestDatabase('pay_recon_ops');
    gateway = await startTestGateway({ ADMIN_TOKEN, DATABASE_URL: url });
    ops = gateway.internalServer;
    operator = await signedInOperator(gateway.prisma, ops as never);
  });
  afterAll(async () => {
    await gateway.close();
    await dropDatabase(url);
  });

  const asOperator = {
    post: (path: string, body: object) => request(ops).post(`/console/api${path}`).set(operator.headers).send(body),
    get: (path: string) => request(ops).get(`/console/api${path}`).set(operator.headers),
  };
  const breakRow = async (id: string) =>
    (
      await gateway.prisma.$queryRaw<
        { status: string; owner: string | null; resolution: string | null; resolved_by: string | null }[]
      >`SELECT status, owner, resolution, resolved_by FROM recon_breaks WHERE id = ${id}::uuid`
    )[0];
  const sources = () =>
    gateway.prisma.$queryRaw<{ kind: string; line_count: number; ingested_by: string }[]>`
      SELECT kind, line_count, ingested_by FROM recon_sources WHERE date = ${DATE}::date ORDER BY kind`;
  const auditOf = (target: string) =>
    gateway.prisma.$queryRaw<
      { operator_user_id: string | null; actor: string | null; action: string; details: object }[]
    >`
      SELECT operator_user_id::text, actor, action, details FROM operator_audit_log WHERE target = ${target} ORDER BY id`;

  it('a day uploaded and run, a break assigned and resolved (persisted and audited), a re-run keeping both; resolving again 409', async () => {
    // Nothing ingested: nothing to run.
    const early = await asOperator.post('/recon/runs', { date: DATE });
    expect([early.status, early.body.code]).toEqual([400, 'VALIDATION_ERROR']);

    const report = await asOperator.post('/recon/sources', {
      date: DATE,
      kind: 'report',
      lines: reportCsv([UNKNOWN_LINE]),
    });
    expect(report.status).toBe(200);
    expect(report.body.data).toMatchObject({ kind: 'report', name: 'qris', origin: 'csv', lines: 1 });
    const statement = await request(ops)
      .post('/ops/recon/sources')
      .set(auth)
      .send({
        date: DATE,
        kind: 'statement',
        lines: statementCsv([STRAY_CREDIT, '2026-10-13,OTHER-DAY,CREDIT,1.00,']),
      });
    expect(statement.body.data).toMatchObject({ kind: 'statement', name: 'snap', lines: 1 });
    expect(await sources()).toEqual([
      { kind: 'report', line_count: 1, ingested_by: `operator:${operator.userId}` },
      { kind: 'statement', line_count: 1, ingested_by: 'ops-api' },
    ]);

    const ran = await asOperator.post('/recon/runs', { date: DATE });
    expect(ran.status).toBe(200);
    const run = ran.body.data.run;
    expect(run).toMatchObject({
      date: DATE,
      acquirer: 'qris',
      rail: 'snap',
      ranBy: `operator:${operator.userId}`,
      ranByName: operator.email,
      reportIngested: true,
      statementIngested: true,
      sides: {
        reportLines: { count: 1, amount: 150000, mdr: 1050, net: 148950 },
        statementCredits: { count: 1, amount: 2500.5 },
        ledgerPayins: { count: 0, amount: 0 },
      },
      breaks: { open: 2, resolved: 0, cleared: 0 },
    });
    const breaks = ran.body.data.breaks as { id: string; code: string; reference: string }[];
    const unknown = breaks.find((b) => b.code === 'missing_in_ledger') as { id: string };
    const stray = breaks.find((b) => b.code === 'unexpected') as { id: string };
    expect(ran.body.data.breaks).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          code: 'missing_in_ledger',
          subject: 'report_line',
          reference: RRN,
          actualAmount: 150000,
          status: 'open',
        }),
        expect.objectContaining({
          code: 'unexpected',
          subject: 'statement_line',
          reference: 'TRF-STRAY-1',
          actualAmount: 2500.5,
        }),
      ]),
    );

    // Listed (newest first, filtered), and the same report through the ops API.
    const listed = await request(ops).get('/ops/recon/runs').query({ from: DATE, to: DATE, open: 'true' }).set(auth);
    expect(listed.body).toMatchObject({
      status: true,
      message: '1 run(s)',
      data: [{ id: run.id, breaks: { open: 2 } }],
    });
    expect((await request(ops).get(`/ops/recon/runs/${run.id}`).set(auth)).body.data.breaks).toHaveLength(2);

    const assigned = await asOperator.post(`/recon/breaks/${stray.id}/assign`, { owner: '  finance@example.id ' });
    expect(assigned.body.data).toMatchObject({ id: stray.id, owner: 'finance@example.id', status: 'open' });
    const note = `Acquirer confirmed the RRN belongs to another platform, ticket REC-${randomUUID().slice(0, 6)}`;
    const resolved = await asOperator.post(`/recon/breaks/${unknown.id}/resolve`, { note: ` ${note} ` });
    expect(resolved.status).toBe(200);
    expect(resolved.body.data).toMatchObject({
      status: 'resolved',
      resolution: note,
      resolvedBy: `operator:${operator.userId}`,
      resolvedByName: operator.email,
      owner: `operator:${operator.userId}`,
    });
    expect(await breakRow(unknown.id)).toEqual({
      status: 'resolved',
      owner: `operator:${operator.userId}`,
      resolution: note,
      resolved_by: `operator:${operator.userId}`,
    });
    expect(await auditOf(`recon-break:${stray.id}`)).toEqual([
      {
        operator_user_id: String(operator.userId),
        actor: null,
        action: 'recon.assign',
        details: { owner: '  finance@example.id ' },
      },
    ]);
    expect(await auditOf(`recon-break:${unknown.id}`)).toEqual([
      expect.objectContaining({ operator_user_id: String(operator.userId), action: 'recon.resolve' }),
    ]);
    expect(await auditOf(`recon-run:${run.id}`)).toEqual([expect.objectContaining({ action: 'recon.run' })]);
    const [upload] = await auditOf(`recon-source:report:qris:${DATE}`);
    expect(upload.details).toEqual({
      date: DATE,
      kind: 'report',
      lines: 2,
      sha256: createHash('sha256')
        .update(reportCsv([UNKNOWN_LINE]).join('\n'))
        .digest('hex'),
    });

    // Resolved once: again is 409, the first note kept.
    const again = await asOperator.post(`/recon/breaks/${unknown.id}/resolve`, { note: 'again' });
    expect([again.status, again.body.code, again.body.status]).toEqual([409, 'CONFLICT', false]);
    expect(again.body.message).toMatch(/resolved already/);
    expect((await breakRow(unknown.id)).resolution).toBe(note);

    // A re-run over the same sources: the same breaks, owner and resolution kept.
    const rerun = await request(ops).post('/ops/recon/runs').set(auth).send({ date: DATE });
    expect(rerun.body.data.run).toMatchObject({
      id: run.id,
      ranBy: 'ops-api',
      breaks: { open: 1, resolved: 1, cleared: 0 },
    });
    expect(rerun.body.data.breaks).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: unknown.id, status: 'resolved', resolution: note }),
        expect.objectContaining({ id: stray.id, status: 'open', owner: 'finance@example.id' }),
      ]),
    );

    // The bank's corrected statement without the stray credit: the break is cleared (its owner kept); resolving it is 409.
    await asOperator.post('/recon/sources', { date: DATE, kind: 'statement', lines: statementCsv([]) });
    const cleared = await asOperator.post('/recon/runs', { date: DATE });
    expect(cleared.body.data.run.breaks).toEqual({ open: 0, resolved: 1, cleared: 1 });
    expect(await breakRow(stray.id)).toMatchObject({ status: 'cleared', owner: 'finance@example.id' });
    const onCleared = await asOperator.post(`/recon/breaks/${stray.id}/resolve`, { note: 'n/a' });
    expect([onCleared.status, onCleared.body.code]).toEqual([409, 'CONFLICT']);
    expect(onCleared.body.message).toMatch(/cleared/);
    expect((await request(ops).get('/ops/recon/runs').query({ open: 'true' }).set(auth)).body.data).toEqual([]);
  });

  it('bad input is 400 in the envelope and changes nothing: a bad file refused whole (every bad line named), an empty note, a future day; unknown ids 404', async () => {
    const date = '2026-10-20';
    const good = await asOperator.post('/recon/sources', {
      date,
      kind: 'report',
      lines: reportCsv([UNKNOWN_LINE.replace(DATE, date)]),
    });
    expect(good.body.data.lines).toBe(1);
    const bad = await asOperator.post('/recon/sources', {
      date,
      kind: 'report',
      lines: reportCsv([
        UNKNOWN_LINE,
        `${RRN}2,,${date},2026-10-21,STL-2,12.345,0,12.345`,
        `,,${date},not-a-day,STL-3,1.00,0.00,1.00`,
      ]),
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ status: false, code: 'VALIDATION_ERROR', logId: expect.any(String) });
    expect(bad.body.errors).toEqual([{ field: 'lines', message: expect.stringContaining('2 problem(s)') }]);
    expect(bad.body.message).toMatch(/line 3: gross, net.*line 4: rrn, settlement_date/);
    const stored = await gateway.prisma.$queryRaw<{ line_count: number }[]>`
      SELECT line_count FROM recon_sources WHERE date = ${date}::date AND kind = 'report'`;
    expect(stored).toEqual([{ line_count: 1 }]);

    for (const body of [
      { date, kind: 'ledger', lines: ['x'] },
      { date: '2099-01-01', kind: 'report', lines: reportCsv([]) },
      { date: '2026-02-30', kind: 'report', lines: reportCsv([]) },
      { date, kind: 'report', lines: ['  '] },
      { date, kind: 'report', lines: ['rrn,gross\u0007'] },
      { date, kind: 'report', acquirer: 'QRIS;drop', lines: reportCsv([]) },
    ]) {
      const res = await asOperator.post('/recon/sources', body);
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    }
    expect(
      (
        await gateway.prisma.$queryRaw<
          { n: number }[]
        >`SELECT count(*)::int AS n FROM recon_sources WHERE date <> ${date}::date AND date <> ${DATE}::date`
      )[0].n,
    ).toBe(0);

    const ran = await asOperator.post('/recon/runs', { date });
    const id = (ran.body.data.breaks as { id: string }[])[0].id;
    for (const note of ['', '   ', 'x'.repeat(501)]) {
      const res = await asOperator.post(`/recon/breaks/${id}/resolve`, { note });
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    }
    expect((await asOperator.post(`/recon/breaks/${id}/assign`, { owner: ' ' })).status).toBe(400);
    expect(await breakRow(id)).toEqual({ status: 'open', owner: null, resolution: null, resolved_by: null });
    expect(await auditOf(`recon-break:${id}`)).toEqual([]);
    expect((await asOperator.post('/recon/runs', { date, settlementLagDays: 9 })).status).toBe(400);
    expect(
      (await request(ops).get('/ops/recon/runs').query({ from: '2026-10-21', to: '2026-10-01' }).set(auth)).status,
    ).toBe(400);

    for (const unknown of [randomUUID(), 'not-an-id']) {
      const res = await asOperator.post(`/recon/breaks/${unknown}/resolve`, { note: 'done' });
      expect([res.status, res.body.code]).toEqual([404, 'NOT_FOUND']);
      expect((await asOperator.post(`/recon/breaks/${unknown}/assign`, { owner: 'x' })).status).toBe(404);
      expect((await asOperator.get(`/recon/runs/${unknown}`)).status).toBe(404);
    }
  });

  it("operators only: no token or a merchant's dashboard session is refused, nothing changed", async () => {
    const { merchant, token } = await createMerchant(gateway.prisma);
    const body = { date: '2026-10-25', kind: 'report', lines: reportCsv([]) };
    expect((await request(ops).post('/ops/recon/sources').send(body)).status).toBe(401);
    expect((await request(ops).get('/ops/recon/runs').set('authorization', `Bearer ${token}`)).status).toBe(401);
    const merchantUser = await signedInMerchantUser(gateway.prisma, gateway.app.getHttpServer(), merchant.id);
    const asMerchant = await request(ops).post('/console/api/recon/sources').set(merchantUser.headers).send(body);
    expect([asMerchant.status, asMerchant.body.code]).toEqual([401, 'SESSION_REQUIRED']);
    expect((await request(ops).get('/console/api/recon/runs').set(merchantUser.headers)).status).toBe(401);
    const onDashboard = await request(gateway.app.getHttpServer())
      .post('/dashboard/api/recon/sources')
      .set(merchantUser.headers)
      .send(body);
    expect([401, 403, 404, 405]).toContain(onDashboard.status);
    expect(await gateway.prisma.$queryRaw`SELECT kind FROM recon_sources WHERE date = ${body.date}::date`).toEqual([]);
  });
});
