import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { installContractFetch, merchantContract, registerContract, takeContractViolations, uncheckedFetch } from './openapi-contract';

const LOG_ID = '7d3c1f0e-5b7a-4a43-9d1e-3f0b8c2a9e11';

/** A stand-in merchant API answering what each test sets, checked against the real docs/openapi.json. */
describe('the OpenAPI contract check', () => {
  let server: Server;
  let base: string;
  let answer: { status: number; body: unknown };
  let unregister: () => void;

  beforeAll(async () => {
    server = createServer((_req, res) => res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    unregister = registerContract(base, merchantContract(join(__dirname, '..', '..', '..', '..')));
    installContractFetch();
  });
  afterAll(async () => {
    unregister();
    await new Promise((resolve) => server.close(resolve));
  });
  afterEach(() => takeContractViolations());

  const balance = () => fetch(`${base}/api/v1/payin/balance`, { headers: { token: 'mtk_x' } });
  const envelope = (data: unknown) => ({ logId: LOG_ID, status: true, message: 'Balance inquiry successful', data });

  it('passes an answer the document describes', async () => {
    answer = { status: 200, body: envelope({ balance: { available: 1, pending: 0 } }) };
    expect((await balance()).status).toBe(200);
    answer = { status: 401, body: { logId: LOG_ID, status: false, message: 'Token not valid', code: 'TOKEN_NOT_VALID' } };
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
});
