import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { Acquirer, type PayMode } from './acquirer';
import { issueToken, SnapError, TOKEN_TTL_SECONDS, verifyTokenRequest, verifyTransaction } from './auth';
import { Bank, type Call, type Outcome, STATEMENT_FAULTS, type StatementFault } from './bank';
import type { SimulatorConfig } from './config';
import { SETTLE_MODES, type SettleMode, Settlements } from './settlement';
import type { Store } from './store';
import { jakartaTime } from './values';

type Handler = (call: Call) => Promise<Outcome> | Outcome;

/** The SNAP services this simulator plays, by path after the prefix, with their service codes. */
function services(
  bank: Bank,
  acquirer: Acquirer,
  settlements: Settlements,
): Record<string, { code: string; handle: Handler }> {
  return {
    '/v1.0/balance-inquiry': { code: '11', handle: (c) => bank.balance(c) },
    '/v1.0/bank-statement': { code: '14', handle: (c) => bank.statement(c) },
    '/v1.0/account-inquiry-internal': { code: '15', handle: (c) => bank.accountInquiry(c, true) },
    '/v1.0/account-inquiry-external': { code: '16', handle: (c) => bank.accountInquiry(c, false) },
    '/v1.0/transfer-intrabank': { code: '17', handle: (c) => bank.transfer(c, false) },
    '/v1.0/transfer-interbank': { code: '18', handle: (c) => bank.transfer(c, true) },
    '/v1.0/transfer/status': { code: '36', handle: (c) => bank.status(c) },
    '/v1.0/qr/qr-mpm-generate': { code: '47', handle: (c) => acquirer.generate(c) },
    '/v1.0/qr/qr-mpm-query': { code: '51', handle: (c) => acquirer.query(c) },
    '/v1.0/qr/qr-mpm-refund': { code: '78', handle: (c) => acquirer.refund(c) },
    // Not an ASPI service (SNAP defines no settlement report): this acquirer's own, in SNAP's envelope.
    '/v1.0/qr/qr-mpm-settlement-report': { code: '90', handle: (c) => settlements.report(c) },
  };
}

function headersOf(req: FastifyRequest): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(req.headers)) out[k] = Array.isArray(v) ? v[0] : v;
  return out;
}

/** Every SNAP answer: HTTP status = the code's first three digits, and X-TIMESTAMP. */
function send(reply: FastifyReply, service: string, o: Outcome): FastifyReply {
  const responseCode = `${o.http}${service}${o.caseCode}`;
  return reply
    .status(o.http)
    .header('X-TIMESTAMP', jakartaTime(new Date()))
    .send({ responseCode, responseMessage: o.message, ...o.body });
}

function refusal(err: unknown): Outcome {
  if (err instanceof SnapError)
    return { http: err.http, caseCode: err.caseCode, message: err.message, body: err.extra };
  return { http: 500, caseCode: '00', message: 'General Error' };
}

export interface Simulator {
  app: FastifyInstance;
  bank: Bank;
  acquirer: Acquirer;
  settlements: Settlements;
}

