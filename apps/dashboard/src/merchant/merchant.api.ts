// The merchant dashboard API (/dashboard/api, decision 0023 "What they answer"): every call, typed by
// the contract the gateway answers with (@pay/contracts/dashboard), and each answer's view for the pages.
import type {
  ActivityEntryView,
  BatchPreviewView,
  BatchRowBody,
  BatchSubmissionView,
  BatchView,
  BatchApprovalDecisionView,
  BatchAwaitingApprovalView,
  PayoutApprovalDecisionBody,
  PayoutApprovalDecisionView,
  PayoutApprovalSettingsView,
  PayoutAwaitingApprovalView,
  ActivityPageView,
  AllowlistBody,
  AllowlistView,
  ApiTokenView,
  CallbackAttemptView,
  CallbackResendView,
  CallbackUrlBody,
  CallbackUrlView,
  CreatePayinBody,
  DevelopersView,
  HistoryPage,
  IssueTokenBody,
  OverviewView,
  PayinDetailView,
  PayinGeneratedView,
  PayinRefundView,
  RefundPayinBody,
  PayinListItemView,
  PayoutDetailView,
  PayoutListItemView,
  RecentDeliveriesView,
  RecentDeliveryView,
  ReconBody,
  ReconFileType,
  ReconJobView,
  TokenIssuedView,
  TokenRevokedView,
  TotpCodeBody,
  TotpSetupView,
  TotpStateView,
  WebhookSecretRotatedView,
  TestCallbackView,
  WebhookSecretView,
} from '@pay/contracts/dashboard';
import type { ApiToken } from '../shared/credentials/tokens.section';
import type { ApiClient } from '../shared/api/api-client';

export interface Overview {
  available: number;
  pending: number;
  todayPayins: { count: number; amount: number };
  todayPayouts: { count: number; amount: number };
  days: { date: string; payins: number; payouts: number }[];
}

export interface Payin {
  merchantTrxId: string;
  platformTrxId: string;
  amount: number;
  fee: number | null;
  netAmount: number | null;
  status: string;
  createdAt: string | null;
  successAt: string | null;
  expiresAt: string | null;
  qrImage: string | null;
  rrn: string | null;
  nmid: string | null;
  /** Every attempt of its callbacks, oldest first (detail only) */
  attempts: CallbackAttempt[];
  /** Its refunds, oldest first, what they paid back and what is left to refund (detail only) */
  refunds: PayinRefundView[];
  refundedAmount: number | null;
  refundableAmount: number | null;
}

export interface CallbackAttempt {
  at: string | null;
  httpStatus: number | null;
  latencyMs: number | null;
  response: string | null;
}

export interface Payout {
  merchantTrxId: string;
  platformTrxId: string;
  accountNo: string;
  accountName: string;
  bankCode: string;
  amount: number;
  fee: number | null;
  totalAmount: number | null;
  status: string;
  createdAt: string | null;
  successAt: string | null;
  /** On failed: why (PayoutFailureCode) and the bank's words */
  failureCode: string | null;
  failureReason: string | null;
  /** On reversed: when (Asia/Jakarta) and why the bank returned it */
  reversedAt: string | null;
  reversalReason: string | null;
  attempts: CallbackAttempt[];
}

export interface ReconJob {
  jobId: string;
  /** stale: built, but a pay-in of that day changed since (export the day again) */
  state: 'running' | 'ready' | 'failed' | 'stale';
  downloadUrl: string | null;
}

export type { ApiToken };

export interface Delivery {
  id: string;
  kind: string;
  reference: string;
  url: string;
  attempts: number;
  lastHttpStatus: number | null;
  status: string;
  createdAt: string | null;
}

export interface Developers {
  tokens: ApiToken[];
  callbackUrl: string | null;
  allowlist: { enabled: boolean; entries: string[] };
  availableScopes: string[];
}

/** One entry of the merchant's activity log: who did what, to what, when. */
export interface ActivityEntry {
  id: string;
  at: string | null;
  user: string;
  action: string;
  target: string;
}

