// The merchant dashboard API (/dashboard/api, decision 0023 "What they answer", as on wt/merchant at
// 880d61c): every call and every answer's mapping lives here, so the pages see stable types.
import type { ApiClient } from '../shared/api/api-client';
import { bool, feeAmount, first, num, obj, optNum, optStr, page, str, type Raw } from '../shared/api/raw';

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
  attempts: CallbackAttempt[];
}

export interface ReconJob {
  jobId: string;
  /** stale: built, but a pay-in of that day changed since (export the day again) */
  state: 'running' | 'ready' | 'failed' | 'stale';
  downloadUrl: string | null;
}

export interface ApiToken {
  id: string;
  label: string;
  prefix: string;
  createdAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

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

function toPayin(r: Raw): Payin {
  const info = obj(r.additionalInfo);
  return {
    merchantTrxId: str(r, 'merchantTrxId'),
    platformTrxId: str(r, 'platformTrxId'),
    amount: num(r, 'amount'),
    fee: feeAmount(r),
    netAmount: optNum(r, 'netAmount'),
    status: str(r, 'status'),
    createdAt: optStr(r, 'createdAt', 'created_at'),
    successAt: optStr(r, 'success_at', 'successAt', 'paidAt'),
    expiresAt: optStr(r, 'expiredAt', 'expiresAt'),
    qrImage: optStr(r, 'qrImage', 'qrImageDataUrl', 'qr'),
    rrn: optStr(info, 'rrn') ?? optStr(r, 'rrn'),
    nmid: optStr(info, 'nmid') ?? optStr(r, 'nmid'),
  };
}

function toAttempt(r: Raw): CallbackAttempt {
  return {
    at: optStr(r, 'attemptedAt', 'startedAt', 'at', 'time', 'createdAt'),
    httpStatus: optNum(r, 'httpStatus', 'statusCode', 'responseStatus'),
    latencyMs: optNum(r, 'latencyMs', 'durationMs', 'latency'),
    response: optStr(r, 'responseExcerpt', 'response', 'responseBody', 'error'),
  };
}

/** Every attempt of every callback delivery of the payout (`callbacks: [{ attempts: [...] }]`), oldest first. */
function callbackAttempts(r: Raw): CallbackAttempt[] {
  const callbacks = first(r, 'callbacks');
  const direct = first(r, 'callbackAttempts', 'attempts');
  const raw = Array.isArray(callbacks) ? callbacks.flatMap((c) => { const a = obj(c).attempts; return Array.isArray(a) ? a : []; }) : Array.isArray(direct) ? direct : [];
  return raw.map((a) => toAttempt(obj(a))).sort((a, b) => (a.at ?? '').localeCompare(b.at ?? ''));
}

function toPayout(r: Raw): Payout {
  return {
    merchantTrxId: str(r, 'merchantTrxId'),
    platformTrxId: str(r, 'platformTrxId'),
    accountNo: str(r, 'accountNo'),
    accountName: str(r, 'accountName'),
    bankCode: str(r, 'bankCode'),
    amount: num(r, 'amount'),
    fee: feeAmount(r),
    totalAmount: optNum(r, 'totalAmount'),
    status: str(r, 'status'),
    createdAt: optStr(r, 'createdAt'),
    successAt: optStr(r, 'success_at', 'successAt'),
    attempts: callbackAttempts(r),
  };
}

function toReconJob(r: Raw, jobId: string): ReconJob {
  const state = str(r, 'state', 'status').toLowerCase();
  const downloadUrl = optStr(r, 'download', 'downloadUrl', 'url');
  return {
    jobId: str(r, 'jobId', 'id') || jobId,
    state: state === 'stale' ? 'stale' : downloadUrl || state === 'ready' ? 'ready' : state === 'failed' ? 'failed' : 'running',
    downloadUrl,
  };
}

function toToken(r: Raw): ApiToken {
  return { id: str(r, 'id', 'tokenId'), label: str(r, 'label', 'name'), prefix: str(r, 'prefix'), createdAt: optStr(r, 'createdAt', 'created'), lastUsedAt: optStr(r, 'lastUsedAt'), revokedAt: optStr(r, 'revokedAt', 'revoked') };
}

export function toDelivery(r: Raw): Delivery {
  const last = obj(r.lastAttempt);
  return {
    id: str(r, 'id', 'deliveryId'),
    kind: str(r, 'kind', 'eventType', 'type', 'event'),
    reference: str(r, 'merchantTrxId', 'reference', 'platformTrxId', 'eventId'),
    url: str(r, 'url', 'callbackUrl', 'notifyUrl'),
    attempts: num(r, 'attemptCount', 'attempts'),
    lastHttpStatus: optNum(last, 'httpStatus', 'statusCode') ?? optNum(r, 'lastHttpStatus', 'lastStatusCode'),
    status: str(r, 'status', 'state'),
    createdAt: optStr(r, 'createdAt', 'lastAttemptAt'),
  };
}

function toOverview(raw: unknown): Overview {
  const r = obj(raw);
  const balance = obj(r.balance);
  const today = obj(r.today);
  const pay = obj(first(today, 'payins') ?? r.todayPayins);
  const out = obj(first(today, 'payouts', 'disbursements') ?? r.todayPayouts);
  const days = first(r, 'days', 'last30Days', 'daily', 'series');
  return {
    available: num(balance, 'available', 'availableBalance') || num(r, 'available', 'availableBalance'),
    pending: num(balance, 'pending', 'pendingBalance') || num(r, 'pending', 'pendingBalance'),
    todayPayins: { count: num(pay, 'count'), amount: num(pay, 'amount') },
    todayPayouts: { count: num(out, 'count'), amount: num(out, 'amount') },
    days: Array.isArray(days)
      ? days.map((d) => {
          const x = obj(d);
          return { date: str(x, 'date', 'day'), payins: num(obj(x.payins), 'amount') || num(x, 'payinAmount', 'payins'), payouts: num(obj(x.payouts), 'amount') || num(x, 'payoutAmount', 'payouts') };
        })
      : [],
  };
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
    overview: async () => toOverview(await api.get('/overview')),

    payins: async (f: ListFilters, cursor: string | null) => page(await api.get('/payins', { ...listQuery(f), cursor, limit: LIMIT }), toPayin),
    payin: async (id: string) => toPayin(obj(await api.get(`/payins/${enc(id)}`))),
    /** Without merchantTrxId the server makes one (DASH- and 16 hex digits). */
    createPayin: async (body: { merchantTrxId?: string; amount: number }) => toPayin(obj(await api.post('/payins', body))),
    simulatePayin: (id: string) => api.post(`/payins/${enc(id)}/simulate`),

    payouts: async (f: ListFilters, cursor: string | null) => page(await api.get('/payouts', { ...listQuery(f), cursor, limit: LIMIT }), toPayout),
    payout: async (id: string) => toPayout(obj(await api.get(`/payouts/${enc(id)}`))),
    resendPayoutCallback: (id: string) => api.post(`/payouts/${enc(id)}/callback/resend`),

    exportRecon: async (date: string) => {
      const r = obj(await api.post('/recon', { date }));
      return toReconJob(r, str(r, 'jobId', 'id'));
    },
    reconJob: async (jobId: string) => toReconJob(obj(await api.get(`/recon/${enc(jobId)}`)), jobId),

    developers: async (): Promise<Developers> => {
      const r = obj(await api.get('/developers'));
      const allow = obj(r.allowlist);
      const entries = first(allow, 'entries', 'cidrs', 'ips');
      const tokens = first(r, 'tokens');
      return {
        tokens: Array.isArray(tokens) ? tokens.map((x) => toToken(obj(x))) : [],
        callbackUrl: optStr(r, 'callbackUrl', 'payinCallbackUrl', 'defaultPayinCallbackUrl'),
        allowlist: { enabled: bool(allow, 'enabled'), entries: Array.isArray(entries) ? entries.map((e) => (typeof e === 'string' ? e : str(obj(e), 'cidr', 'ip', 'entry'))) : [] },
      };
    },
    createToken: async (label: string) => {
      const r = obj(await api.post('/tokens', { label }));
      return { token: toToken(r), secret: str(r, 'token', 'secret', 'value') };
    },
    revokeToken: (id: string) => api.delete(`/tokens/${enc(id)}`),
    rotateWebhookSecret: async () => str(obj(await api.post('/webhook-secret/rotate')), 'secret', 'webhookSecret', 'value'),
    saveCallbackUrl: (url: string | null) => api.put('/callback-url', { url }),
    saveAllowlist: (enabled: boolean, entries: string[]) => api.put('/allowlist', { enabled, entries }),
    deliveries: async () => page(await api.get('/deliveries', { limit: DELIVERIES_LIMIT }), toDelivery).items,

    totpSetup: async (): Promise<TotpSetup> => {
      const r = obj(await api.post('/totp/setup'));
      return { secret: str(r, 'secret'), otpauthUrl: str(r, 'otpauthUrl', 'url', 'uri'), qrImage: str(r, 'qrImage', 'qr', 'qrDataUrl') };
    },
    totpEnable: (code: string) => api.post('/totp/enable', { code }),
    // The step-up's own code may use up this one: after confirming, the user enters a new code (not sent again).
    totpDisable: (code: string) => api.post('/totp/disable', { code }, { afterReauth: 'fail' }),
  };
}

export type MerchantApi = ReturnType<typeof merchantApi>;