export async function buildSimulator(
  config: SimulatorConfig,
  store: Store,
  logger: Logger,
  clock: () => Date = () => new Date(),
): Promise<Simulator> {
  const app = Fastify({ logger: false, bodyLimit: 64 * 1024 });
  const bank = new Bank(config, store);
  const acquirer = new Acquirer(config, store, logger);
  const settlements = new Settlements(config, store);
  // The raw bytes as received: signatures are checked over them, not over a re-serialisation.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  app.addHook('onClose', () => acquirer.stop());

  app.post(`${config.prefix}/v1.0/access-token/b2b`, async (req, reply) => {
    try {
      verifyTokenRequest(config, headersOf(req), clock());
      const body = parse(req.body as Buffer);
      if (body.grantType !== 'client_credentials') throw new SnapError(400, '01', 'Invalid Field Format grantType');
      const accessToken = await issueToken(store, config.client.id, clock());
      logger.info({ service: '73', responseCode: '2007300' }, 'token issued');
      return send(reply.header('X-CLIENT-KEY', config.client.id), '73', {
        http: 200,
        caseCode: '00',
        message: 'Successful',
        body: { accessToken, tokenType: 'Bearer', expiresIn: String(TOKEN_TTL_SECONDS), additionalInfo: {} },
      });
    } catch (err) {
      const o = refusal(err);
      logger.info({ service: '73', responseCode: `${o.http}73${o.caseCode}`, reason: o.message }, 'token refused');
      return send(reply, '73', o);
    }
  });

  for (const [path, service] of Object.entries(services(bank, acquirer, settlements))) {
    app.post(`${config.prefix}${path}`, async (req, reply) => {
      let outcome: Outcome;
      let body: Record<string, unknown> = {};
      try {
        const raw = (req.body as Buffer | undefined) ?? Buffer.alloc(0);
        const { externalId } = await verifyTransaction(
          config,
          store,
          { method: req.method, url: req.url, headers: headersOf(req), raw },
          service.code,
          clock(),
        );
        body = parse(raw);
        outcome = await service.handle({ body, externalId, service: service.code, now: clock() });
      } catch (err) {
        outcome = refusal(err);
        if (!(err instanceof SnapError)) logger.error({ err: (err as Error).message, path }, 'simulator error');
      }
      const responseCode = `${outcome.http}${service.code}${outcome.caseCode}`;
      logger.info(
        { service: service.code, responseCode, partnerReferenceNo: body.partnerReferenceNo, hang: outcome.hang },
        'snap call',
      );
      if (outcome.hang) {
        // Executed, and the answer never arrives: hold the connection, then drop it.
        await new Promise((r) => setTimeout(r, config.hangMs));
        req.raw.socket.destroy();
        return reply.hijack();
      }
      return send(reply, service.code, outcome);
    });
  }

  registerControl(app, config, bank, acquirer, clock);
  registerSettlementControl(app, settlements, bank, clock);
  return { app, bank, acquirer, settlements };
}

/** Test and demo controls under /simulator/v1: never part of SNAP, never exposed beyond a test network. */
function registerControl(
  app: FastifyInstance,
  config: SimulatorConfig,
  bank: Bank,
  acquirer: Acquirer,
  clock: () => Date,
): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.addHook('onRequest', async (req, reply) => {
    if (!req.url.startsWith('/simulator/') || !config.controlToken) return;
    if (req.headers.authorization !== `Bearer ${config.controlToken}`)
      return reply.status(401).send({ message: 'control token required' });
  });
  app.get('/simulator/v1/executions', async () => ({ executions: await bank.executions(clock()) }));
  app.get('/simulator/v1/notifications', async () => ({ notifications: await acquirer.notifications() }));
  app.post('/simulator/v1/source-account', async (req, reply) => {
    const { balance } = parse(req.body as Buffer) as { balance?: unknown };
    if (typeof balance !== 'string' || !/^\d{1,18}$/.test(balance))
      return reply.status(400).send({ message: 'balance: a string of sen, e.g. "100000"' });
    await bank.setBalance(BigInt(balance));
    return { balance };
  });
  app.post('/simulator/v1/qris/pay', async (req, reply) => {
    const b = parse(req.body as Buffer) as {
      referenceNo?: string;
      partnerReferenceNo?: string;
      mode?: PayMode;
      status?: 'paid' | 'failed';
      issuer?: string;
    };
    const modes: PayMode[] = ['normal', 'duplicate', 'bad-signature', 'late', 'never'];
    const mode = b.mode ?? 'normal';
    if (!modes.includes(mode)) return reply.status(400).send({ message: `mode: one of ${modes.join(', ')}` });
    if (b.status && b.status !== 'paid' && b.status !== 'failed')
      return reply.status(400).send({ message: 'status: paid or failed' });
    try {
      const paid = await acquirer.pay(b, { mode, status: b.status ?? 'paid', issuer: b.issuer, now: clock() });
      if (!paid) return reply.status(404).send({ message: 'no such QR code' });
      return { referenceNo: paid.qr.reference_no, state: paid.qr.state, rrn: paid.qr.rrn, notification: paid.first };
    } catch (err) {
      if (err instanceof SnapError) return reply.status(err.http).send({ message: err.message });
      throw err;
    }
  });
}