export function toActivity(r: ActivityEntryView): ActivityEntry {
  return { id: r.id, at: r.at, user: r.userEmail, action: r.action, target: r.target };
}

export interface TotpSetup {
  secret: string;
  otpauthUrl: string;
  qrImage: string;
}

export interface ListFilters {
  status?: string;
  from?: string;
  to?: string;
  merchantTrxId?: string;
}

function toPayin(r: PayinListItemView | PayinDetailView): Payin {
  return {
    merchantTrxId: r.merchantTrxId,
    platformTrxId: r.platformTrxId,
    amount: r.amount,
    fee: r.fee.amount,
    netAmount: r.netAmount,
    status: r.status,
    createdAt: r.createdAt,
    successAt: r.success_at,
    expiresAt: 'expiredAt' in r ? r.expiredAt : null,
    qrImage: 'qrImage' in r ? r.qrImage : null,
    rrn: r.additionalInfo.rrn,
    nmid: r.additionalInfo.nmid,
    attempts:
      'callbacks' in r
        ? r.callbacks
            .flatMap((c) => c.attempts)
            .sort((a, b) => a.at.localeCompare(b.at))
            .map(toAttempt)
        : [],
    refunds: 'refunds' in r ? r.refunds : [],
    refundedAmount: 'refundedAmount' in r ? r.refundedAmount : null,
    refundableAmount: 'refundableAmount' in r ? r.refundableAmount : null,
  };
}

/** The generate answer: no creation time, success time or acquirer references yet. */
function toGenerated(r: PayinGeneratedView): Payin {
  return {
    merchantTrxId: r.merchantTrxId,
    platformTrxId: r.platformTrxId,
    amount: r.amount,
    fee: r.fee.amount,
    netAmount: r.netAmount,
    status: r.status,
    createdAt: null,
    successAt: null,
    expiresAt: r.expiredAt,
    qrImage: r.qrImage ?? null,
    rrn: null,
    nmid: null,
    attempts: [],
    refunds: [],
    refundedAmount: null,
    refundableAmount: null,
  };
}

function toAttempt(a: CallbackAttemptView): CallbackAttempt {
  return { at: a.at, httpStatus: a.httpStatus, latencyMs: a.latencyMs, response: a.responseExcerpt ?? a.error };
}

function toPayout(r: PayoutListItemView | PayoutDetailView): Payout {
  // Every attempt of every callback of the payout, oldest first.
  const attempts =
    'callbacks' in r ? r.callbacks.flatMap((c) => c.attempts).sort((a, b) => a.at.localeCompare(b.at)) : [];
  return {
    merchantTrxId: r.merchantTrxId,
    platformTrxId: r.platformTrxId,
    accountNo: r.accountNo,
    accountName: r.accountName,
    bankCode: 'bankCode' in r ? r.bankCode : '',
    amount: r.amount,
    fee: r.fee.amount,
    totalAmount: r.totalAmount,
    status: r.status ?? '',
    createdAt: r.createdAt,
    successAt: r.success_at,
    failureCode: r.failureCode ?? null,
    failureReason: r.failureReason ?? null,
    reversedAt: r.reversed_at ?? null,
    reversalReason: r.reversalReason ?? null,
    attempts: attempts.map(toAttempt),
  };
}

function toReconJob(r: ReconJobView): ReconJob {
  return { jobId: r.jobId, state: r.status === 'queued' ? 'running' : r.status, downloadUrl: r.download ?? null };
}

function toToken(t: ApiTokenView): ApiToken {
  return {
    id: t.id,
    label: t.label,
    prefix: t.prefix,
    createdAt: t.createdAt,
    lastUsedAt: t.lastUsedAt,
    revokedAt: t.revokedAt,
    scopes: t.scopes,
  };
}

export function toDelivery(r: RecentDeliveryView): Delivery {
  return {
    id: r.id,
    kind: r.kind,
    reference: r.merchantTrxId ?? r.eventId,
    url: r.url,
    attempts: r.attemptCount,
    lastHttpStatus: r.lastAttempt?.httpStatus ?? null,
    status: r.status,
    createdAt: r.createdAt,
  };
}

