import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createPrismaClient, type PrismaClient } from '../client/prisma';
import { applyMigrations, dropDatabase, ensureDatabase } from '../migrations/migrate';
import { ReconExportRepository } from './recon-export.repository';

const MIGRATIONS_DIR = join(__dirname, '..', '..', '..', '..', 'prisma', 'migrations');
const DAY = '2026-11-20';

/**
 * Real Postgres: a day has at most one export queued or running (a partial unique index). A new
 * export of the day answers the one in progress, and if that one finishes between the refused
 * insert and the read, a new export is queued (this raced to a 500 in a chaos run: 7373).
 */
describe('ReconExportRepository: queueing an export beside the day one in progress (real Postgres)', () => {
  const url = new URL(process.env.DATABASE_URL as string);
  url.pathname = `/${url.pathname.slice(1)}_recon_${randomBytes(3).toString('hex')}`;
  let prisma: PrismaClient;
  let merchantId: number;

  beforeAll(async () => {
    await ensureDatabase(url.toString());
    await applyMigrations(url.toString(), MIGRATIONS_DIR);
    prisma = createPrismaClient(url.toString(), 4);
  });
  beforeEach(async () => {
    merchantId = (await prisma.merchant.create({ data: { name: 'recon race' } })).id;
  });
  afterAll(async () => {
    await prisma.$disconnect();
    await dropDatabase(url.toString());
  });

  /** A client whose refused inserts of an export first let the day's running export finish: the race, made certain. */
  function finishingUnderTheInsert(): PrismaClient {
    return prisma.$extends({
      query: {
        reconExport: {
          async create({ args, query }) {
            try {
              return await query(args);
            } catch (err) {
              await prisma.reconExport.updateMany({
                where: { merchantId, status: 'running' },
                data: { status: 'ready', finishedAt: new Date() },
              });
              throw err;
            }
          },
        },
      },
    }) as unknown as PrismaClient;
  }

  const running = () =>
    new ReconExportRepository(prisma)
      .createQueued(merchantId, DAY)
      .then((e) => prisma.reconExport.update({ where: { id: e.id }, data: { status: 'running' } }));
  const inProgress = () =>
    prisma.reconExport.findMany({ where: { merchantId, status: { in: ['queued', 'running'] } } });

  it('answers the export in progress of the day, within the cap and without', async () => {
    const first = await running();
    const repo = new ReconExportRepository(prisma);
    expect((await repo.createQueuedWithin(merchantId, DAY, 3))?.id).toBe(first.id);
    expect((await repo.createQueued(merchantId, DAY)).id).toBe(first.id);
    expect(await inProgress()).toHaveLength(1);
  });

  it.each([
    ['createQueuedWithin', (repo: ReconExportRepository) => repo.createQueuedWithin(merchantId, DAY, 3)],
    ['createQueued', (repo: ReconExportRepository) => repo.createQueued(merchantId, DAY)],
  ])('%s queues a new export when the one in progress finished after refusing the insert', async (_name, queue) => {
    const first = await running();
    const created = await queue(new ReconExportRepository(finishingUnderTheInsert()));
    expect(created).toMatchObject({ merchantId, status: 'queued' });
    expect(created?.id).not.toBe(first.id);
    expect((await prisma.reconExport.findUniqueOrThrow({ where: { id: first.id } })).status).toBe('ready');
    expect((await inProgress()).map((e) => e.id)).toEqual([created?.id]);
  });

  it('still refuses at the cap: the merchant has that many exports in progress on other days', async () => {
    const repo = new ReconExportRepository(prisma);
    await repo.createQueued(merchantId, '2026-11-18');
    await repo.createQueued(merchantId, '2026-11-19');
    expect(await repo.createQueuedWithin(merchantId, DAY, 2)).toBeNull();
  });
});
