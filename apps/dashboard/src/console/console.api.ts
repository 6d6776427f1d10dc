// The operator console API (/console/api, decision 0023, as on wt/console at 9d7a041): every call and
// every answer's mapping lives here. Merchants are the ops API's describeMerchant plus a balance; the
// lists are arrays with a limit (no cursor), except the audit log (`before` / `nextBefore`).
import type { ApiClient } from '../shared/api/api-client';
import { bool, first, num, obj, optNum, optStr, page, str, type Raw } from '../shared/api/raw';

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

export interface AuditEntry {
  id: string;
  at: string | null;
  operator: string;
  action: string;
  target: string;
  details: string;
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

function toMerchant(r: Raw): Merchant {
  const balance = obj(r.balance);
  const payinFee = obj(r.payinFee);
  const qris = obj(r.qris);
  const schedule = obj(first(r, 'settlementSchedule', 'schedule'));
  const settlement = first(r, 'settlement');
  return {
    id: str(r, 'id', 'merchantId'),
    name: str(r, 'name'),
    active: bool(r, 'active', 'isActive'),
    available: optNum(balance, 'available') ?? optNum(r, 'available', 'availableBalance'),
    pending: optNum(balance, 'pending') ?? optNum(r, 'pending', 'pendingBalance'),
    payinFeePercent: optNum(payinFee, 'percentage') ?? optNum(r, 'payinFeePercent'),
    payinFeeFixed: optNum(payinFee, 'fixed') ?? optNum(r, 'payinFeeFixed'),
    payoutFee: optNum(r, 'payoutFee'),
    qris: { nmid: str(qris, 'nmid'), mcc: str(qris, 'mcc'), criteria: str(qris, 'criteria', 'merchantCriteria'), city: str(qris, 'city'), postalCode: str(qris, 'postalCode') },
    settlement: typeof settlement === 'string' ? settlement : '',
    delayDays: optNum(schedule, 'delayDays') ?? optNum(r, 'settlementDelayDays'),
    hour: optNum(schedule, 'hour') ?? optNum(r, 'settlementHour'),
    callbackUrl: optStr(r, 'payinCallbackUrl', 'callbackUrl'),
  };
}

/** "T+1 at 08:00 Asia/Jakarta" (describeMerchant's text) -> delay and hour, when the API gives no numbers. */
export function parseSchedule(text: string): { delayDays: number | null; hour: number | null } {
  const m = /^T\+(\d+) at (\d{1,2}):00/.exec(text);
  return m ? { delayDays: Number(m[1]), hour: Number(m[2]) } : { delayDays: null, hour: null };
}

function toSettlement(r: Raw): Settlement {
  return {
    id: str(r, 'id', 'settlementId'),
    merchant: str(r, 'merchantName', 'merchant', 'merchantId'),
    amount: optNum(r, 'amount', 'netAmount'),
    gross: optNum(r, 'gross'),
    fees: optNum(r, 'fees'),
    payinCount: optNum(r, 'payinCount', 'count'),
    cutoffAt: optStr(r, 'cutoffAt'),
    createdAt: optStr(r, 'createdAt'),
  };
}

function toDeadLetter(r: Raw): DeadLetter {
  return {
    id: str(r, 'id'),
    topic: str(r, 'topic', 'dlqTopic'),
    error: str(r, 'error', 'reason'),
    status: str(r, 'status'),
    deadLetteredAt: optStr(r, 'deadLetteredAt', 'archivedAt', 'createdAt'),
    replayedAt: optStr(r, 'replayedAt'),
  };
}

function toDelivery(r: Raw): WebhookDelivery {
  return {
    id: str(r, 'id'),
    merchant: str(r, 'merchantName', 'merchantId'),
    kind: str(r, 'eventType', 'kind', 'type'),
    reference: str(r, 'merchantTrxId', 'eventId', 'reference'),
    url: str(r, 'url'),
    attempts: num(r, 'attemptCount', 'attempts'),
    lastHttpStatus: optNum(r, 'lastStatusCode', 'lastHttpStatus', 'statusCode'),
    status: str(r, 'status'),
    createdAt: optStr(r, 'createdAt', 'lastAttemptAt'),
  };
}

function toAudit(r: Raw): AuditEntry {
  const details = first(r, 'details');
  const operator = obj(r.operator);
  return {
    id: str(r, 'id'),
    at: optStr(r, 'createdAt', 'at', 'time'),
    operator: str(r, 'operatorEmail', 'email') || str(operator, 'email') || str(r, 'operatorUserId', 'operatorId'),
    action: str(r, 'action'),
    target: str(r, 'target'),
    details: details === undefined ? '' : typeof details === 'string' ? details : JSON.stringify(details),
    logId: str(r, 'logId'),
  };
}

const enc = encodeURIComponent;
const LIMIT = 100;

export function consoleApi(api: ApiClient) {
  const merchant = async (id: string) => toMerchant(obj(await api.get(`/merchants/${enc(id)}`)));
  return {
    // Lists without a cursor: `_cursor` is always null (useCursorList's first page).
    merchants: async (_cursor: string | null) => page(await api.get('/merchants'), toMerchant),
    merchant,
    createMerchant: async (name: string): Promise<MerchantCreated> => {
      const r = obj(await api.post('/merchants', { name }));
      return { id: str(r, 'merchantId', 'id'), name: str(r, 'name'), token: str(r, 'token'), webhookSecret: str(r, 'webhookSecret', 'secret') };
    },
    setActive: (id: string, active: boolean) => api.post(`/merchants/${enc(id)}/${active ? 'activate' : 'deactivate'}`),
    saveFees: (id: string, fees: Fees) => api.put(`/merchants/${enc(id)}/fees`, fees),
    saveQris: (id: string, qris: QrisIdentity) => api.put(`/merchants/${enc(id)}/qris-identity`, qris),
    saveSchedule: (id: string, schedule: { delayDays: number; hour: number }) => api.put(`/merchants/${enc(id)}/settlement-schedule`, schedule),
    inviteUser: async (id: string, email: string) => {
      const r = obj(await api.post(`/merchants/${enc(id)}/users`, { email }));
      return str(r, 'setPasswordUrl', 'link', 'url', 'setPasswordLink');
    },

    settlements: async (_cursor: string | null) => page(await api.get('/settlements', { limit: LIMIT }), toSettlement),
    deadLetters: async (_cursor: string | null) => page(await api.get('/dead-letters', { limit: LIMIT }), toDeadLetter),
    replayDeadLetter: (id: string) => api.post(`/dead-letters/${enc(id)}/replay`),
    deliveries: async (_cursor: string | null) => page(await api.get('/webhook-deliveries', { limit: LIMIT }), toDelivery),
    resendDelivery: (id: string) => api.post(`/webhook-deliveries/${enc(id)}/resend`),
    auditLog: async (before: string | null) => {
      const r = obj(await api.get('/audit-log', { before, limit: LIMIT }));
      const entries = first(r, 'entries', 'items');
      return { items: Array.isArray(entries) ? entries.map((e) => toAudit(obj(e))) : [], nextCursor: optStr(r, 'nextBefore', 'nextCursor') };
    },
  };
}

export type ConsoleApi = ReturnType<typeof consoleApi>;
