import { MerchantRepository, type PlannedSettlement, type PrismaClient, SettlementPlanner } from '@pay/persistence';
import { invalidInput } from '../merchants/merchant-input';

/** A settlement run's outcome for one merchant: what was planned and, once the ledger has credited it, what. */
export interface SettlementRun extends PlannedSettlement {
  credited: { payins: number; gross: string; fees: string; net: string } | null;
}

/**
 * Operators asking for settlements now (ops API, console, CLI) rather than at the schedule's
 * hour: the SettlementPlanner writes the ledger's settlement.credit command, and the ledger
 * credits it asynchronously. Planning a cut-off again changes nothing (the id is derived).
 */
export class SettlementRequests {
  private readonly planner: SettlementPlanner;
  private readonly merchants: MerchantRepository;

  constructor(prisma: PrismaClient) {
    this.planner = new SettlementPlanner(prisma);
    this.merchants = new MerchantRepository(prisma);
  }

  /** The merchant's settlement for a cut-off (default now, never in the future); `planned` null: nothing to settle. */
  async request(
    merchantId: number,
    cutoffAt: Date | undefined,
    now = new Date(),
  ): Promise<{ cutoffAt: Date; planned: PlannedSettlement | null }> {
    const cutoff = cutoffAt ?? now;
    if (cutoff.getTime() > now.getTime()) throw invalidInput('cutoff', 'cutoff must not be in the future');
    return { cutoffAt: cutoff, planned: await this.planner.plan(merchantId, cutoff) };
  }

  /**
   * The settlements due now under each merchant's schedule, or (with `cutoff`) those of a cut-off,
   * for one merchant or all; then waits up to `waitSeconds` for the ledger to credit each.
   */
  async run(options: { merchantId?: number; cutoff?: Date; waitSeconds: number }): Promise<SettlementRun[]> {
    let planned: PlannedSettlement[];
    if (options.cutoff) {
      const merchants = options.merchantId ? [options.merchantId] : (await this.merchants.list()).map((m) => m.id);
      planned = [];
      for (const merchantId of merchants) {
        const p = await this.planner.plan(merchantId, options.cutoff);
        if (p) planned.push(p);
      }
    } else {
      planned = await this.planner.planDue(new Date(), options.merchantId);
    }
    const deadline = Date.now() + options.waitSeconds * 1000;
    const results: SettlementRun[] = [];
    for (const p of planned) {
      let row = await this.planner.credited(p.settlementId);
      while (!row && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        row = await this.planner.credited(p.settlementId);
      }
      results.push({
        ...p,
        credited: row
          ? { payins: row.payinCount, gross: String(row.gross), fees: String(row.fees), net: String(row.amount) }
          : null,
      });
    }
    return results;
  }
}
