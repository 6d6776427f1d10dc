import { randomUUID } from 'node:crypto';
import {
  acquirerEnvShape,
  acquirerSection,
  createBankRail,
  createQrisAcquirer,
  railEnvShape,
  railSection,
  type SnapBankRail,
  type SnapQrisAcquirer,
  type SnapRailConfig,
} from '@pay/bank-rail';
import { parseLedgerCommand, Topic } from '@pay/contracts';
import type { Minor } from '@pay/domain';
import { PayinRepository, type PrismaClient } from '@pay/persistence';
import { ledgerFor } from '@pay/testing';
import type { Pool } from 'pg';
import { z } from 'zod';
import type { SnapSimulator } from './snap-simulator';

/**
 * The simulator as our QRIS acquirer and our bank over SNAP, made from its settings as the services
 * make them (QRIS_ACQUIRER=snap, RAIL_PROVIDER=snap); `pool` holds the rail's attempts.
 */
export function simulatorAcquirerAndBank(
  sim: SnapSimulator,
  pool: Pool,
): { acquirer: SnapQrisAcquirer; bank: SnapBankRail; snap: SnapRailConfig } {
  const env = { ...sim.env(), ...sim.acquirerEnv(), RAIL_PROVIDER: 'snap' };
  const acquirer = createQrisAcquirer(acquirerSection(z.object({ ...railEnvShape, ...acquirerEnvShape }).parse(env)));
  const rail = railSection(z.object(railEnvShape).parse(env));
  if (!acquirer || !rail.snap)
    throw new Error("the simulator's settings did not make an acquirer and a bank over SNAP");
  return { acquirer, bank: createBankRail(rail, pool) as SnapBankRail, snap: rail.snap };
}

export interface SimulatorPayin {
  payinId: string;
  rrn: string;
  amount: bigint;
}

/**
 * QRIS pay-ins of a merchant, one per amount, paid at the simulator's acquirer (generated over SNAP,
 * paid through its controls, asked after: no notification is awaited), applied as the acquirer's
 * notice (sandbox money: the books' acquirer `sandbox`) and recorded by the ledger. What a
 * reconciliation of the day finds in the books and in the acquirer's report once it settles.
 */
export async function payinsPaidAtSimulator(
  prisma: PrismaClient,
  sim: SnapSimulator,
  acquirer: SnapQrisAcquirer,
  merchantId: number,
  amounts: readonly bigint[],
): Promise<SimulatorPayin[]> {
  const payins = new PayinRepository(prisma);
  const paid: SimulatorPayin[] = [];
  for (const amount of amounts) {
    const platformTrxId = `QR${randomUUID().replace(/-/g, '').slice(0, 20).toUpperCase()}`;
    const payin = await payins.create({
      merchantId,
      merchantTrxId: `RCN-${randomUUID().slice(0, 8)}`,
      platformTrxId,
      amount: amount as Minor,
      fee: 0n as Minor,
      feePctMilli: 0,
      feeFixed: 0n as Minor,
      nmid: 'ID1234567890123',
      qrisPayload: null,
      expiresAt: new Date(Date.now() + 600_000),
    });
    const code = await acquirer.generate({
      platformTrxId,
      amount,
      expiresAt: payin.expiresAt as Date,
      merchantName: 'TOKO RECON',
    });
    if (code.kind !== 'created') throw new Error(`no code from the acquirer: ${code.reason}`);
    await sim.control('qris/pay', { partnerReferenceNo: platformTrxId, mode: 'never' });
    const state = await acquirer.query(platformTrxId);
    if (state.state !== 'paid') throw new Error(`not paid at the acquirer: ${JSON.stringify(state)}`);
    const applied = await payins.applyNotice(
      {
        acquirerReference: state.referenceNo,
        platformTrxId,
        amount: state.amount as Minor,
        status: 'success',
        rrn: state.rrn,
        issuer: state.issuer,
        paidAt: state.paidAt ?? new Date(),
        failureReason: null,
        sandbox: true,
      },
      JSON.stringify({ source: 'test' }),
      new Date(),
      300_000,
    );
    if (applied.outcome !== 'accepted') throw new Error(`the notice was not accepted: ${applied.outcome}`);
    const written = await prisma.outbox.findFirstOrThrow({
      where: { topic: Topic.LedgerCommands, payload: { path: ['payinId'], equals: payin.id } },
    });
    const recorded = await ledgerFor(prisma).apply(parseLedgerCommand(written.payload));
    if (recorded.outcome !== 'applied') throw new Error(`the ledger did not record it: ${recorded.outcome}`);
    paid.push({ payinId: payin.id, rrn: state.rrn as string, amount });
  }
  return paid;
}
