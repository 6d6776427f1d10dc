import { randomUUID } from 'node:crypto';
import { type BusConfig, createTransport } from '@pay/bus';
import { type LedgerCommand, Topic } from '@pay/contracts';

/** Builds ledger commands as the producing services will (deterministic command ids). */
export const ledgerCommand = {
  recordPayin: (merchantId: number, payinId: string, amount: bigint, fee: bigint): LedgerCommand => ({
    type: 'payin.record',
    commandId: `payin.record:${payinId}`,
    merchantId,
    issuedAt: new Date().toISOString(),
    logId: randomUUID(),
    payinId,
    amount: amount.toString(),
    fee: fee.toString(),
  }),
  settle: (merchantId: number, payinIds: string[], settlementId: string = randomUUID()): LedgerCommand => ({
    type: 'settlement.credit',
    commandId: `settlement.credit:${settlementId}`,
    merchantId,
    issuedAt: new Date().toISOString(),
    logId: randomUUID(),
    settlementId,
    payinIds,
  }),
  debit: (merchantId: number, payoutId: string, amount: bigint, fee: bigint): LedgerCommand => ({
    type: 'payout.debit',
    commandId: `payout.debit:${payoutId}`,
    merchantId,
    issuedAt: new Date().toISOString(),
    logId: randomUUID(),
    payoutId,
    amount: amount.toString(),
    fee: fee.toString(),
  }),
};

/** Messages per publish call: a few hundred kilobytes, under a broker's default request limit. */
const PUBLISH_CHUNK = 500;

/**
 * Publishes commands to ledger.commands keyed by merchant, in order, over one connection (as a
 * service's relay does); resolves once the broker has them all.
 */
export async function publishLedgerCommands(bus: BusConfig, commands: LedgerCommand[]): Promise<void> {
  const transport = createTransport(bus);
  try {
    for (let i = 0; i < commands.length; i += PUBLISH_CHUNK) {
      await transport.publish(
        Topic.LedgerCommands,
        commands.slice(i, i + PUBLISH_CHUNK).map((c) => ({
          key: String(c.merchantId),
          value: JSON.stringify(c),
          headers: { 'message-id': c.commandId, ...(c.logId ? { 'log-id': c.logId } : {}) },
        })),
      );
    }
  } finally {
    await transport.close();
  }
}
