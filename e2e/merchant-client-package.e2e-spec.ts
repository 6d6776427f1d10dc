import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalStack, testS3, testStackBus } from '@pay/devstack';
import { createPrismaClient, type PrismaClient } from '@pay/persistence';
import { createMerchant, repoRoot } from '@pay/testing';

/**
 * The typed client as a merchant gets it: the tarball `npm run client:pack` builds, installed into a
 * shop project outside the checkout, type-checked strictly and run against the stack.
 */
describe('@pay/merchant-client from its tarball (a scratch project outside the checkout)', () => {
  let stack: LocalStack;
  let prisma: PrismaClient;
  let shop: string;
  const root = repoRoot();
  const run = (cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) => {
    const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 180_000 });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
    return r.stdout;
  };

  beforeAll(async () => {
    stack = await LocalStack.start({
      databaseUrl: process.env.DATABASE_URL as string,
      redisUrl: process.env.TEST_REDIS_URL as string,
      busKeyPrefix: `${process.env.TEST_REDIS_PREFIX}client:`,
      bus: testStackBus(),
      s3: testS3(),
      logDir: join(root, 'tmp', 'e2e-logs', `${process.env.TEST_REDIS_PREFIX}client`),
    });
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 2);
    shop = mkdtempSync(join(tmpdir(), 'shop-'));
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await prisma?.$disconnect();
    if (shop) rmSync(shop, { recursive: true, force: true });
  });

  it('installs from the tarball, type-checks (a wrong body is a type error) and runs: balance, a QR paid, an error by code', async () => {
    const tarball = run('bash', ['tools/merchant-client/pack.sh'], root).trim().split('\n').at(-1) as string;
    expect(tarball).toMatch(/pay-merchant-client-\d+\.\d+\.\d+\.tgz$/);
    writeFileSync(join(shop, 'package.json'), JSON.stringify({ name: 'shop', version: '1.0.0', private: true }));
    run('npm', ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline'], shop);
    writeFileSync(
      join(shop, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'commonjs',
          strict: true,
          outDir: 'out',
          // Node's own types (console, process) from the checkout; the client's come from node_modules.
          typeRoots: [join(root, 'node_modules', '@types')],
          types: ['node'],
        },
        files: ['shop.ts'],
      }),
    );
    writeFileSync(
      join(shop, 'shop.ts'),
      `import { constructCallbackEvent, createMerchantClient, MerchantApiError, type PayinCallback, unwrap } from '@pay/merchant-client';

async function main(): Promise<void> {
  const api = createMerchantClient({ baseUrl: process.env.BASE_URL as string, token: process.env.PAY_TOKEN as string });
  const { balance } = unwrap(await api.GET('/api/v1/payin/balance'));
  const qris = unwrap(await api.POST('/api/v1/payin/qris/generate', { body: { merchantTrxId: 'SHOP-1', amount: 50000 } }));
  const paid = unwrap(await api.POST('/api/v1/payin/qris/sandbox/pay', { body: { merchantTrxId: 'SHOP-1' } }));
  let code = '';
  try {
    unwrap(await api.POST('/api/v1/disbursement/inquiry', { body: { merchantTrxId: 'NOPE' } }));
  } catch (err) {
    if (err instanceof MerchantApiError) code = err.code;
  }
  const available: number = balance.available;
  console.log(JSON.stringify({ available, platformTrxId: qris.platformTrxId, status: paid.status, code }));
}

// A callback handler on node:http, as a merchant writes it: the header goes in as node types it.
export function onCallback(req: import('node:http').IncomingMessage, rawBody: Buffer): string {
  const event = constructCallbackEvent<PayinCallback>(rawBody, req.headers['x-callback-signature'], 'whsec_x');
  return event.type;
}

// The types are the API's: an amount as a string does not compile.
// @ts-expect-error amount is a number
void (() => createMerchantClient({ baseUrl: '', token: '' }).POST('/api/v1/payin/qris/generate', { body: { merchantTrxId: 'X', amount: '5' } }));

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
`,
    );
    run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], shop);
    const { token } = await createMerchant(prisma);
    const out = run(process.execPath, ['out/shop.js'], shop, { BASE_URL: stack.gatewayUrl, PAY_TOKEN: token });
    expect(JSON.parse(out.trim().split('\n').at(-1) as string)).toEqual({
      available: 0,
      platformTrxId: expect.stringMatching(/^QR/),
      status: 'success',
      code: 'TRANSACTION_NOT_FOUND',
    });
  }, 240_000);
});
