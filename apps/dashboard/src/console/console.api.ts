// The operator console API (/console/api, decision 0023): every call, typed by the contract the
// gateway answers with (@pay/contracts/dashboard), and each answer's view for the pages. Merchants are
// the ops API's describeMerchant plus a balance; the lists are arrays with a limit (no cursor), except
// the audit log (`before` / `nextBefore`).
import type {
  AllowlistBody,
  ApiTokenView,
  AuditEntryView,
  CallbackUrlBody,
  ConsoleTokenIssuedView,
  ConsoleTokenRevokedView,
  ConsoleWebhookSecretView,
  AuditLogPageView,
  ConsoleDeadLetterView,
  ConsoleMerchantView,
  ConsoleMerchantWithBalanceView,
  ConsoleSettlementView,
  ConsoleWebhookDeliveryView,
  CreateMerchantBody,
  CreateMerchantUserBody,
  FeesBody,
  MerchantCreatedView,
  MerchantUserCreatedView,
  MerchantRoleName,
  QrisIdentityBody,
  RateLimitsBody,
  SettlementRunView,
  SettlementScheduleBody,
  WebhookResentView,
  DisbursementReversalView,
  AdjustmentDecisionBody,
  AdjustmentRequestBody,
  AdjustmentView,
  ReconBreakView,
  ReconDayReportView,
  ReconRunBody,
  ReconRunView,
  ReconSourceBody,
  ReconSourceView,
} from '@pay/contracts/dashboard';
import type { ApiClient } from '../shared/api/api-client';
import type { ApiToken } from '../shared/credentials/tokens.section';

export interface Merchant {
  id: string;
  name: string;
  active: boolean;
  available: number | null;
  pending: number | null;
  payinFeePercent: number | null;
  payinFeeFixed: number | null;
  payoutFee: number | null;
  qris: { nmid: string; mcc: string; criteria: string; city: string; postalCode: string };
  settlement: string;
  delayDays: number | null;
  hour: number | null;
  callbackUrl: string | null;
  allowlist: { enabled: boolean; entries: string[] };
  /** The merchant's own limits; null: the gateway's default */
  rateLimits: RateLimits;
}

export interface RateLimits {
  read: number | null;
  write: number | null;
  export: number | null;
}

export interface MerchantCreated {
  id: string;
  name: string;
  token: string;
  webhookSecret: string;
}

export interface Settlement {
  id: string;
  merchant: string;
  /** Net: what was credited */
  amount: number | null;
  gross: number | null;
  fees: number | null;
  payinCount: number | null;
  cutoffAt: string | null;
  createdAt: string | null;
}

export interface DeadLetter {
  id: string;
  topic: string;
  error: string;
  status: string;
  deadLetteredAt: string | null;
  replayedAt: string | null;
}

export interface WebhookDelivery {
  id: string;
  merchant: string;
  kind: string;
  reference: string;
  url: string;
  attempts: number;
  lastHttpStatus: number | null;
  status: string;
  createdAt: string | null;
}

/** The dead letters list's filters: a status (open by default) and an exact topic (empty: any) */
export interface DeadLetterFilters {
  status: 'open' | 'replayed' | 'resolved' | 'all';
  topic: string;
}

export interface AuditEntry {
  id: string;
  at: string | null;
  /** Who acted: an operator's email, or the ops API or the CLI (`actor`) */
  operator: string;
  actor: { kind: 'operator' } | { kind: 'ops-api' } | { kind: 'cli'; where: string };
  action: string;
  target: string;
  /** The input, without the changes */
  details: string;
  /** Old and new of every field the change moved (settings changes) */
  changes: { field: string; from: string; to: string }[];
  logId: string;
}

export interface Fees {
  payinFeePercent: number;
  payinFeeFixed: number;
  payoutFee: number;
}

export interface QrisIdentity {
  nmid: string;
  mcc: string;
  merchantCriteria: string;
  city: string;
  postalCode: string;
}

function toMerchant(r: ConsoleMerchantWithBalanceView): Merchant {
  const schedule = parseSchedule(r.settlement);
  return {
    id: String(r.id),
    name: r.name,
    active: r.active,
    available: r.balance.available,
    pending: r.balance.pending,
    payinFeePercent: r.payinFee.percentage,
    payinFeeFixed: r.payinFee.fixed,
    payoutFee: r.payoutFee,
    qris: {
      nmid: r.qris.nmid,
      mcc: r.qris.mcc,
      criteria: r.qris.criteria,
      city: r.qris.city,
      postalCode: r.qris.postalCode ?? '',
    },
    settlement: r.settlement,
    delayDays: schedule.delayDays,
    hour: schedule.hour,
    callbackUrl: r.payinCallbackUrl,
    allowlist: { enabled: r.ipAllowlist.enabled, entries: r.ipAllowlist.entries },
    rateLimits: {
      read: ownLimit(r.rateLimits.readPerSecond),
      write: ownLimit(r.rateLimits.writePerSecond),
      export: ownLimit(r.rateLimits.exportsPerMinute),
    },
  };
}

