import { randomUUID } from 'node:crypto';
import { S3Proxy } from '@pay/devstack';
import { createPrismaClient, type PrismaClient } from '@pay/persistence';
import { finishBooksExportByHand } from '@pay/testing';
import { ExitCode, runAdmin } from './admin';

/**
 * `admin books export`: queues the day's finance export for the workers (the same use case as
 * POST /ops/books/exports) and, with --wait, prints its presigned URL once built. No workers run
 * here (the build is apps/workers' books-files.int-spec.ts): the spec finishes the export itself.
 */
describe('admin books export (real Postgres, Redis, S3)', () => {
  let prisma: PrismaClient;
  let s3: S3Proxy;
  let env: Record<string, string | undefined>;
  const past = (days: number) => new Date(Date.now() + 7 * 3_600_000 - days * 86_400_000).toISOString().slice(0, 10);

  beforeAll(async () => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 2);
    s3 = await S3Proxy.start();
    env = {
      DATABASE_URL: process.env.DATABASE_URL,
      REDIS_URL: process.env.TEST_REDIS_URL,
      QUEUE_PREFIX: `${process.env.TEST_REDIS_PREFIX}books-cli-${randomUUID().slice(0, 8)}`,
      ...s3.env,
    };
  });
  afterAll(async () => {
    await prisma.$disconnect();
    await s3.close();
  });

  async function admin(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdmin(argv, { env, out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('queues the export once; --wait prints the URL when it is built', async () => {
    const date = past(500);
    const queued = await admin('--json', 'books', 'export', '--date', date, '--kind', 'journal');
    expect(queued.code).toBe(ExitCode.Ok);
    const e = JSON.parse(queued.out);
    expect(e).toMatchObject({ date, kind: 'journal', status: 'queued', url: null });
    expect((await admin('books', 'export', '--date', date, '--kind', 'journal')).out).toBe(
      `journal of ${date}: export ${e.id} queued; run the command again (or with --wait) for the URL`,
    );

    // The workers' part, by hand: the file built a moment later.
    setTimeout(() => {
      finishBooksExportByHand(prisma, e.id).catch((err: unknown) => console.error('UPDATE FAILED', err));
    }, 1_500);
    const waited = await admin('books', 'export', '--date', date, '--kind', 'journal', '--wait');
    expect(waited.code).toBe(ExitCode.Ok);
    const [head, url] = waited.out.split('\n');
    expect(head).toBe(`journal of ${date}: export ${e.id} ready: 0 rows, 0 journal entries, debits 0 = credits 0`);
    expect(url).toMatch(new RegExp(`^http.*/books/${date}/journal-${e.id}\\.csv\\?.*X-Amz-Signature=`));
  }, 20_000);

  it("--kind reconciliation: the day's reconciliation report, its runs and open breaks once built", async () => {
    const date = past(501);
    const queued = await admin('--json', 'books', 'export', '--date', date, '--kind', 'reconciliation');
    expect(queued.code).toBe(ExitCode.Ok);
    const e = JSON.parse(queued.out);
    expect(e).toMatchObject({ date, kind: 'reconciliation', status: 'queued', openBreaks: null, url: null });
    await finishBooksExportByHand(prisma, e.id); // the workers' part, by hand: a day with no run
    const ready = await admin('books', 'export', '--date', date, '--kind', 'reconciliation', '--wait');
    expect(ready.code).toBe(ExitCode.Ok);
    const [head, url] = ready.out.split('\n');
    expect(head).toBe(`reconciliation of ${date}: export ${e.id} ready: 0 runs, 0 rows, 0 open breaks`);
    expect(url).toMatch(new RegExp(`^http.*/books/${date}/reconciliation-${e.id}\\.csv\\?.*X-Amz-Signature=`));
  }, 20_000);

  it('refuses a future day and another kind with exit code 2', async () => {
    const tomorrow = new Date(Date.now() + 31 * 3_600_000).toISOString().slice(0, 10);
    const future = await admin('books', 'export', '--date', tomorrow, '--kind', 'journal');
    expect(future.code).toBe(ExitCode.Usage);
    expect(future.err).toContain('is in the future');
    const kind = await admin('books', 'export', '--date', past(1), '--kind', 'payins');
    expect(kind.code).toBe(ExitCode.Usage);
    expect(kind.err).toContain('journal, trial-balance, reconciliation');
  });
});
