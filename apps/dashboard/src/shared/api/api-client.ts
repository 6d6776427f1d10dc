import { ApiError, type FieldError } from './api-error';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Query = Record<string, string | number | boolean | null | undefined>;

export interface ApiClientOptions {
  /** `/dashboard/api` or `/console/api` */
  baseUrl: string;
  fetch?: typeof fetch;
  /** The session's CSRF token, sent on every state-changing request */
  csrfToken: () => string | null;
  /** Called on 401 SESSION_REQUIRED (expired or revoked session): the app goes to sign-in */
  onSessionRequired: () => void;
  /**
   * Called on 401 REAUTH_REQUIRED (a sensitive action, the password last proved over 10 minutes
   * ago): asks the user to confirm its password; true once confirmed (the call is then sent again,
   * once), false when the user cancelled (the call fails with REAUTH_CANCELLED, nothing changed).
   */
  onReauthRequired?: () => Promise<boolean>;
}

export interface CallOptions {
  /**
   * What to do with a call refused 401 REAUTH_REQUIRED once the password is confirmed: send it
   * again (the default), or not (it fails with REAUTH_CONFIRMED): for a call whose body carries a
   * one-time code that the confirmation itself may have used up (totp/disable).
   */
  afterReauth?: 'retry' | 'fail';
}

export interface ApiClient {
  get<T>(path: string, query?: Query): Promise<T>;
  post<T>(path: string, body?: unknown, options?: CallOptions): Promise<T>;
  put<T>(path: string, body?: unknown, options?: CallOptions): Promise<T>;
  delete<T>(path: string, options?: CallOptions): Promise<T>;
  /** The address of a GET the browser follows itself (a download): the session cookie goes with it */
  url(path: string, query?: Query): string;
}

/** Codes of the client's own making (never the server's): the user cancelled a step-up, or confirmed one for a call not sent again. */
export const REAUTH_CANCELLED = 'REAUTH_CANCELLED';
export const REAUTH_CONFIRMED = 'REAUTH_CONFIRMED';

const UNSAFE: ReadonlySet<Method> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function buildUrl(baseUrl: string, path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {}))
    if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return `${baseUrl}${path}${qs ? `?${qs}` : ''}`;
}

interface Envelope {
  status?: boolean;
  message?: string;
  data?: unknown;
  code?: string;
  errors?: FieldError[];
}

/**
 * fetch for the dashboard and console APIs: same-origin cookies, JSON, the CSRF header on
 * state-changing calls, the platform envelope unwrapped (data on success, ApiError otherwise).
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));

  /**
   * One call; on 401 REAUTH_REQUIRED the user confirms its password (onReauthRequired) and the
   * call goes out once more: a second REAUTH_REQUIRED is the caller's to show, not another prompt.
   */
  async function request<T>(
    method: Method,
    path: string,
    body?: unknown,
    query?: Query,
    callOptions: CallOptions = {},
  ): Promise<T> {
    try {
      return await send<T>(method, path, body, query);
    } catch (e) {
      if (!(e instanceof ApiError) || e.code !== 'REAUTH_REQUIRED' || !options.onReauthRequired) throw e;
      if (!(await options.onReauthRequired())) throw new ApiError(401, REAUTH_CANCELLED, 'Cancelled');
      if (callOptions.afterReauth === 'fail')
        throw new ApiError(401, REAUTH_CONFIRMED, 'Password confirmed; send it again');
      return send<T>(method, path, body, query);
    }
  }

  async function send<T>(method: Method, path: string, body?: unknown, query?: Query): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const csrf = UNSAFE.has(method) ? options.csrfToken() : null;
    if (csrf) headers['X-CSRF-Token'] = csrf;
    let res: Response;
    try {
      res = await doFetch(buildUrl(options.baseUrl, path, query), {
        method,
        credentials: 'same-origin',
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new ApiError(0, 'NETWORK_ERROR', 'The server cannot be reached');
    }
    let envelope: Envelope | null = null;
    try {
      envelope = (await res.json()) as Envelope;
    } catch {
      envelope = null;
    }
    if (res.ok && envelope && envelope.status !== false) return envelope.data as T;
    const code = envelope?.code ?? (res.ok ? 'BAD_RESPONSE' : `HTTP_${res.status}`);
    const retryAfter = Number(res.headers.get('Retry-After'));
    const error = new ApiError(
      res.status,
      code,
      envelope?.message ?? res.statusText,
      Array.isArray(envelope?.errors) ? envelope.errors : [],
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
    );
    if (res.status === 401 && code === 'SESSION_REQUIRED') options.onSessionRequired();
    throw error;
  }

  return {
    get: (path, query) => request('GET', path, undefined, query),
    post: (path, body, callOptions) => request('POST', path, body ?? {}, undefined, callOptions),
    put: (path, body, callOptions) => request('PUT', path, body ?? {}, undefined, callOptions),
    delete: (path, callOptions) => request('DELETE', path, undefined, undefined, callOptions),
    url: (path, query) => buildUrl(options.baseUrl, path, query),
  };
}
