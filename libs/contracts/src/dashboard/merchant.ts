// The merchant dashboard API (`/dashboard/api`, decision 0023 "What they answer"): the `data` of its
// answers and its request bodies. Amounts are Rupiah as numbers, as the merchant API writes them;
// `…At` fields are ISO 8601 UTC; `success_at`, `failed_at`, `expiredAt` are Asia/Jakarta
// `YYYY-MM-DD HH:MM:SS`, as in the merchant API.

/** A history page (opaque cursor). */
export interface HistoryPage<T> {
  items: T[];
  nextCursor: string | null;
  hasMore: boolean;
}

/** The merchant API's fee object: what was charged, and the rule. */
export interface FeeView {
  amount: number;
  percentage: number;
  fixed: number;
}

export type PayinStatus = 'pending' | 'success' | 'failed' | 'expired';
export type PayoutStatus = 'awaiting_approval' | 'pending' | 'success' | 'failed' | 'reversed';

// ---- overview

export interface DayTotalsView {
  /** YYYY-MM-DD, an Asia/Jakarta day */
  date: string;
  payinAmount: number;
  payinCount: number;
  payoutAmount: number;
  payoutCount: number;
}

/** `GET /overview` */
export interface OverviewView {
  balance: { available: number; pending: number };
  today: {
    date: string;
    timeZone: 'Asia/Jakarta';
    payins: { count: number; amount: number };
    payouts: { count: number; amount: number };
  };
  /** 30 days, oldest first, today last */
  daily: DayTotalsView[];
}

// ---- callbacks

export interface CallbackAttemptView {
  attemptNo: number;
  at: string;
  httpStatus: number | null;
  latencyMs: number | null;
  /** The first 300 characters of the response body */
  responseExcerpt: string | null;
  error: string | null;
  outcome: string;
}

export interface CallbackDeliveryFields {
  id: string;
  eventId: string;
  eventType: string;
  url: string;
  status: string;
  attemptCount: number;
  resendCount: number;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  createdAt: string;
}

/** A callback of one transaction, with every attempt, oldest first. */
export interface CallbackDeliveryView extends CallbackDeliveryFields {
  attempts: CallbackAttemptView[];
}

/** A row of `GET /deliveries` */
export interface RecentDeliveryView extends CallbackDeliveryFields {
  kind: 'payout' | 'payin' | 'test';
  merchantTrxId: string | null;
  lastAttempt: CallbackAttemptView | null;
}

/** `GET /deliveries?limit` */
export interface RecentDeliveriesView {
  items: RecentDeliveryView[];
}

// ---- pay-ins

/** A row of `GET /payins` (the API's `GET /api/v1/payin/list` item) */
export interface PayinListItemView {
  idMerchant: number;
  merchantName: string;
  merchantTrxId: string;
  platformTrxId: string;
  amount: number;
  fee: FeeView;
  netAmount: number;
  status: PayinStatus;
  success_at: string | null;
  additionalInfo: { rrn: string | null; nmid: string | null };
  createdAt: string;
}

/** `GET /payins/:merchantTrxId`, `POST /payins/:merchantTrxId/simulate` */
export interface PayinDetailView extends PayinListItemView {
  /** The QRIS payload */
  qrString: string | null;
  /** PNG data URL while the code is pending and unexpired, else null */
  qrImage: string | null;
  expiredAt: string | null;
  issuer: string | null;
  failureReason: string | null;
  notifyUrl: string | null;
  callbacks: CallbackDeliveryView[];
  /** Its refunds, oldest first, as GET /api/v1/payin/refund/{refundId} shows each (issue 44) */
  refunds: PayinRefundView[];
  /** What successful refunds paid back, Rupiah */
  refundedAmount: number;
  /** What may still be refunded (0 unless success), Rupiah */
  refundableAmount: number;
}

/** A refund of a pay-in (issue 44) */
export interface PayinRefundView {
  refundId: string;
  merchantTrxId: string;
  platformTrxId: string;
  amount: number;
  reason: string | null;
  status: 'pending' | 'success' | 'failed';
  refundNo: string | null;
  refundTime: string | null;
  createdAt: string;
  completedAt: string | null;
  failureReason?: string | null;
}

/** `POST /payins/:merchantTrxId/refunds`: without a refundId, one is made up (DASH-RF-...) */
export interface RefundPayinBody {
  refundId?: string;
  amount: number;
  reason?: string;
}

/** `POST /payins`: the API's generate answer, with the image */
export interface PayinGeneratedView {
  merchantTrxId: string;
  platformTrxId: string;
  amount: number;
  fee: FeeView;
  netAmount: number;
  status: PayinStatus;
  qrisPayload: string | null;
  expiredAt: string | null;
  qrImage?: string;
}

export interface CreatePayinBody {
  /** Without it the server makes one: DASH- and 16 hex digits */
  merchantTrxId?: string;
  amount: number;
}

export interface SimulatePayinBody {
  status?: 'success' | 'failed';
}

// ---- payouts