function toOverview(r: OverviewView): Overview {
  return {
    available: r.balance.available,
    pending: r.balance.pending,
    todayPayins: r.today.payins,
    todayPayouts: r.today.payouts,
    days: r.daily.map((d) => ({ date: d.date, payins: d.payinAmount, payouts: d.payoutAmount })),
  };
}

function page<T, V>(p: HistoryPage<T>, map: (item: T) => V): { items: V[]; nextCursor: string | null } {
  return { items: p.items.map(map), nextCursor: p.nextCursor };
}

/** The next day of a YYYY-MM-DD date. */
function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** Form filters -> the list query: days are Asia/Jakarta days, `to` is inclusive here and exclusive there. */
export function listQuery(f: ListFilters): Record<string, string | undefined> {
  return {
    status: f.status || undefined,
    from: f.from ? `${f.from}T00:00:00+07:00` : undefined,
    to: f.to ? `${nextDay(f.to)}T00:00:00+07:00` : undefined,
    merchantTrxId: f.merchantTrxId || undefined,
  };
}

const LIMIT = 25;
const DELIVERIES_LIMIT = 50;
const enc = encodeURIComponent;

export function merchantApi(api: ApiClient) {
  return {
    overview: async () => toOverview(await api.get<OverviewView>('/overview')),

    payins: async (f: ListFilters, cursor: string | null) =>
      page(
        await api.get<HistoryPage<PayinListItemView>>('/payins', { ...listQuery(f), cursor, limit: LIMIT }),
        toPayin,
      ),
    payin: async (id: string) => toPayin(await api.get<PayinDetailView>(`/payins/${enc(id)}`)),
    /** Without merchantTrxId the server makes one (DASH- and 16 hex digits). */
    createPayin: async (body: CreatePayinBody) => toGenerated(await api.post<PayinGeneratedView>('/payins', body)),
    simulatePayin: (id: string) => api.post<PayinDetailView>(`/payins/${enc(id)}/simulate`),
    /** A refund of a paid pay-in (the merchant API's rules); its refundId is made up when none is given */
    refundPayin: (id: string, body: RefundPayinBody) => api.post<PayinRefundView>(`/payins/${enc(id)}/refunds`, body),
    /** Sandbox only: paid pay-ins settled now (pending to available) */
    settleNow: () => api.post<{ payinCount: number; requested: boolean }>('/sandbox/settle'),

    payouts: async (f: ListFilters, cursor: string | null) =>
      page(
        await api.get<HistoryPage<PayoutListItemView>>('/payouts', { ...listQuery(f), cursor, limit: LIMIT }),
        toPayout,
      ),
    payout: async (id: string) => toPayout(await api.get<PayoutDetailView>(`/payouts/${enc(id)}`)),
    /** Every row the filters match, as CSV (a download the browser follows with the session cookie) */
    csvUrl: (list: 'payins' | 'payouts', f: ListFilters) => api.url(`/${list}.csv`, listQuery(f)),
    resendPayoutCallback: (id: string) => api.post<CallbackResendView>(`/payouts/${enc(id)}/callback/resend`),
    resendPayinCallback: (id: string) => api.post<CallbackResendView>(`/payins/${enc(id)}/callback/resend`),

    /** Each row's answer as a submission would give it now; nothing is recorded */
    previewBatch: (rows: BatchRowBody[]) => api.post<BatchPreviewView>('/payouts/batch/preview', { rows }),
    submitBatch: (batchId: string, rows: BatchRowBody[]) =>
      api.post<BatchSubmissionView>('/payouts/batch', { batchId, rows }),
    batch: (batchId: string) => api.get<BatchView>(`/payouts/batch/${enc(batchId)}`),

    /** Payouts held for approval, soonest expiry first */
    awaitingApproval: () => api.get<PayoutAwaitingApprovalView[]>('/approvals/payouts'),
    /** The password (and TOTP code) go with each decision */
    decidePayout: (platformTrxId: string, verb: 'approve' | 'reject', body: PayoutApprovalDecisionBody) =>
      api.post<PayoutApprovalDecisionView>(`/approvals/payouts/${enc(platformTrxId)}/${verb}`, body),
    batchesAwaitingApproval: () => api.get<BatchAwaitingApprovalView[]>('/approvals/batches'),
    /** One decision for every row of the batch */
    decideBatch: (batchId: string, verb: 'approve' | 'reject', body: PayoutApprovalDecisionBody) =>
      api.post<BatchApprovalDecisionView>(`/approvals/batches/${enc(batchId)}/${verb}`, body),
    approvalSettings: () => api.get<PayoutApprovalSettingsView>('/approvals/settings'),
    saveApprovalSettings: (body: PayoutApprovalSettingsView) =>
      api.put<PayoutApprovalSettingsView>('/approvals/settings', body),

    exportRecon: async (date: string, type: ReconFileType) =>
      toReconJob(await api.post<ReconJobView>('/recon', { date, type } satisfies ReconBody)),
    reconJob: async (jobId: string) => toReconJob(await api.get<ReconJobView>(`/recon/${enc(jobId)}`)),

    developers: async (): Promise<Developers> => {
      const r = await api.get<DevelopersView>('/developers');
      return {
        tokens: r.tokens.map(toToken),
        callbackUrl: r.payinCallbackUrl,
        allowlist: r.allowlist,
        availableScopes: r.availableScopes,
      };
    },
    createToken: async (label: string, scopes?: string[]) => {
      const r = await api.post<TokenIssuedView>('/tokens', { label, scopes } satisfies IssueTokenBody);
      return {
        token: {
          id: r.id,
          label: r.label,
          prefix: r.prefix,
          createdAt: null,
          lastUsedAt: null,
          revokedAt: null,
          scopes: r.scopes,
        },
        secret: r.token,
      };
    },
    revokeToken: (id: string) => api.delete<TokenRevokedView>(`/tokens/${enc(id)}`),
    rotateWebhookSecret: () => api.post<WebhookSecretRotatedView>('/webhook-secret/rotate'),
    revealWebhookSecret: () => api.post<WebhookSecretView>('/webhook-secret/reveal'),
    sendTestCallback: () => api.post<TestCallbackView>('/callback-test'),
    resendDelivery: (id: string) => api.post<CallbackResendView>(`/deliveries/${enc(id)}/resend`),
    saveCallbackUrl: (url: string | null) =>
      api.put<CallbackUrlView>('/callback-url', { url } satisfies CallbackUrlBody),
    saveAllowlist: (enabled: boolean, entries: string[]) =>
      api.put<AllowlistView>('/allowlist', { enabled, entries } satisfies AllowlistBody),
    deliveries: async () =>
      (await api.get<RecentDeliveriesView>('/deliveries', { limit: DELIVERIES_LIMIT })).items.map(toDelivery),

    /** Newest first; `before` is the previous page's nextBefore. */
    activity: async (before: string | null) => {
      const r = await api.get<ActivityPageView>('/activity', { before, limit: LIMIT });
      return { items: r.entries.map(toActivity), nextCursor: r.nextBefore };
    },

    totpSetup: async (): Promise<TotpSetup> => {
      const r = await api.post<TotpSetupView>('/totp/setup');
      return { secret: r.secret, otpauthUrl: r.url, qrImage: r.qr };
    },
    totpEnable: (code: string) => api.post<TotpStateView>('/totp/enable', { code } satisfies TotpCodeBody),
    // The step-up's own code may use up this one: after confirming, the user enters a new code (not sent again).
    totpDisable: (code: string) =>
      api.post<TotpStateView>('/totp/disable', { code } satisfies TotpCodeBody, { afterReauth: 'fail' }),
  };
}

export type MerchantApi = ReturnType<typeof merchantApi>;
