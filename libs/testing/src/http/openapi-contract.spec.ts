import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  closeSchemas,
  installContractFetch,
  merchantContract,
  opsContract,
  registerContract,
  takeContractViolations,
  uncheckedFetch,
} from './openapi-contract';

const LOG_ID = '7d3c1f0e-5b7a-4a43-9d1e-3f0b8c2a9e11';

/** A stand-in merchant API answering what each test sets, checked against the real docs/openapi.json. */
describe('the OpenAPI contract check', () => {
  let server: Server;
  let base: string;
  let answer: { status: number; body: unknown; contentType?: string };
  let unregister: () => void;
  // The ops document on another origin: the same server under its second name, localhost.
  let opsBase: string;
  let unregisterOps: () => void;

  beforeAll(async () => {
    server = createServer((_req, res) =>
      res
        .writeHead(answer.status, { 'content-type': answer.contentType ?? 'application/json' })
        .end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body)),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    base = `http://127.0.0.1:${port}`;
    opsBase = `http://localhost:${port}`;
    const root = join(__dirname, '..', '..', '..', '..');
    unregister = registerContract(base, merchantContract(root));
    unregisterOps = registerContract(opsBase, opsContract(root));
    installContractFetch();
  });
  afterAll(async () => {
    unregister();
    unregisterOps();
    await new Promise((resolve) => server.close(resolve));
  });
  afterEach(() => takeContractViolations());

  const balance = () => fetch(`${base}/api/v1/payin/balance`, { headers: { token: 'mtk_x' } });
  const envelope = (data: unknown) => ({ logId: LOG_ID, status: true, message: 'Balance inquiry successful', data });

  it('passes an answer the document describes', async () => {
    answer = { status: 200, body: envelope({ balance: { available: 1, pending: 0 } }) };
    expect((await balance()).status).toBe(200);
    answer = {
      status: 401,
      body: { logId: LOG_ID, status: false, message: 'Token not valid', code: 'TOKEN_NOT_VALID' },
    };
    expect((await balance()).status).toBe(401);
  });

  it('fails a body that does not match, naming the field', async () => {
    answer = { status: 200, body: envelope({ balance: { available: '1' } }) };
    await expect(balance()).rejects.toThrow(/getBalance's 200 schema: .*balance/);
    expect(takeContractViolations()).toHaveLength(1);
  });

  it('fails an error code the status does not declare', async () => {
    answer = { status: 401, body: { logId: LOG_ID, status: false, message: 'nope', code: 'IP_NOT_ALLOWED' } };
    await expect(balance()).rejects.toThrow(/401 schema: \/code/);
  });

  it('fails a status the operation does not declare, and a route not in the document', async () => {
    answer = { status: 404, body: { logId: LOG_ID, status: false, message: 'Route not found', code: 'NOT_FOUND' } };
    await expect(balance()).rejects.toThrow(/status 404 is not declared for getBalance/);
    await expect(fetch(`${base}/api/v1/nothing`)).rejects.toThrow(/GET \/api\/v1\/nothing .*no such operation/);
    expect((await uncheckedFetch(`${base}/api/v1/nothing`)).status).toBe(404);
    expect((await fetch(`${base}/readyz`)).status).toBe(404);
  });

  it('fails a field the document does not name (object schemas are read as closed), and still passes an error envelope', async () => {
    answer = { status: 200, body: envelope({ balance: { available: 1, pending: 0, reserved: 0 } }) };
    await expect(balance()).rejects.toThrow(
      /getBalance's 200 schema: \/data\/balance must NOT have additional properties .*reserved/,
    );
    answer = { status: 200, body: { ...envelope({ balance: { available: 1, pending: 0 } }), debug: true } };
    await expect(balance()).rejects.toThrow(/must NOT have additional properties .*debug/);
    // allOf [ErrorResponse, { code narrowed }]: the narrowing part stays open, so logId, message and errors pass.
    answer = {
      status: 400,
      body: {
        logId: LOG_ID,
        status: false,
        message: 'amount: bad',
        code: 'VALIDATION_ERROR',
        errors: [{ field: 'amount', message: 'bad' }],
      },
    };
    expect((await balance()).status).toBe(400);
    answer = {
      status: 400,
      body: { logId: LOG_ID, status: false, message: 'amount: bad', code: 'VALIDATION_ERROR', stack: 'at …' },
    };
    await expect(balance()).rejects.toThrow(/400 schema: .*additional properties .*stack/);
  });

  it('closes named-property schemas only: not the allOf/anyOf/oneOf parts, not property maps, not examples', () => {
    const closed = closeSchemas({
      components: {
        schemas: {
          A: {
            type: 'object',
            properties: { properties: { type: 'object', properties: { x: { type: 'string' } } } },
            example: { properties: {} },
          },
          Open: { type: 'object', additionalProperties: true, properties: { y: {} } },
        },
      },
      schema: {
        allOf: [{ $ref: '#/components/schemas/A' }, { type: 'object', properties: { code: { enum: ['X'] } } }],
      },
    });
    expect(closed.components.schemas.A).toMatchObject({
      additionalProperties: false,
      properties: { properties: { additionalProperties: false } },
      example: { properties: {} },
    });
    expect(closed.components.schemas.A.properties).not.toHaveProperty('additionalProperties');
    expect(closed.components.schemas.A.example).not.toHaveProperty('additionalProperties');
    expect(closed.components.schemas.Open.additionalProperties).toBe(true);
    expect(closed.schema.allOf[1]).not.toHaveProperty('additionalProperties');
  });

  it('checks the internal port against docs/ops-openapi.json, leaving Bull Board and health out', async () => {
    const auth = { authorization: 'Bearer admin' };
    answer = { status: 200, body: { logId: LOG_ID, status: true, message: '0 dead letter(s)', data: [] } };
    expect((await fetch(`${opsBase}/ops/dead-letters`, { headers: auth })).status).toBe(200);
    answer = {
      status: 401,
      body: { logId: LOG_ID, status: false, message: 'admin token required', code: 'TOKEN_NOT_VALID' },
    };
    expect((await fetch(`${opsBase}/ops/merchants`)).status).toBe(401);
    answer = {
      status: 200,
      body: { logId: LOG_ID, status: true, message: 'Merchant found', data: { id: 7, name: 'Toko' } },
    };
    await expect(fetch(`${opsBase}/ops/merchants/7`, { headers: auth })).rejects.toThrow(
      /operations API .*getMerchant's 200 schema: \/data must have required property/,
    );
    answer = { status: 200, body: '<html></html>', contentType: 'text/html' };
    expect((await fetch(`${opsBase}/ops/queues`)).status).toBe(200);
    expect((await fetch(`${opsBase}/ops/queues/api/queues`)).status).toBe(200);
    expect((await fetch(`${opsBase}/healthz`)).status).toBe(200);
  });
});
