import type {
  AuditEntryView,
  AuditLogPageView,
  ConsoleMerchantView,
  ConsoleMerchantWithBalanceView,
  ConsoleSettlementView,
  ConsoleWebhookDeliveryView,
} from '@pay/contracts/dashboard';
import { formatAmount, type Minor } from '@pay/domain';
import { describeMerchant } from '@pay/backoffice';
import type { AuditPage, MerchantView, Settlement, WebhookDelivery } from '@pay/persistence';

const NO_BALANCE = { available: 0n, pending: 0n };

const iso = (at: Date | null) => at?.toISOString() ?? null;

/**
 * A merchant as the ops API describes it, but Rupiah as numbers, as the merchant dashboard writes
 * every amount (the ops API keeps its decimal strings).
 */
export function consoleMerchant(m: MerchantView): ConsoleMerchantView {
  const d = describeMerchant(m);
  return {
    ...d,
    payinFee: { percentage: d.payinFee.percentage, fixed: formatAmount(m.payinFeeFixed) },
    payoutFee: formatAmount(m.payoutFeeFlat),
  };
}

export function consoleMerchantWithBalance(
  m: MerchantView,
  balance: { available: Minor; pending: Minor } = NO_BALANCE,
): ConsoleMerchantWithBalanceView {
  return {
    ...consoleMerchant(m),
    balance: { available: formatAmount(balance.available), pending: formatAmount(balance.pending) },
  };
}

export function presentSettlement(s: Settlement): ConsoleSettlementView {
  return {
    id: s.id,
    merchantId: s.merchantId,
    amount: formatAmount(s.amount),
    gross: s.gross === null ? null : formatAmount(s.gross),
    fees: s.fees === null ? null : formatAmount(s.fees),
    payinCount: s.payinCount,
    cutoffAt: iso(s.cutoffAt),
    createdAt: s.createdAt.toISOString(),
  };
}

export function presentWebhookDelivery(d: Omit<WebhookDelivery, 'body'>): ConsoleWebhookDeliveryView {
  return {
    id: d.id,
    eventId: d.eventId,
    eventType: d.eventType,
    merchantId: d.merchantId,
    disbursementId: d.disbursementId,
    payinId: d.payinId,
    url: d.url,
    status: d.status,
    attemptCount: d.attemptCount,
    cycleAttempts: d.cycleAttempts,
    resendCount: d.resendCount,
    nextAttemptAt: iso(d.nextAttemptAt),
    leaseUntil: iso(d.leaseUntil),
    lastAttemptAt: iso(d.lastAttemptAt),
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    deliveredAt: iso(d.deliveredAt),
    logId: d.logId,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
  };
}

export function presentAuditPage(page: AuditPage): AuditLogPageView {
  // merchantId is always null here (the console's audit log lists operators' rows only): not sent.
  const entries = page.entries.map(({ merchantId: _merchantId, ...e }): AuditEntryView => ({
    ...e,
    at: e.at.toISOString(),
  }));
  return { entries, nextBefore: page.nextBefore };
}
