import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTransport, deadLetterTopic, DLQ_HEADERS } from '@pay/bus';
import { Topic } from '@pay/contracts';
import { parseAmount } from '@pay/domain';
import { createPrismaClient, type PrismaClient } from '@pay/persistence';
import { createMerchant, insertPayin, ledgerCommand, repoRoot, waitFor } from '@pay/testing';
import { LocalStack, testBus, testS3 } from '@pay/devstack';

/**
 * Dead letters through the real processes: a record that can never succeed is dead-lettered at
 * once by the ledger, counted in its metric, archived by the workers, listed by the ops API and
 * the admin CLI; a money command dead-lettered earlier is replayed and applied exactly once.
 */
describe('dead letters end to end (processes, real Postgres and Redis)', () => {
  const databaseUrl = process.env.DATABASE_URL as string;
  const redisUrl = process.env.TEST_REDIS_URL as string;
  const busKeyPrefix = `${process.env.TEST_REDIS_PREFIX}dlq:bus:`;
  // Redis Streams, or Kafka with E2E_BUS_TRANSPORT=kafka
  const { stack: stackBus, config: bus } = testBus(busKeyPrefix);
  const adminToken = 'e2e-admin-token-0123456789abcdef';
  let stack: LocalStack;
  let prisma: PrismaClient;

  beforeAll(async () => {
    stack = await LocalStack.start({
      databaseUrl,
      redisUrl,
      busKeyPrefix,
      bus: stackBus,
      s3: testS3(),
      logDir: join(repoRoot(), 'tmp', 'e2e-logs', `${process.env.TEST_REDIS_PREFIX}dlq`),
      env: { BUS_LEASE_TTL_MS: '2000', ADMIN_TOKEN: adminToken },
    });
    prisma = createPrismaClient(databaseUrl, 4);
  });
  afterAll(async () => {
    await stack?.stop();
    await prisma?.$disconnect();
  });

  type Letter = {
    id: string;
    topic: string;
    consumerGroup: string;
    fault: string;
    deliveryCount: number;
    status: string;
    key: string;
    value: unknown;
  };
  const ops = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const res = await fetch(`${stack.internalUrl}/ops/dead-letters${path}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return {
      status: res.status,
      body: (await res.json()) as { status: boolean; message: string; code?: string; data: Letter & Letter[] },
    };
  };
  const admin = (...args: string[]) => {
    const r = spawnSync(process.execPath, [join(repoRoot(), 'dist', 'tools', 'admin', 'main.js'), ...args], {
      env: { ...process.env, DATABASE_URL: databaseUrl },
      encoding: 'utf8',
    });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  const metric = async (service: 'ledger' | 'workers', pattern: RegExp): Promise<number | null> => {
    const text = await (await fetch(`${stack.opsUrl(service)}/metrics`)).text();
    const line = text.split('\n').find((l) => pattern.test(l));
    return line ? Number(line.split(' ').at(-1)) : null;
  };
  const pending = async (merchantId: number) =>
    (await prisma.balance.findUniqueOrThrow({ where: { merchantId } })).pending;

  it('a command that can never succeed is dead-lettered at once, counted, archived and listed', async () => {
    const transport = createTransport(bus);
    try {
      // A contract version the ledger does not know: no retry can fix it.
      await transport.publish(Topic.LedgerCommands, [
        { key: '424242', value: JSON.stringify({ type: 'payin.record.v9', commandId: 'x-1', merchantId: 424242 }) },
      ]);
    } finally {
      await transport.close();
    }
    await waitFor(
      async () => (await ops('GET', '?topic=ledger.commands.v1')).body.data.some((d) => d.key === '424242'),
      20_000,
      'archived dead letter',
    );
    const letter = (await ops('GET', '?topic=ledger.commands.v1')).body.data.find((d) => d.key === '424242') as Letter;
    expect(letter).toMatchObject({
      topic: 'ledger.commands.v1',
      consumerGroup: 'ledger',
      fault: 'permanent',
      deliveryCount: 1,
      status: 'open',
    });
    expect(letter.value).toMatchObject({ type: 'payin.record.v9' });

    expect(await metric('ledger', /^bus_dead_letters_total\{.*topic="ledger\.commands\.v1".*fault="permanent"/)).toBe(
      1,
    );
    expect(await metric('workers', /^dead_letters_open\{.*topic="ledger\.commands\.v1"/)).toBeGreaterThanOrEqual(1);
    const ledgerLog = readFileSync(stack.logFile('ledger'), 'utf8');
    expect(ledgerLog).toMatch(
      /"level":"?(error|50)"?.*bus record DEAD-LETTERED|bus record DEAD-LETTERED.*"level":"?(error|50)"?/,
    );

    const listed = admin('--json', 'dlq', 'list', '--topic', 'ledger.commands.v1');
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.out) as Letter[]).map((d) => d.id)).toContain(letter.id);

    // Resolving closes it without replay; a second resolve finds nothing open (exit 2, nothing changed).
    expect(admin('dlq', 'resolve', letter.id, '--note', 'producer fixed; contract v9 never existed').code).toBe(0);
    expect(admin('dlq', 'resolve', letter.id, '--note', 'again').code).toBe(2);
    expect((await ops('GET', `/${letter.id}`)).body.data).toMatchObject({
      status: 'resolved',
      resolutionNote: 'producer fixed; contract v9 never existed',
    });
  });

  it('a pay-in command dead-lettered earlier is replayed once: pending rises by its net, and a second replay changes nothing', async () => {
    const { merchant } = await createMerchant(prisma);
    const amount = parseAmount(50000);
    const fee = parseAmount(500);
    const payinId = await insertPayin(prisma, merchant.id, amount, fee);
    const command = ledgerCommand.recordPayin(merchant.id, payinId, amount, fee);
    // As the bus left it before this release: a valid money command dead-lettered during a database outage.
    const transport = createTransport(bus);
    try {
      const headers = {
        [DLQ_HEADERS.error]: 'terminating connection due to administrator command',
        [DLQ_HEADERS.fault]: 'unknown',
        [DLQ_HEADERS.originalTopic]: Topic.LedgerCommands,
        [DLQ_HEADERS.originalId]: '3:1700000000000-0',
        [DLQ_HEADERS.group]: 'ledger',
        [DLQ_HEADERS.deliveryCount]: '10',
        [DLQ_HEADERS.at]: new Date().toISOString(),
      };
      const record = { key: String(merchant.id), value: JSON.stringify(command), headers };
      // The same command dead-lettered twice (two records): replaying both must still book it once.
      await transport.publish(deadLetterTopic(Topic.LedgerCommands), [
        record,
        { ...record, headers: { ...headers, [DLQ_HEADERS.originalId]: '3:1700000000001-0' } },
      ]);
    } finally {
      await transport.close();
    }
    const mine = async () =>
      (await ops('GET', '?topic=ledger.commands.v1')).body.data.filter((d) => d.key === String(merchant.id));
    await waitFor(async () => (await mine()).length === 2, 20_000, 'both archived');
    const [first, second] = await mine();
    expect(await pending(merchant.id)).toBe(0n);

    const replayed = await ops('POST', `/${first.id}/replay`);
    expect(replayed.status).toBe(200);
    expect(replayed.body.data.status).toBe('replayed');
    await waitFor(async () => (await pending(merchant.id)) === amount - fee, 20_000, 'pending credited by the replay');

    const again = await ops('POST', `/${first.id}/replay`);
    expect(again).toMatchObject({ status: 400, body: { status: false, code: 'VALIDATION_ERROR' } });
    const cli = admin('dlq', 'replay', second.id);
    expect(cli.code).toBe(0);
    expect(cli.out).toContain(`dead letter ${second.id} replayed`);
    // Give the second copy time to reach the ledger: it is recognised by its command id and changes nothing.
    await waitFor(
      async () => (await prisma.outbox.count({ where: { publishedAt: null } })) === 0,
      20_000,
      'replay published',
    );
    await new Promise((r) => setTimeout(r, 1500));
    expect(await pending(merchant.id)).toBe(amount - fee);
    expect(await prisma.ledgerEvent.count({ where: { merchantId: merchant.id } })).toBe(1);
    expect(await metric('workers', /^dead_letters_open\{.*topic="ledger\.commands\.v1"/)).toBe(0);
  });

  it('the ops API refuses without the admin token and names unknown ids', async () => {
    expect((await fetch(`${stack.internalUrl}/ops/dead-letters`)).status).toBe(401);
    // Never on the merchant port.
    expect((await fetch(`${stack.gatewayUrl}/ops/dead-letters`)).status).toBe(404);
    expect(await ops('GET', '/999999999')).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(await ops('GET', '/abc')).toMatchObject({ status: 404 });
    expect(await ops('GET', '?status=bogus')).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
  });
});