const ownLimit = (v: number | 'default') => (v === 'default' ? null : v);

/** "T+1 at 08:00 Asia/Jakarta" (describeMerchant's text) -> delay and hour. */
export function parseSchedule(text: string): { delayDays: number | null; hour: number | null } {
  const m = /^T\+(\d+) at (\d{1,2}):00/.exec(text);
  return m ? { delayDays: Number(m[1]), hour: Number(m[2]) } : { delayDays: null, hour: null };
}

function toSettlement(r: ConsoleSettlementView): Settlement {
  return {
    id: r.id,
    merchant: String(r.merchantId),
    amount: r.amount,
    gross: r.gross,
    fees: r.fees,
    payinCount: r.payinCount,
    cutoffAt: r.cutoffAt,
    createdAt: r.createdAt,
  };
}

function toDeadLetter(r: ConsoleDeadLetterView): DeadLetter {
  return {
    id: r.id,
    topic: r.topic,
    error: r.error,
    status: r.status,
    deadLetteredAt: r.deadLetteredAt,
    replayedAt: r.replayedAt,
  };
}

function toDelivery(r: ConsoleWebhookDeliveryView): WebhookDelivery {
  return {
    id: r.id,
    merchant: String(r.merchantId),
    kind: r.eventType,
    reference: r.eventId,
    url: r.url,
    attempts: r.attemptCount,
    lastHttpStatus: r.lastStatusCode,
    status: r.status,
    createdAt: r.createdAt,
  };
}

function toAudit(r: AuditEntryView): AuditEntry {
  const { changes, ...input } = r.details as { changes?: Record<string, { from: unknown; to: unknown }> };
  const shown = (v: unknown) => (v === null || v === undefined ? '—' : typeof v === 'string' ? v : JSON.stringify(v));
  return {
    id: r.id,
    at: r.at,
    operator: r.operatorEmail,
    actor:
      r.actor === null
        ? { kind: 'operator' }
        : r.actor === 'ops-api'
          ? { kind: 'ops-api' }
          : { kind: 'cli', where: r.actor.replace(/^cli:/, '') },
    action: r.action,
    target: r.target,
    details: Object.keys(input).length ? JSON.stringify(input) : '',
    changes: Object.entries(changes ?? {}).map(([field, c]) => ({ field, from: shown(c.from), to: shown(c.to) })),
    logId: r.logId ?? '',
  };
}

/** An array answer as one page of useCursorList: these lists have a limit, no cursor. */
export function onePage<T, V>(rows: T[], map: (row: T) => V): { items: V[]; nextCursor: string | null } {
  return { items: rows.map(map), nextCursor: null };
}

const enc = encodeURIComponent;
const LIMIT = 100;