/** A row of `GET /payouts` (the API's `GET /api/v1/disbursement/list` item) */
export interface PayoutListItemView {
  idMerchant: number;
  merchantName: string;
  merchantTrxId: string;
  platformTrxId: string;
  accountNo: string;
  accountName: string;
  amount: number;
  fee: FeeView;
  totalAmount: number;
  status: PayoutStatus | null;
  success_at: string | null;
  createdAt: string;
  /** On failed only (PayoutFailureCode; null for payouts that failed before codes existed) */
  failureCode?: string | null;
  failureReason?: string | null;
  /** On reversed only (returned by the beneficiary's bank; amount and fee given back): when, Asia/Jakarta, and why */
  reversed_at?: string | null;
  reversalReason?: string | null;
}

/** `GET /payouts/:merchantTrxId` */
export interface PayoutDetailView extends PayoutListItemView {
  bankCode: string;
  notifyUrl: string;
  failureReason: string | null;
  failed_at: string | null;
  callbacks: CallbackDeliveryView[];
}

/** `POST /payouts/:merchantTrxId/callback/resend` */
export interface CallbackResendView {
  deliveryId: string;
  eventId: string;
  status: string;
}

// ---- recon

export type ReconJobStatus = 'queued' | 'running' | 'ready' | 'failed' | 'stale';

/** The day files: pay-ins (the recon CSV), payouts, balance movements */
export type ReconFileType = 'payins' | 'payouts' | 'movements';

/** `POST /recon` (queued or ready) and `GET /recon/:jobId`; `stale`: a row of that day changed since */
export interface ReconJobView {
  jobId: string;
  date: string;
  type: ReconFileType;
  status: ReconJobStatus;
  /** Only when ready */
  download?: string;
}

export interface ReconBody {
  /** YYYY-MM-DD */
  date: string;
  /** Absent: payins */
  type?: ReconFileType;
}

// ---- developers

export interface ApiTokenView {
  id: string;
  label: string;
  /** The token's first characters (only its hash is stored) */
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** What the token may do (@pay/domain API_SCOPES; docs/access.md) */
  scopes: string[];
}

export interface AllowlistView {
  enabled: boolean;
  entries: string[];
}

/** `GET /developers` */
export interface DevelopersView {
  tokens: ApiTokenView[];
  payinCallbackUrl: string | null;
  allowlist: AllowlistView;
  /** Every scope a token may be issued with (docs/access.md), for the scope chooser */
  availableScopes: string[];
}

export interface IssueTokenBody {
  label?: string;
  /** Left out: every scope */
  scopes?: string[];
}

/** `POST /tokens`: the token is shown only here */
export interface TokenIssuedView {
  id: string;
  label: string;
  prefix: string;
  token: string;
  scopes: string[];
}

/** `DELETE /tokens/:id` */
export interface TokenRevokedView {
  id: string;
  revokedAt: string;
}

export interface RotateWebhookSecretBody {
  graceHours?: number;
}

/** `POST /webhook-secret/rotate`: the new secret (shown again only by POST /webhook-secret/reveal) */
/** `POST /callback-test`: a signed `callback.test` event queued to the merchant's callback URL */
export interface TestCallbackView {
  deliveryId: string;
  eventId: string;
  url: string;
}

/** `POST /webhook-secret/reveal` (a password proved within 10 minutes) */
export interface WebhookSecretView {
  secret: string;
  /** A rotation's previous secret also signs until then (null: none) */
  previousExpiresAt: string | null;
}

export interface WebhookSecretRotatedView {
  secret: string;
  previousExpiresAt: string | null;
}

/** `PUT /callback-url`; null clears it */
export interface CallbackUrlBody {
  url: string | null;
}

export interface CallbackUrlView {
  payinCallbackUrl: string | null;
}

/** `PUT /allowlist`, answered with the normalised list (AllowlistView) */
export interface AllowlistBody {
  enabled?: boolean;
  entries: string[];
}

/**
 * One entry of the merchant's activity log: a change made by one of its dashboard users, or a
 * sign-in, a refused sign-in or a sign-out. Actions: `token.create`, `token.revoke`,
 * `webhook-secret.rotate`, `callback-url.set`, `allowlist.set`, `totp.setup`, `totp.enable`,
 * `totp.disable`, `payin.create`, `payin.simulate`, `payout.callback-resend`, `recon.export`,
 * `session.sign-in`, `session.sign-in-failed`, `session.sign-out`.
 */
export interface ActivityEntryView {
  id: string;
  /** The merchant's dashboard user (an entry of the merchant's activity always has one) */
  userId: number | null;
  /** The acting user's email */
  userEmail: string;
  action: string;
  /** `<kind>:<id>` (`token:12`, `payin:INV-1`, `user:3`) or a setting (`allowlist`, `callback-url`, `webhook-secret`) */
  target: string;
  /** The request's input without any password, secret, token or code; `{ reason }` for a refused sign-in */
  details: Record<string, unknown>;
  logId: string | null;
  at: string;
}

/** `GET /activity?before&limit` (limit 1 to 200, default 50), newest first */
export interface ActivityPageView {
  entries: ActivityEntryView[];
  /** Pass as `before` for the next (older) page; null on the last page */
  nextBefore: string | null;
}
