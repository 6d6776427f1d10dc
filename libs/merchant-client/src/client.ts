import createClient, { type Client } from 'openapi-fetch';
import { MerchantApiError, type FieldError } from './errors';
import type { paths } from './generated/merchant-api';

export interface MerchantClientOptions {
  /** The API's base URL, e.g. https://api.example.co.id (no /api/v1: paths carry it) */
  baseUrl: string;
  /** The merchant's API token (sent in the `token` header) */
  token: string;
  /** Another fetch (a proxy agent, a test double that records): defaults to the global fetch */
  fetch?: (request: Request) => Promise<Response>;
}

/** Every operation of the merchant API, typed from its OpenAPI document (docs/openapi.json). */
export type MerchantClient = Client<paths>;

/**
 * A client for the merchant API: `client.GET('/api/v1/payin/balance')`,
 * `client.POST('/api/v1/disbursement/transfer', { body })`; paths, bodies and answers are
 * typed. Each call resolves to `{ data, error, response }`; `unwrap` turns it into the
 * envelope's `data` or a thrown MerchantApiError.
 */
export function createMerchantClient(options: MerchantClientOptions): MerchantClient {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { token: options.token },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

interface Envelope<D> {
  logId: string;
  message: string;
  data?: D;
}

interface ErrorEnvelope {
  logId?: string;
  message?: string;
  code?: string;
  errors?: FieldError[];
}

/** The envelope's `data` of a successful call; any refusal is thrown as a MerchantApiError. */
export function unwrap<D>(result: { data?: Envelope<D>; error?: unknown; response: Response }): D {
  if (result.response.ok && result.data) return result.data.data as D;
  const body = (result.error ?? {}) as ErrorEnvelope;
  throw new MerchantApiError(
    result.response.status,
    body.code ?? 'UNKNOWN',
    body.message ?? `HTTP ${result.response.status}`,
    body.logId ?? result.response.headers.get('x-log-id') ?? undefined,
    body.errors ?? [],
  );
}