export function consoleApi(api: ApiClient) {
  const merchant = async (id: string) =>
    toMerchant(await api.get<ConsoleMerchantWithBalanceView>(`/merchants/${enc(id)}`));
  return {
    // Lists without a cursor: `_cursor` is always null (useCursorList's first page).
    merchants: async (_cursor: string | null) =>
      onePage(await api.get<ConsoleMerchantWithBalanceView[]>('/merchants'), toMerchant),
    merchant,
    createMerchant: async (name: string): Promise<MerchantCreated> => {
      const r = await api.post<MerchantCreatedView>('/merchants', { name } satisfies CreateMerchantBody);
      return { id: String(r.merchantId), name: r.name, token: r.token, webhookSecret: r.webhookSecret };
    },
    setActive: (id: string, active: boolean) =>
      api.post<ConsoleMerchantView>(`/merchants/${enc(id)}/${active ? 'activate' : 'deactivate'}`),
    saveFees: (id: string, fees: Fees) =>
      api.put<ConsoleMerchantView>(`/merchants/${enc(id)}/fees`, fees satisfies FeesBody),
    saveQris: (id: string, qris: QrisIdentity) =>
      api.put<ConsoleMerchantView>(`/merchants/${enc(id)}/qris-identity`, qris satisfies QrisIdentityBody),
    saveSchedule: (id: string, schedule: { delayDays: number; hour: number }) =>
      api.put<ConsoleMerchantView>(
        `/merchants/${enc(id)}/settlement-schedule`,
        schedule satisfies SettlementScheduleBody,
      ),
    tokens: async (id: string): Promise<ApiToken[]> => api.get<ApiTokenView[]>(`/merchants/${enc(id)}/tokens`),
    /** `scopes`: left out, every scope */
    issueToken: async (id: string, label: string, scopes?: string[]) => {
      const r = await api.post<ConsoleTokenIssuedView>(`/merchants/${enc(id)}/tokens`, { label, scopes });
      return { id: r.id, secret: r.token };
    },
    revokeToken: (tokenId: string) => api.delete<ConsoleTokenRevokedView>(`/tokens/${enc(tokenId)}`),
    webhookSecret: (id: string) => api.get<ConsoleWebhookSecretView>(`/merchants/${enc(id)}/webhook-secret`),
    rotateWebhookSecret: (id: string) =>
      api.post<ConsoleWebhookSecretView>(`/merchants/${enc(id)}/webhook-secret/rotate`, { graceHours: 24 }),
    saveAllowlist: (id: string, enabled: boolean, entries: string[]) =>
      api.put<ConsoleMerchantView>(`/merchants/${enc(id)}/allowlist`, { enabled, entries } satisfies AllowlistBody),
    saveCallbackUrl: (id: string, url: string | null) =>
      api.put<ConsoleMerchantView>(`/merchants/${enc(id)}/payin-callback-url`, { url } satisfies CallbackUrlBody),
    saveRateLimits: (id: string, limits: RateLimits) =>
      api.put<ConsoleMerchantView>(`/merchants/${enc(id)}/rate-limits`, limits satisfies RateLimitsBody),
    settleNow: (id: string) => api.post<SettlementRunView>('/settlements/run', { merchantId: Number(id) }),
    inviteUser: async (id: string, email: string, merchantRole: MerchantRoleName = 'owner') =>
      (
        await api.post<MerchantUserCreatedView>(`/merchants/${enc(id)}/users`, {
          email,
          merchantRole,
        } satisfies CreateMerchantUserBody)
      ).setPasswordUrl,

    settlements: async (_cursor: string | null) =>
      onePage(await api.get<ConsoleSettlementView[]>('/settlements', { limit: LIMIT }), toSettlement),
    deadLetters: async (filters: DeadLetterFilters = { status: 'open', topic: '' }) =>
      onePage(
        await api.get<ConsoleDeadLetterView[]>('/dead-letters', {
          limit: LIMIT,
          status: filters.status,
          topic: filters.topic.trim() || undefined,
        }),
        toDeadLetter,
      ),
    replayDeadLetter: (id: string) => api.post<ConsoleDeadLetterView>(`/dead-letters/${enc(id)}/replay`),
    deliveries: async (_cursor: string | null) =>
      onePage(await api.get<ConsoleWebhookDeliveryView[]>('/webhook-deliveries', { limit: LIMIT }), toDelivery),
    resendDelivery: (id: string) => api.post<WebhookResentView>(`/webhook-deliveries/${enc(id)}/resend`),
    reverseDisbursement: (id: string, reason: string) =>
      api.post<DisbursementReversalView>(`/disbursements/${enc(id.trim())}/reverse`, { reason }),
    adjustments: async (status: AdjustmentView['status'] | 'all') =>
      onePage(
        await api.get<AdjustmentView[]>('/adjustments', {
          limit: LIMIT,
          status: status === 'all' ? undefined : status,
        }),
        (a) => a,
      ),
    requestAdjustment: (body: AdjustmentRequestBody) => api.post<AdjustmentView>('/adjustments', body),
    approveAdjustment: (id: string, note: string) =>
      api.post<AdjustmentView>(`/adjustments/${enc(id)}/approve`, {
        note: note.trim() || undefined,
      } satisfies AdjustmentDecisionBody),
    rejectAdjustment: (id: string, note: string) =>
      api.post<AdjustmentView>(`/adjustments/${enc(id)}/reject`, { note } satisfies AdjustmentDecisionBody),
    reconRuns: async (filter: { from: string; to: string; openOnly: boolean }) =>
      onePage(
        await api.get<ReconRunView[]>('/recon/runs', {
          limit: LIMIT,
          from: filter.from || undefined,
          to: filter.to || undefined,
          open: filter.openOnly ? 'true' : undefined,
        }),
        (r) => r,
      ),
    reconReport: (runId: string) => api.get<ReconDayReportView>(`/recon/runs/${enc(runId)}`),
    runRecon: (day: { date: string; acquirer?: string; rail?: string }) =>
      api.post<ReconDayReportView>('/recon/runs', day satisfies ReconRunBody),
    /** A CSV file's text as its lines (no string of the API holds a line break) */
    uploadRecon: (day: { date: string; acquirer: string }, kind: ReconSourceBody['kind'], text: string) =>
      api.post<ReconSourceView>('/recon/sources', {
        ...day,
        kind,
        lines: text.split(/\r?\n/).filter((line, i, all) => line !== '' || i < all.length - 1),
      } satisfies ReconSourceBody),
    assignReconBreak: (id: string, owner: string) =>
      api.post<ReconBreakView>(`/recon/breaks/${enc(id)}/assign`, { owner: owner.trim() }),
    resolveReconBreak: (id: string, note: string) =>
      api.post<ReconBreakView>(`/recon/breaks/${enc(id)}/resolve`, { note: note.trim() }),
    auditLog: async (before: string | null) => {
      const r = await api.get<AuditLogPageView>('/audit-log', { before, limit: LIMIT });
      return { items: r.entries.map(toAudit), nextCursor: r.nextBefore };
    },
  };
}

export type ConsoleApi = ReturnType<typeof consoleApi>;