/** The acquirer's settlement of a day (with a planted fault), its report as CSV, the statement as CSV. */
function registerSettlementControl(
  app: FastifyInstance,
  settlements: Settlements,
  bank: Bank,
  clock: () => Date,
): void {
  const day = /^\d{4}-\d{2}-\d{2}$/;
  app.post('/simulator/v1/qris/settle', async (req, reply) => {
    const b = parse(req.body as Buffer) as {
      date?: unknown;
      mode?: SettleMode;
      rrn?: unknown;
      shortBy?: unknown;
      settlementDate?: unknown;
      batchSize?: unknown;
    };
    const mode = b.mode ?? 'normal';
    if (typeof b.date !== 'string' || !day.test(b.date)) return reply.status(400).send({ message: 'date: YYYY-MM-DD' });
    if (!SETTLE_MODES.includes(mode))
      return reply.status(400).send({ message: `mode: one of ${SETTLE_MODES.join(', ')}` });
    if (b.settlementDate !== undefined && (typeof b.settlementDate !== 'string' || !day.test(b.settlementDate)))
      return reply.status(400).send({ message: 'settlementDate: YYYY-MM-DD' });
    if (b.shortBy !== undefined && (typeof b.shortBy !== 'string' || !/^\d{1,18}$/.test(b.shortBy)))
      return reply.status(400).send({ message: 'shortBy: a string of sen' });
    if (b.batchSize !== undefined && (!Number.isInteger(b.batchSize) || (b.batchSize as number) < 1))
      return reply.status(400).send({ message: 'batchSize: a positive integer' });
    try {
      return await settlements.settle({
        date: b.date,
        mode,
        rrn: typeof b.rrn === 'string' ? b.rrn : undefined,
        shortBy: typeof b.shortBy === 'string' ? BigInt(b.shortBy) : undefined,
        settlementDate: b.settlementDate as string | undefined,
        batchSize: b.batchSize as number | undefined,
      });
    } catch (err) {
      if (err instanceof SnapError) return reply.status(err.http).send({ message: err.message });
      throw err;
    }
  });
  app.get('/simulator/v1/qris/settlement-report.csv', async (req, reply) => {
    const date = (req.query as { date?: string }).date;
    if (!date || !day.test(date)) return reply.status(400).send({ message: 'date: YYYY-MM-DD' });
    return reply.type('text/csv').send(await settlements.csv(date));
  });
  // The statement's (14) page size and a planted paging fault (null: none); what is in force is answered.
  app.post('/simulator/v1/statement/paging', async (req, reply) => {
    const b = parse(req.body as Buffer) as { pageSize?: unknown; fault?: unknown };
    if (b.pageSize !== undefined && (!Number.isInteger(b.pageSize) || (b.pageSize as number) < 1))
      return reply.status(400).send({ message: 'pageSize: a positive integer' });
    if (b.fault !== undefined && b.fault !== null && !STATEMENT_FAULTS.includes(b.fault as StatementFault))
      return reply.status(400).send({ message: `fault: null or one of ${STATEMENT_FAULTS.join(', ')}` });
    return bank.setStatementPaging({
      pageSize: b.pageSize as number | undefined,
      fault: b.fault as StatementFault | null | undefined,
    });
  });
  app.get('/simulator/v1/statement.csv', async (req, reply) => {
    const date = (req.query as { date?: string }).date;
    if (!date || !day.test(date)) return reply.status(400).send({ message: 'date: YYYY-MM-DD' });
    return reply.type('text/csv').send(await bank.statementCsv(date, clock()));
  });
}

function parse(raw: Buffer | undefined): Record<string, unknown> {
  if (!raw || raw.length === 0) return {};
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new SnapError(400, '00', 'Bad Request. Body is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new SnapError(400, '00', 'Bad Request. Body is not a JSON object');
  return value as Record<string, unknown>;
}
