import { formatAmount } from '@pay/domain';
import type { BalanceMovement, Disbursement, Payin } from '@pay/persistence';
import { presentDisbursement } from './disbursement.presenter';
import { presentPayin } from './payin.presenter';
import { encodeCursor, type ListKind } from '@pay/persistence';

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
  hasMore: boolean;
}

/**
 * `rows` were read with limit + 1: the extra row only tells that there is more. The cursor is
 * the position of the last row shown, so the next page starts right after it.
 */
export function toPage<R, T>(
  kind: ListKind,
  rows: R[],
  limit: number,
  position: (r: R) => { createdAt: Date; id: string },
  present: (r: R) => T,
): Page<T> {
  const shown = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  const last = shown[shown.length - 1];
  return {
    items: shown.map(present),
    nextCursor: hasMore && last ? encodeCursor(kind, position(last)) : null,
    hasMore,
  };
}

/** One ledger event as the merchant sees it: signed changes and the balance it left, in Rupiah like every amount of the API. */
export function presentMovement(m: BalanceMovement) {
  return {
    id: m.id.toString(),
    type: m.type,
    availableChange: formatAmount(m.availableDelta),
    pendingChange: formatAmount(m.pendingDelta),
    availableAfter: formatAmount(m.availableAfter),
    pendingAfter: formatAmount(m.pendingAfter),
    merchantTrxId: m.merchantTrxId,
    platformTrxId: m.platformTrxId,
    settlementId: m.type === 'settlement.credited' ? m.reference : null,
    createdAt: m.occurredAt.toISOString(),
  };
}

/** The inquiry's fields (spec 2.7), and when the pay-in was created. */
export function presentPayinItem(p: Payin, merchant: { id: number; name: string }, now: Date) {
  return { ...presentPayin(p, merchant, now), createdAt: p.createdAt.toISOString() };
}

/** The inquiry's fields (spec 2.4), and when the disbursement was created. */
export function presentDisbursementItem(d: Disbursement, merchant: { id: number; name: string }) {
  return { ...presentDisbursement(d, merchant), createdAt: d.createdAt.toISOString() };
}
