import { type PrismaClient, RECON_DAY_DIGEST_SQL } from '@pay/persistence';

/**
 * A finance export finished by hand as the workers would leave a day with nothing in it (their
 * spec, apps/workers' books-files.int-spec.ts, builds the files for real): ready, its object under
 * `books/<date>/`, no rows; the ledger's files balanced at 0, the reconciliation file with no run
 * and the day's digest as it stands (so it is current until the day's runs change).
 */
export async function finishBooksExportByHand(prisma: PrismaClient, id: string): Promise<void> {
  const e = await prisma.reconExport.findUniqueOrThrow({ where: { id } });
  const date = e.date.toISOString().slice(0, 10);
  const totals =
    e.kind === 'reconciliation'
      ? {
          openBreaks: 0,
          dataDigest: (await prisma.$queryRawUnsafe<{ digest: string }[]>(RECON_DAY_DIGEST_SQL, date))[0].digest,
        }
      : { totalDebit: 0n, totalCredit: 0n };
  await prisma.reconExport.update({
    where: { id },
    data: {
      status: 'ready',
      objectKey: `books/${date}/${e.kind}-${id}.csv`,
      dataAsOf: new Date(),
      rowCount: 0,
      entryCount: 0,
      ...totals,
      finishedAt: new Date(),
    },
  });
}
