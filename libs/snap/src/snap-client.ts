import { type ClientRequest, type IncomingMessage, Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { type CodeClass, classify, parseResponseCode, type ResponseCode } from './response-codes';
import { SERVICES, type ServiceName } from './services';
import { asymmetricSignature, symmetricSignature, tokenSignature } from './signatures';
import { ExternalIds, snapTimestamp } from './timestamps';

export interface SnapClientOptions {
  /** The provider's name, for metrics and logs */
  provider: string;
  /** Scheme, host and the provider's path prefix (`https://bank.example/snap`); the prefix is signed */
  baseUrl: string;
  clientId: string;
  /** X-PARTNER-ID; defaults to the client id */
  partnerId?: string;
  /** HMAC key of the symmetric mode (required there) */
  clientSecret?: string;
  /** Our RSA private key (PEM): the token request, and transactions in the asymmetric mode */
  privateKeyPem: string;
  channelId: string;
  origin?: string;
  /** symmetric (default): token + HMAC-SHA512; asymmetric: RSA, no token (fixed at onboarding) */
  signatureMode?: 'symmetric' | 'asymmetric';
  /** Digits of X-EXTERNAL-ID (default 32) */
  externalIdLength?: number;
  /** Giving up on a connection that is not made (nothing sent: safe to retry); default 3 s */
  connectTimeoutMs?: number;
  /** Giving up on an answer after the request was sent (outcome unknown); default 15 s */
  responseTimeoutMs?: number;
  clock?: () => Date;
  /** Awaited before each request leaves: persist the attempt (its X-EXTERNAL-ID) first */
  onAttempt?: (attempt: SnapAttempt) => Promise<void> | void;
  /** Every call's outcome, for metrics */
  onCall?: (record: SnapCallRecord) => void;
}

export interface SnapAttempt {
  service: ServiceName;
  externalId: string;
  timestamp: string;
  /** The exact bytes sent */
  body: Buffer;
}

export interface SnapCallRecord {
  provider: string;
  service: ServiceName;
  durationMs: number;
  responseCode: string | null;
  outcome: SnapResult['kind'];
}

interface Sent {
  externalId: string;
  timestamp: string;
}

/**
 * What a call came to. Only `answer` is an answer; `unknown` means the provider may have acted
 * (a timeout or a reset after sending, a 5xx, an answer we cannot read or trust): ask its status,
 * never treat it as failed. `not_sent` means nothing reached the provider: safe to retry.
 */
export type SnapResult =
  | (Sent & {
      kind: 'answer';
      httpStatus: number;
      code: ResponseCode;
      class: CodeClass;
      body: Record<string, unknown>;
    })
  | (Sent & {
      kind: 'unknown';
      reason: 'timeout' | 'reset' | 'server_error' | 'unparseable' | 'status_mismatch';
      httpStatus?: number;
      code?: ResponseCode;
      detail: string;
    })
  | { kind: 'not_sent'; reason: string; externalId?: string };

/** The provider answered the token request with a 4xx: our client id, key or clock is wrong. */
class TokenRefused extends Error {}

interface RawAnswer {
  status: number;
  text: string;
}

type Transport =
  | { ok: true; answer: RawAnswer }
  | { ok: false; sent: boolean; reason: 'timeout' | 'reset' | 'refused'; detail: string };

/**
 * A SNAP client for one provider: B2B token, signatures, headers, and the reading of answers
 * (reference §1, §2, §3, §5). The body is serialised once; those bytes are signed and sent.
 */
export class SnapClient {
  readonly provider: string;
  private readonly prefix: string;
  private readonly externalIds: ExternalIds;
  private readonly clock: () => Date;
  private readonly agent: HttpAgent;
  private token: { value: string; refreshAt: number } | null = null;
  private tokenInFlight: Promise<string> | null = null;
  /** The provider refused our credentials (token request refused, or 401xx00): a key, secret or clock problem */
  private authFailure: string | null = null;

  constructor(private readonly options: SnapClientOptions) {
    const url = new URL(options.baseUrl);
    if ((options.signatureMode ?? 'symmetric') === 'symmetric' && !options.clientSecret)
      throw new Error('the symmetric signature mode needs the client secret');
    this.provider = options.provider;
    this.prefix = url.pathname.replace(/\/+$/, '');
    this.clock = options.clock ?? (() => new Date());
    this.externalIds = new ExternalIds(options.externalIdLength ?? 32, this.clock);
    this.agent =
      url.protocol === 'https:'
        ? new HttpsAgent({ keepAlive: true, maxSockets: 64, minVersion: 'TLSv1.2' })
        : new HttpAgent({ keepAlive: true, maxSockets: 64 });
  }

  get partnerId(): string {
    return this.options.partnerId ?? this.options.clientId;
  }

  /** The path a service is signed and sent at, prefix included. */
  pathOf(service: ServiceName): string {
    return `${this.prefix}${SERVICES[service].path}`;
  }

  /**
   * Calls a service. On 401xx01/401xx03 (token expired or unknown) the token is refreshed once
   * and the request sent again with a new X-EXTERNAL-ID; 401xx00 is returned as it is (a key,
   * secret, signature or clock problem that no retry fixes).
   */
  async call(service: ServiceName, body: object): Promise<SnapResult> {
    let result = await this.callOnce(service, body, false);
    if (result.kind === 'answer' && result.class.kind === 'auth_token' && this.mode === 'symmetric') {
      this.token = null;
      result = await this.callOnce(service, body, true);
    }
    if (result.kind === 'answer')
      this.authFailure =
        result.class.kind === 'auth_fatal'
          ? `${result.code.code} ${String(result.body.responseMessage ?? '')}`.trim()
          : null;
    return result;
  }

  /**
   * Whether the provider accepts our credentials, for a readiness probe: null when it does, or when
   * it cannot be reached (an outage is not a configuration problem); else the provider's refusal.
   * Fetches a token only when none is cached.
   */
  async credentialsProblem(): Promise<string | null> {
    if (this.mode === 'symmetric') {
      try {
        await this.accessToken();
      } catch (err) {
        if (err instanceof TokenRefused) return err.message;
        return null;
      }
    }
    return this.authFailure;
  }

  close(): void {
    this.agent.destroy();
  }

  private get mode(): 'symmetric' | 'asymmetric' {
    return this.options.signatureMode ?? 'symmetric';
  }

  private async callOnce(service: ServiceName, body: object, retry: boolean): Promise<SnapResult> {
    const started = performance.now();
    let token: string | null = null;
    if (this.mode === 'symmetric') {
      try {
        token = await this.accessToken();
      } catch (err) {
        const result: SnapResult = { kind: 'not_sent', reason: `access token: ${(err as Error).message}` };
        this.record(service, started, result);
        return result;
      }
    }
    const bytes = Buffer.from(JSON.stringify(body), 'utf8');
    const path = this.pathOf(service);
    const timestamp = snapTimestamp(this.clock());
    const externalId = this.externalIds.next();
    const toSign = { method: 'POST', path, body: bytes, timestamp };
    const signature =
      token !== null
        ? symmetricSignature(toSign, token, this.options.clientSecret ?? '')
        : asymmetricSignature(toSign, this.options.privateKeyPem);
    await this.options.onAttempt?.({ service, externalId, timestamp, body: bytes });
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'X-TIMESTAMP': timestamp,
      'X-SIGNATURE': signature,
      'X-PARTNER-ID': this.partnerId,
      'X-EXTERNAL-ID': externalId,
      'CHANNEL-ID': this.options.channelId,
      ...(token !== null ? { Authorization: `Bearer ${token}` } : {}),
      ...(this.options.origin ? { ORIGIN: this.options.origin } : {}),
    };
    const result = this.read(await this.send(path, headers, bytes), { externalId, timestamp });
    this.record(service, started, result, retry);
    return result;
  }

  private record(service: ServiceName, started: number, result: SnapResult, _retry = false): void {
    this.options.onCall?.({
      provider: this.provider,
      service,
      durationMs: performance.now() - started,
      responseCode:
        result.kind === 'answer' ? result.code.code : result.kind === 'unknown' ? (result.code?.code ?? null) : null,
      outcome: result.kind,
    });
  }

  /** §5: a transport failure after sending, a 5xx, an unreadable or inconsistent answer is unknown. */
  private read(t: Transport, sent: Sent): SnapResult {
    if (!t.ok) {
      if (!t.sent) return { kind: 'not_sent', reason: `${t.reason}: ${t.detail}`, externalId: sent.externalId };
      return { kind: 'unknown', reason: t.reason === 'timeout' ? 'timeout' : 'reset', detail: t.detail, ...sent };
    }
    const { status, text } = t.answer;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const code = parseResponseCode((body as { responseCode?: unknown } | undefined)?.responseCode);
    if (status >= 500)
      return {
        kind: 'unknown',
        reason: 'server_error',
        httpStatus: status,
        code: code ?? undefined,
        detail: `HTTP ${status}`,
        ...sent,
      };
    if (!code || typeof body !== 'object' || body === null)
      return { kind: 'unknown', reason: 'unparseable', httpStatus: status, detail: text.slice(0, 200), ...sent };
    if (code.http !== status)
      return {
        kind: 'unknown',
        reason: 'status_mismatch',
        httpStatus: status,
        code,
        detail: `HTTP ${status} with responseCode ${code.code}`,
        ...sent,
      };
    return {
      kind: 'answer',
      httpStatus: status,
      code,
      class: classify(code),
      body: body as Record<string, unknown>,
      ...sent,
    };
  }

  /** The cached token, refreshed a minute before it expires, with one refresh in flight at a time. */
  private async accessToken(): Promise<string> {
    const now = this.clock().getTime();
    if (this.token && now < this.token.refreshAt) return this.token.value;
    this.tokenInFlight ??= this.fetchToken().finally(() => {
      this.tokenInFlight = null;
    });
    return this.tokenInFlight;
  }

  private async fetchToken(): Promise<string> {
    const timestamp = snapTimestamp(this.clock());
    const bytes = Buffer.from(JSON.stringify({ grantType: 'client_credentials', additionalInfo: {} }), 'utf8');
    const t = await this.send(
      this.pathOf('accessToken'),
      {
        'Content-Type': 'application/json',
        'X-TIMESTAMP': timestamp,
        'X-CLIENT-KEY': this.options.clientId,
        'X-SIGNATURE': tokenSignature(this.options.privateKeyPem, this.options.clientId, timestamp),
      },
      bytes,
    );
    if (!t.ok) throw new Error(`${t.reason}: ${t.detail}`);
    let body: { responseCode?: unknown; accessToken?: unknown; expiresIn?: unknown; responseMessage?: unknown };
    try {
      body = JSON.parse(t.answer.text);
    } catch {
      throw new Error(`unparseable answer (HTTP ${t.answer.status})`);
    }
    const code = parseResponseCode(body.responseCode);
    if (code && code.http >= 400 && code.http < 500 && t.answer.status === code.http)
      throw new TokenRefused(
        `the provider refused our token request: ${code.code} ${String(body.responseMessage ?? '')} (check the client id, our private key and this host's clock)`,
      );
    if (!code || code.http !== 200 || t.answer.status !== 200 || typeof body.accessToken !== 'string')
      throw new Error(`no token: ${String(body.responseCode)} ${String(body.responseMessage ?? '')}`.trim());
    this.authFailure = null;
    const expiresIn = Number(body.expiresIn ?? 900);
    const lifetimeMs = (Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : 900) * 1000;
    // Refresh a minute early (or at half-life for a token shorter than two minutes).
    const margin = Math.min(60_000, lifetimeMs / 2);
    this.token = { value: body.accessToken, refreshAt: this.clock().getTime() + lifetimeMs - margin };
    return body.accessToken;
  }

  /**
   * One HTTP POST. Tells a failure before anything was sent (refused, no connection in time) from
   * one after (a reset, no answer in time): only the first is safe to treat as not received.
   */
  private send(path: string, headers: Record<string, string>, bytes: Buffer): Promise<Transport> {
    const url = new URL(this.options.baseUrl);
    const connectMs = this.options.connectTimeoutMs ?? 3_000;
    const responseMs = this.options.responseTimeoutMs ?? 15_000;
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<Transport>((resolve) => {
      let sent = false;
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const done = (t: Transport) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(t);
      };
      const req: ClientRequest = request(
        {
          protocol: url.protocol,
          hostname: url.hostname,
          port: url.port,
          path,
          method: 'POST',
          agent: this.agent,
          headers: { ...headers, 'Content-Length': String(bytes.length) },
        },
        (res: IncomingMessage) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            done({ ok: true, answer: { status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') } }),
          );
          res.on('error', (err) => done({ ok: false, sent: true, reason: 'reset', detail: err.message }));
        },
      );
      const giveUp = (reason: 'timeout', detail: string) => {
        done({ ok: false, sent, reason, detail });
        req.destroy();
      };
      req.on('socket', (socket) => {
        const connected = () => {
          sent = true;
          clearTimeout(timer);
          timer = setTimeout(() => giveUp('timeout', `no answer within ${responseMs} ms`), responseMs);
        };
        // A reused keep-alive socket is already connected.
        if (!socket.connecting) connected();
        else {
          timer = setTimeout(() => giveUp('timeout', `no connection within ${connectMs} ms`), connectMs);
          socket.once('connect', connected);
        }
      });
      req.on('error', (err: NodeJS.ErrnoException) =>
        done({ ok: false, sent, reason: sent ? 'reset' : 'refused', detail: err.code ?? err.message }),
      );
      req.end(bytes);
    });
  }
}
