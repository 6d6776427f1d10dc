import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createTransport, type IncomingRecord } from '@pay/bus';
import { ConsumerGroup, type LedgerEventMessage, Topic } from '@pay/contracts';
import { parseAmount, payinFee } from '@pay/domain';
import { createPrismaClient, type PrismaClient, verifyLedger } from '@pay/persistence';
import {
  createMerchant,
  directPayoutId,
  insertPayin,
  ledgerCommand,
  publishLedgerCommands,
  repoRoot,
  waitFor,
} from '@pay/testing';
import { LocalStack, testBus, unacknowledgedRecords, SERVICES, testS3 } from '@pay/devstack';
import { Client } from 'pg';

/**
 * The foundation through its real processes: gateway, ledger, payout and workers as separate
 * Node processes on the bus (Redis Streams; Kafka with E2E_BUS_TRANSPORT=kafka), commands published to ledger.commands, balances read
 * over HTTP, and the ledger killed with SIGKILL in the middle of a transaction.
 */
describe('foundation end to end (processes, real Postgres and Redis)', () => {
  const databaseUrl = process.env.DATABASE_URL as string;
  const redisUrl = process.env.TEST_REDIS_URL as string;
  const busKeyPrefix = `${process.env.TEST_REDIS_PREFIX}bus:`;
  // Redis Streams, or Kafka with E2E_BUS_TRANSPORT=kafka
  const { stack: stackBus, config: bus } = testBus(busKeyPrefix);
  let stack: LocalStack;
  let prisma: PrismaClient;

  beforeAll(async () => {
    stack = await LocalStack.start({
      databaseUrl,
      redisUrl,
      busKeyPrefix,
      bus: stackBus,
      s3: testS3(),
      logDir: join(repoRoot(), 'tmp', 'e2e-logs', process.env.TEST_REDIS_PREFIX as string),
      env: { BUS_LEASE_TTL_MS: '2000', LOG_LEVEL: 'info' },
    });
    prisma = createPrismaClient(databaseUrl, 4);
  });
  afterAll(async () => {
    await stack?.stop();
    await prisma?.$disconnect();
  });

  const balance = async (token: string) => {
    const res = await fetch(`${stack.gatewayUrl}/api/v1/payin/balance`, { headers: { token } });
    return {
      status: res.status,
      body: (await res.json()) as { data?: { balance: { available: number; pending: number } } },
    };
  };
  const decided = (commandIds: string[]) => prisma.ledgerCommand.count({ where: { commandId: { in: commandIds } } });

  it('pay-ins recorded through the bus show in pending net of fee; a settlement moves them to available', async () => {
    const { merchant, token } = await createMerchant(prisma);
    const rate = { pctMilli: merchant.payinFeePctMilli, fixed: merchant.payinFeeFixed };
    const amounts = [parseAmount(50000), parseAmount(125000)];
    const payins = await Promise.all(
      amounts.map(async (amount) => ({
        id: await insertPayin(prisma, merchant.id, amount, payinFee(amount, rate)),
        amount,
        fee: payinFee(amount, rate),
      })),
    );
    expect(payins[0].fee).toBe(parseAmount(500));

    await publishLedgerCommands(
      bus,
      payins.map((p) => ledgerCommand.recordPayin(merchant.id, p.id, p.amount, p.fee)),
    );
    await waitFor(async () => (await balance(token)).body.data?.balance.pending === 49500 + 123975, 15_000, 'pending');
    expect((await balance(token)).body).toMatchObject({
      status: true,
      message: 'Balance inquiry successful',
      data: { balance: { available: 0, pending: 173475 } },
    });

    await publishLedgerCommands(bus, [ledgerCommand.settle(merchant.id, [payins[0].id])]);
    await waitFor(async () => (await balance(token)).body.data?.balance.available === 49500, 15_000, 'settlement');
    expect((await balance(token)).body.data).toEqual({ balance: { available: 49500, pending: 123975 } });
  });

  it('publishes every decision of the ledger on ledger.events through the outbox, in sequence order', async () => {
    const { merchant } = await createMerchant(prisma);
    const seen: LedgerEventMessage[] = [];
    const transport = createTransport(bus);
    const subscription = await transport.subscribe({
      topic: Topic.LedgerEvents,
      group: `e2e-${randomUUID()}`,
      handler: async (record: IncomingRecord) => {
        const message = JSON.parse(record.value) as LedgerEventMessage;
        if (message.merchantId === merchant.id) seen.push(message);
      },
    });
    try {
      const payinId = await insertPayin(prisma, merchant.id, parseAmount(10000), parseAmount(220));
      const commands = [
        ledgerCommand.recordPayin(merchant.id, payinId, parseAmount(10000), parseAmount(220)),
        ledgerCommand.settle(merchant.id, [payinId]),
        ledgerCommand.debit(merchant.id, directPayoutId(), parseAmount(5000), parseAmount(2500)),
        ledgerCommand.debit(merchant.id, directPayoutId(), parseAmount(5000), parseAmount(2500)),
      ];
      await publishLedgerCommands(bus, commands);
      await waitFor(async () => seen.length === 4, 15_000, 'four ledger events');
      expect(seen.map((m) => [m.kind, m.commandId])).toEqual([
        ['event', commands[0].commandId],
        ['event', commands[1].commandId],
        ['event', commands[2].commandId],
        ['rejection', commands[3].commandId], // 9780 available covered the first 7500 only
      ]);
      expect(seen.slice(0, 3).map((m) => m.seq)).toEqual(['1', '2', '3']);
      expect(seen[3].reason).toBe('INSUFFICIENT_BALANCE');
    } finally {
      await subscription.close();
      await transport.close();
    }
  });

  it('a command delivered twice changes the ledger once', async () => {
    const { merchant, token } = await createMerchant(prisma);
    const payinId = await insertPayin(prisma, merchant.id, parseAmount(100000), 0n);
    await publishLedgerCommands(bus, [
      ledgerCommand.recordPayin(merchant.id, payinId, parseAmount(100000), 0n),
      ledgerCommand.settle(merchant.id, [payinId]),
    ]);
    const debit = ledgerCommand.debit(merchant.id, directPayoutId(), parseAmount(10000), parseAmount(2500));
    await publishLedgerCommands(bus, [debit, debit]);
    await publishLedgerCommands(bus, [debit]);
    await waitFor(async () => (await decided([debit.commandId])) === 1, 15_000, 'debit decided');
    await new Promise((r) => setTimeout(r, 500)); // let the redeliveries be consumed too
    expect(await prisma.ledgerEvent.count({ where: { commandId: debit.commandId } })).toBe(1);
    expect((await balance(token)).body.data).toEqual({ balance: { available: 87500, pending: 0 } });
  });

  it('a ledger killed with SIGKILL after reading a command but before acknowledging it: a new consumer reclaims it and it applies exactly once', async () => {
    const { merchant, token } = await createMerchant(prisma);
    const payinId = await insertPayin(prisma, merchant.id, parseAmount(100000), 0n);
    await publishLedgerCommands(bus, [
      ledgerCommand.recordPayin(merchant.id, payinId, parseAmount(100000), 0n),
      ledgerCommand.settle(merchant.id, [payinId]),
    ]);
    await waitFor(async () => (await balance(token)).body.data?.balance.available === 100000, 15_000, 'funding');

    // Hold the merchant's balance row so the ledger reads the next commands and blocks inside its transaction.
    const blocker = new Client({ connectionString: databaseUrl });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('SELECT * FROM balances WHERE merchant_id = $1 FOR UPDATE', [merchant.id]);
    // 10 payouts of 10000 + 2500: 100000 covers exactly 8.
    const debits = Array.from({ length: 10 }, () =>
      ledgerCommand.debit(merchant.id, directPayoutId(), parseAmount(10000), parseAmount(2500)),
    );
    await publishLedgerCommands(bus, debits);
    await waitFor(
      async () => (await unacknowledgedRecords(bus, Topic.LedgerCommands, ConsumerGroup.Ledger)) > 0,
      10_000,
      'a command read but not acknowledged',
    );

    await stack.kill('ledger');
    await blocker.query('ROLLBACK');
    await blocker.end();
    expect(await decided(debits.map((d) => d.commandId))).toBe(0);

    await stack.startService('ledger');
    await waitFor(
      async () => (await decided(debits.map((d) => d.commandId))) === 10,
      30_000,
      'all debits decided after restart',
    );
    expect(await prisma.ledgerEvent.count({ where: { commandId: { in: debits.map((d) => d.commandId) } } })).toBe(8);
    expect((await balance(token)).body.data).toEqual({ balance: { available: 0, pending: 0 } });
    expect((await verifyLedger(prisma, { merchantIds: [merchant.id] })).breaches).toEqual([]);
    await waitFor(
      async () => (await unacknowledgedRecords(bus, Topic.LedgerCommands, ConsumerGroup.Ledger)) === 0,
      10_000,
      'everything acknowledged',
    );
  });

  it.each(SERVICES)('%s started with a malformed DATABASE_URL exits non-zero naming it', (service) => {
    const result = spawnSync(process.execPath, [join(repoRoot(), 'dist', 'apps', service, 'src', 'main.js')], {
      env: { PATH: process.env.PATH, DATABASE_URL: 'postgres:/not a url', OPS_PORT: '0', GATEWAY_PORT: '0' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`${service}: Invalid configuration`);
    expect(result.stderr).toContain('DATABASE_URL: must be a PostgreSQL URL');
  });
});
