import { type LedgerCommand, ledgerCommandId, Topic } from '@pay/contracts';
import { dueSettlementCutoff, settlementId } from '@pay/domain';
import { Prisma, type PrismaClient } from '../client/prisma';
import { enqueueLedgerCommand } from '../outbox/outbox-writer';

/**
 * The commands topic written into the statement, not a parameter: outbox_command_message_id_idx is
 * partial (WHERE topic = 'ledger.commands.v1'), and a plan made for any topic (a generic plan) could
 * not use it: it would read the whole outbox (bench:plans).
 */
const COMMANDS_TOPIC_LITERAL = Prisma.raw(`'${Topic.LedgerCommands}'`);

export interface PlannedSettlement {
  merchantId: number;
  settlementId: string;
  cutoffAt: Date;
  payinCount: number;
  /** false when this cut-off was already settled or already requested: nothing was written */
  requested: boolean;
}

/**
 * The settlement scan's one statement ($1: one merchant, or null for all): each merchant's oldest
 * recorded pay-in not yet settled. Exported for bench:plans, which plans it as sent.
 */
export const SETTLEMENT_SCAN_STATEMENT = `
  SELECT m.id, m.settlement_delay_days AS "delayDays", m.settlement_hour AS hour, p.success_at AS oldest
    FROM merchants m
    CROSS JOIN LATERAL (
      SELECT success_at FROM payins
       WHERE merchant_id = m.id AND status = 'success' AND settlement_id IS NULL AND ledger_event_id IS NOT NULL
       ORDER BY success_at LIMIT 1) p
   WHERE $1::int IS NULL OR m.id = $1::int
   ORDER BY m.id`;

/**
 * Decides which settlements are due and asks the ledger to credit them (a `settlement.credit`
 * command in the outbox). The settlement id is derived from merchant and cut-off, so planning
 * the same cut-off again is the same command and changes nothing.
 */
export class SettlementPlanner {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * Every merchant's settlement due at `now` under its own schedule. One statement first finds,
   * for each merchant, its oldest recorded pay-in not yet settled (a probe of the partial
   * payins_merchant_id_success_at_idx, which holds only unsettled pay-ins); only the merchants
   * whose oldest one is before their cut-off get a planning transaction. A scan of 10,000
   * merchants with nothing due is then one statement, not 10,000 transactions (decision 0019).
   */
  async planDue(now: Date, onlyMerchantId?: number): Promise<PlannedSettlement[]> {
    const merchants = await this.prisma.$queryRawUnsafe<
      { id: number; delayDays: number; hour: number; oldest: Date }[]
    >(SETTLEMENT_SCAN_STATEMENT, onlyMerchantId ?? null);
    const planned: PlannedSettlement[] = [];
    for (const m of merchants) {
      const cutoff = dueSettlementCutoff(now, m.delayDays, m.hour);
      if (m.oldest >= cutoff) continue;
      const p = await this.plan(m.id, cutoff);
      if (p) planned.push(p);
    }
    return planned;
  }

  /** The settlement of one merchant for one cut-off; null when no pay-in is waiting for it. */
  async plan(merchantId: number, cutoffAt: Date): Promise<PlannedSettlement | null> {
    const id = settlementId(merchantId, cutoffAt);
    const commandId = ledgerCommandId.settlementCredit(id);
    return this.prisma.$transaction(async (tx) => {
      // One planner at a time per merchant, so two runs cannot both write the command.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(7, ${merchantId}::int)`;
      const [seen] = await tx.$queryRaw<{ n: bigint }[]>`
        SELECT (SELECT COUNT(*) FROM settlements WHERE id = ${id}::uuid)
             + (SELECT COUNT(*) FROM ledger_commands WHERE command_id = ${commandId})
             + (SELECT COUNT(*) FROM outbox WHERE topic = ${COMMANDS_TOPIC_LITERAL} AND headers->>'message-id' = ${commandId}) AS n`;
      const payins = await tx.$queryRaw<{ id: string }[]>`
        SELECT id::text FROM payins
         WHERE merchant_id = ${merchantId} AND status = 'success' AND settlement_id IS NULL
           AND ledger_event_id IS NOT NULL AND success_at < ${cutoffAt}
           -- a pay-in whose net refunds took all of from pending has nothing to settle
           AND amount - fee > refunded_pending
         ORDER BY success_at, id`;
      if (seen.n > 0n) return { merchantId, settlementId: id, cutoffAt, payinCount: payins.length, requested: false };
      if (payins.length === 0) return null;
      const command: LedgerCommand = {
        type: 'settlement.credit',
        commandId,
        merchantId,
        issuedAt: new Date().toISOString(),
        settlementId: id,
        payinIds: payins.map((p) => p.id),
        cutoffAt: cutoffAt.toISOString(),
      };
      await enqueueLedgerCommand(tx, command);
      return { merchantId, settlementId: id, cutoffAt, payinCount: payins.length, requested: true };
    });
  }

  /** The settlement a plan asked for, once the ledger has credited it (null until then). */
  credited(settlementId: string) {
    return this.prisma.settlement.findUnique({ where: { id: settlementId } });
  }
}
