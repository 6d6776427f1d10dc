import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createQrisAcquirer, type SnapQrisAcquirer } from '@pay/bank-rail';
import { SnapSimulator } from '@pay/devstack';
import type { Minor } from '@pay/domain';
import {
  createPgPool,
  createPrismaClient,
  type Payin,
  PayinExpiryRepository,
  PayinRepository,
  type PrismaClient,
} from '@pay/persistence';
import { createLogger, loadConfig } from '@pay/platform';
import { createMerchant } from '@pay/testing';
import type { Pool } from 'pg';
import { workersConfigSchema } from '../workers.config';
import { PayinAcquirerCheck } from './payin-acquirer.check';
import { PayinExpiryLoop } from './payin-expiry.loop';

/**
 * QRIS_ACQUIRER=snap in the workers: before a code expires its acquirer is asked (51). A payment
 * whose notification never came (or came badly signed) is applied from the answer, exactly once; an
 * unpaid code expires; a code the acquirer did not answer for stays pending until it does.
 * Against the SNAP provider simulator as its own process.
 */
describe('pay-ins asked at the acquirer before they expire (workers, simulator process)', () => {
  let sim: SnapSimulator;
  let acquirer: SnapQrisAcquirer;
  let prisma: PrismaClient;
  let pool: Pool;
  let payins: PayinRepository;
  let merchantId: number;
  const logger = createLogger('test', 'fatal');

  beforeAll(async () => {
    // Nowhere to notify: every notification the simulator tries is lost.
    sim = await SnapSimulator.start({
      databaseUrl: process.env.DATABASE_URL as string,
      notifyUrl: 'http://127.0.0.1:9/snap/v1.0/qr/qr-mpm-notify',
    });
    const config = loadConfig(workersConfigSchema, {
      DATABASE_URL: process.env.DATABASE_URL,
      ...sim.env(),
      ...sim.acquirerEnv(),
      SNAP_TIMEOUT_MS: '1500',
      SNAP_CONNECT_TIMEOUT_MS: '500',
    });
    const made = createQrisAcquirer(config.payins.acquirer);
    if (!made) throw new Error('QRIS_ACQUIRER=snap did not make an acquirer');
    acquirer = made;
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 4);
    pool = createPgPool(process.env.DATABASE_URL as string, 4);
    payins = new PayinRepository(prisma);
    merchantId = (await createMerchant(prisma)).merchant.id;
  });
  afterAll(async () => {
    acquirer?.close();
    await sim?.stop();
    await prisma?.$disconnect();
    await pool?.end();
  });

  const scanAt = (at: Date) =>
    new PayinExpiryLoop(
      new PayinExpiryRepository(pool),
      () => undefined,
      logger,
      30_000,
      () => at,
      new PayinAcquirerCheck(acquirer, payins, new PayinExpiryRepository(pool), logger, {
        clockSkewMs: 300_000,
        sandbox: true,
      }),
    ).scan();
  const ledgerCommands = (payinId: string) =>
    prisma.outbox.count({ where: { topic: 'ledger.commands.v1', payload: { path: ['payinId'], equals: payinId } } });
  const reread = (p: Payin) => prisma.payin.findUniqueOrThrow({ where: { id: p.id } });

  /** A code of 2 s at the acquirer (generated there unless `generated: false`). */
  async function code(opts: { generated?: boolean } = {}): Promise<Payin> {
    const now = new Date();
    const platformTrxId = `QR${randomUUID().replace(/-/g, '').slice(0, 20).toUpperCase()}`;
    const payin = await payins.create({
      merchantId,
      merchantTrxId: `EXP-${randomUUID().slice(0, 8)}`,
      platformTrxId,
      amount: 2_500_000n as Minor,
      fee: 17_500n as Minor,
      feePctMilli: 700,
      feeFixed: 0n as Minor,
      nmid: 'ID1234567890123',
      qrisPayload: null,
      expiresAt: new Date(now.getTime() + 2_000),
    });
    if (opts.generated === false) return payin;
    const generated = await acquirer.generate({
      platformTrxId,
      amount: payin.amount,
      expiresAt: payin.expiresAt as Date,
      merchantName: 'TOKO EXPIRY',
    });
    expect(generated.kind).toBe('created');
    return payin;
  }
  const later = () => new Date(Date.now() + 5_000);

  it('paid, its notification never sent: applied from the query at expiry, not expired, once', async () => {
    const payin = await code();
    const paid = await sim.control('qris/pay', { partnerReferenceNo: payin.platformTrxId, mode: 'never' });
    const round = await scanAt(later());
    expect(round.resolved).toBeGreaterThanOrEqual(1);
    expect(await reread(payin)).toMatchObject({
      status: 'success',
      acquirerReference: paid.body.referenceNo,
      rrn: paid.body.rrn,
      sandbox: true,
    });
    expect(await ledgerCommands(payin.id)).toBe(1);
    // Asked again (another worker, the next round): nothing more happens.
    await scanAt(later());
    expect(await ledgerCommands(payin.id)).toBe(1);
  });

  it('paid, its notification badly signed (and lost): the query resolves it', async () => {
    const payin = await code();
    await sim.control('qris/pay', { partnerReferenceNo: payin.platformTrxId, mode: 'bad-signature' });
    await scanAt(later());
    expect((await reread(payin)).status).toBe('success');
    expect(await ledgerCommands(payin.id)).toBe(1);
  });

  it('two workers asking at once apply it once', async () => {
    const payin = await code();
    await sim.control('qris/pay', { partnerReferenceNo: payin.platformTrxId, mode: 'never' });
    const at = later();
    await Promise.all([scanAt(at), scanAt(at)]);
    expect((await reread(payin)).status).toBe('success');
    expect(await ledgerCommands(payin.id)).toBe(1);
  });

  it('failed at the acquirer: failed, no money', async () => {
    const payin = await code();
    await sim.control('qris/pay', { partnerReferenceNo: payin.platformTrxId, mode: 'never', status: 'failed' });
    await scanAt(later());
    expect(await reread(payin)).toMatchObject({ status: 'failed' });
    expect(await ledgerCommands(payin.id)).toBe(0);
  });

  it('unpaid, or never generated at the acquirer: expired as usual', async () => {
    const unpaid = await code();
    const unknown = await code({ generated: false });
    await scanAt(later());
    expect((await reread(unpaid)).status).toBe('expired');
    expect((await reread(unknown)).status).toBe('expired');
  });

  it('an acquirer that does not answer: the code stays pending, and is resolved once it answers', async () => {
    const payin = await code();
    await sim.control('qris/pay', { partnerReferenceNo: payin.platformTrxId, mode: 'never' });
    await sim.kill();
    try {
      const round = await scanAt(later());
      expect(round.held).toBeGreaterThanOrEqual(1);
      expect((await reread(payin)).status).toBe('pending');
    } finally {
      await sim.restart();
    }
    await scanAt(later());
    expect((await reread(payin)).status).toBe('success');
    expect(await ledgerCommands(payin.id)).toBe(1);
  });

  it("readiness: ready with our key; a key the acquirer does not know fails with the acquirer's reason", async () => {
    await expect(acquirer.ready()).resolves.toBeUndefined();
    const dir = mkdtempSync(join(tmpdir(), 'acq-key-'));
    const wrongKey = join(dir, 'wrong.pem');
    writeFileSync(
      wrongKey,
      generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }),
    );
    const config = loadConfig(workersConfigSchema, {
      DATABASE_URL: process.env.DATABASE_URL,
      ...sim.env(),
      ...sim.acquirerEnv(),
      SNAP_ACQUIRER_PRIVATE_KEY_FILE: wrongKey,
    });
    const wrong = createQrisAcquirer(config.payins.acquirer);
    try {
      await expect(wrong?.ready()).rejects.toThrow(
        /^QRIS acquirer: the provider refused our token request: 4017300 Unauthorized. Signature/,
      );
    } finally {
      wrong?.close();
    }
  });
});
