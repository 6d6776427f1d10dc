import { execFileSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { Readable } from 'node:stream';
import { createPrismaClient, dropDatabase, RECON_COPY_SETTINGS, reconCsvCopy } from '@pay/persistence';
import { ObjectStore, storageConfigSchema } from '@pay/platform';
import { createMerchant, createTestDatabase, repoRoot, uniqueName, waitFor } from '@pay/testing';
import { S3Proxy } from '@pay/devstack';
import { insertBusyDay, reconDay } from '../seeds/busy-day.seed';
import { cpuMsOf, sampleCpu } from '../lib/cpu';
import { runBench, startBenchStack } from '../lib/harness';
import { recordNumbers } from '../lib/report';

/**
 * Recon export of one day of N pay-ins for one merchant (default 1,000,000), through the
 * workers process (COPY -> S3 multipart into S3Proxy, a process of its own), beside two ceilings: psql's \copy of the
 * same rows' raw columns to a CSV file, and psql running the export's own COPY statement (the
 * same formatting) to a file. Prints seconds, the workers' peak resident memory and the ratios.
 * Usage: npm run build && npm run bench -- recon [payins=1000000]
 */
const [N = 1_000_000] = process.argv.slice(2).map(Number);

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

async function main(): Promise<void> {
  const databaseUrl = await createTestDatabase('pay_bench');
  const prisma = createPrismaClient(databaseUrl, 4);
  // A real S3 server in a process of its own (as the end-to-end suites use), so its CPU is its own.
  const s3Dir = join(repoRoot(), 'tmp', uniqueName('recon-bench-s3'));
  const s3 = await S3Proxy.start({ dir: s3Dir });
  // info: the workers' "recon export ready" line says where the export's time went.
  const stack = await startBenchStack(databaseUrl, { LOG_LEVEL: 'info' }, 'bench', s3);
  const csvFile = join(repoRoot(), 'tmp', 'recon-bench-copy.csv');
  try {
    const { merchant, token } = await createMerchant(prisma, { name: 'Toko "Bench", Jaya' });
    const { date, start: dayStart } = reconDay();
    // No export of a day before the merchant existed: this one has existed for a week.
    await prisma.merchant.update({
      where: { id: merchant.id },
      data: { createdAt: new Date(Date.now() - 7 * 86_400_000) },
    });
    let t = process.hrtime.bigint();
    await insertBusyDay(prisma, merchant.id, merchant.nmid, dayStart, N);
    const insertSeconds = Number(process.hrtime.bigint() - t) / 1e9;
    console.log(`inserted ${N} pay-ins for ${date} in ${insertSeconds.toFixed(1)} s`);
    recordNumbers('inserted', { payins: N, seconds: Number(insertSeconds.toFixed(1)) });
    await prisma.$executeRawUnsafe('ANALYZE payins');

    // psql \\copy of the same rows and columns the export reads.
    t = process.hrtime.bigint();
    const query = `SELECT p.merchant_trx_id, p.platform_trx_id, m.name, p.status, p.amount, p.fee, p.amount - p.fee, p.fee_pct_milli, p.fee_fixed, p.created_at, p.success_at, p.rrn, p.issuer, p.nmid, p.settlement_id FROM payins p JOIN merchants m ON m.id = p.merchant_id WHERE p.merchant_id = ${merchant.id} AND p.created_at >= '${dayStart.toISOString()}' AND p.created_at < '${new Date(dayStart.getTime() + 86_400_000).toISOString()}' ORDER BY p.created_at, p.id`;
    execFileSync('psql', [databaseUrl, '-q', '-c', `\\copy (${query}) to '${csvFile}' csv header`]);
    const copySeconds = Number(process.hrtime.bigint() - t) / 1e9;
    const copyMb = statSync(csvFile).size / 1e6;
    console.log(`psql \\copy of the raw columns: ${copySeconds.toFixed(1)} s, ${copyMb.toFixed(0)} MB`);
    recordNumbers('ceiling: psql \\copy of the raw columns', {
      seconds: Number(copySeconds.toFixed(1)),
      mb: Math.round(copyMb),
    });
    // The export's own COPY statement (amounts in Rupiah, Jakarta times, formulas neutralised), through psql to a file, as the export runs it.
    t = process.hrtime.bigint();
    const to = new Date(dayStart.getTime() + 86_400_000);
    const out = openSync(csvFile, 'w');
    try {
      const settings = Object.entries(RECON_COPY_SETTINGS).flatMap(([name, value]) => [
        '-c',
        `SET ${name} = '${value}'`,
      ]);
      execFileSync('psql', [databaseUrl, '-q', ...settings, '-c', reconCsvCopy(merchant.id, dayStart, to)], {
        stdio: ['ignore', out, 'inherit'],
      });
    } finally {
      closeSync(out);
    }
    const sameCopySeconds = Number(process.hrtime.bigint() - t) / 1e9;
    const sameCopyMb = statSync(csvFile).size / 1e6;
    console.log(
      `psql running the export's own COPY statement: ${sameCopySeconds.toFixed(1)} s, ${sameCopyMb.toFixed(0)} MB`,
    );
    recordNumbers("ceiling: psql running the export's own COPY statement", {
      seconds: Number(sameCopySeconds.toFixed(1)),
      mb: Math.round(sameCopyMb),
    });

    // A store that has been running has compiled its hot paths: one upload of 64 MB in parts first,
    // so the export is not timed against the S3 server's JIT warm-up (a JVM here).
    const warmup = new ObjectStore(storageConfigSchema.parse({ ...s3.env, RECON_BUCKET: 'warmup' }));
    await warmup.ensureBucket();
    t = process.hrtime.bigint();
    const block = Buffer.alloc(1024 * 1024, 'recon-bench,warm-up\n');
    await warmup.putStream('warmup.csv', Readable.from(Array.from({ length: 64 }, () => block)), 'text/csv');
    console.log(`S3 server warmed with a 64 MB upload in ${(Number(process.hrtime.bigint() - t) / 1e9).toFixed(1)} s`);

    const workersPid = stack.pid('workers') as number;
    const rssBefore = peakRssMb(workersPid);
    const cpuBefore: Record<string, number> = { ...sampleCpu(stack), s3: cpuMsOf(s3.pid) };
    t = process.hrtime.bigint();
    const post = async () => {
      const res = await fetch(`${stack.gatewayUrl}/api/v1/payin/reconFile`, {
        method: 'POST',
        headers: { token, 'content-type': 'application/json' },
        body: JSON.stringify({ date }),
      });
      return (await res.json()) as { message: string; data: { jobId: string; download?: string } };
    };
    const queued = await post();
    // Polled every 10 ms (at 100 ms the polling would add up to a tenth of a second to a 3 s figure).
    const finished = async () =>
      !['queued', 'running'].includes(
        (await prisma.reconExport.findUniqueOrThrow({ where: { id: queued.data.jobId }, select: { status: true } }))
          .status,
      );
    await waitFor(finished, 1_800_000, 'export', 10);
    const exportSeconds = Number(process.hrtime.bigint() - t) / 1e9;
    const cpuAfter: Record<string, number> = { ...sampleCpu(stack), s3: cpuMsOf(s3.pid) };
    const job = await prisma.reconExport.findUniqueOrThrow({ where: { id: queued.data.jobId } });
    const ready = await post();
    if (!ready.data?.download)
      throw new Error(`export ${job.status} (${job.rowCount ?? 0} rows): ${JSON.stringify(ready)}`);
    // A presigned URL is signed for GET: one byte of it, and the whole size from Content-Range.
    const first = await fetch(ready.data.download as string, { headers: { range: 'bytes=0-0' } });
    await first.arrayBuffer();
    const size = Number(/\/(\d+)$/.exec(first.headers.get('content-range') ?? '')?.[1] ?? 0);
    const peakRss = peakRssMb(workersPid);
    console.log(
      `recon export (${job.status}): ${job.rowCount} rows, ${(size / 1e6).toFixed(0)} MB in ${exportSeconds.toFixed(1)} s; workers peak RSS ${peakRss.toFixed(0)} MB (${rssBefore.toFixed(0)} MB before)`,
    );
    recordNumbers('recon export', {
      status: job.status,
      rows: job.rowCount ?? 0,
      mb: Math.round(size / 1e6),
      seconds: Number(exportSeconds.toFixed(1)),
      workersPeakRssMb: Math.round(peakRss),
      workersRssBeforeMb: Math.round(rssBefore),
    });
    // Where the export's CPU went: the S3 server shares this machine's cores with the export.
    const cpuSeconds = (key: string) => ((cpuAfter[key] - cpuBefore[key]) / 1000).toFixed(1);
    const logLine = readFileSync(stack.logFile('workers'), 'utf8')
      .split('\n')
      .findLast((line) => line.includes('"recon export ready"'));
    if (logLine) {
      const { uploadMs, totalsWaitMs, ms, parts } = JSON.parse(logLine) as Record<string, number>;
      console.log(
        `workers: COPY through the upload ${uploadMs} ms (${parts} parts), then waited ${totalsWaitMs} ms for the totals; ${ms} ms in all from the job's start`,
      );
      recordNumbers('workers', { uploadMs, parts, totalsWaitMs, ms });
    }
    console.log(
      `CPU seconds during the export: workers ${cpuSeconds('workers')}, postgres ${cpuSeconds('postgres')}, S3Proxy ${cpuSeconds('s3')}, over ${exportSeconds.toFixed(1)} s on ${availableParallelism()} cores`,
    );
    console.log(
      `ratio export / \\copy of the raw columns: ${(exportSeconds / copySeconds).toFixed(2)}x; export / psql running the export's COPY: ${(exportSeconds / sameCopySeconds).toFixed(2)}x`,
    );
    recordNumbers('CPU seconds during the export', {
      workers: Number(cpuSeconds('workers')),
      postgres: Number(cpuSeconds('postgres')),
      s3proxy: Number(cpuSeconds('s3')),
    });
    recordNumbers('ratios', {
      exportOverRawCopy: Number((exportSeconds / copySeconds).toFixed(2)),
      exportOverItsCopy: Number((exportSeconds / sameCopySeconds).toFixed(2)),
    });
  } finally {
    rmSync(csvFile, { force: true });
    await stack.stop();
    await s3.stop();
    rmSync(s3Dir, { recursive: true, force: true });
    await prisma.$disconnect();
    await dropDatabase(databaseUrl);
  }
}

runBench(main);
