import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OpenAPIBackend, type Document, type Operation } from 'openapi-backend';

/**
 * Checks the answers the test suites get against an OpenAPI document, with openapi-backend:
 * once installed (installContractFetch, the e2e set-up file does it), every fetch to a
 * registered base URL whose path is in the document's scope must be an operation of the
 * document, answer a status the operation declares, and carry a body its schema accepts;
 * anything else fails the test, naming the request, the status and what did not match.
 *
 * One document per base URL: the merchant API (docs/openapi.json) on the gateway's public port,
 * the operations API and the acquirer's notification (docs/ops-openapi.json) on its internal port.
 *
 * Stricter than the document: its object schemas are read as closed (closeSchemas), so a field
 * the code answers and the document does not name fails too; the document cannot drift.
 */

export interface ContractOptions {
  /** The document's file */
  file: string;
  /** Named in failures */
  name: string;
  /** Only requests under this path (or these) are checked (the public port also serves /healthz, /readyz, /docs) */
  scope: string | readonly string[];
  /** Paths under the scope left unchecked (say a third-party UI mounted there) */
  exclude?: readonly string[];
}

function inScope(path: string, { scope, exclude = [] }: ContractOptions): boolean {
  const under = (prefix: string) => path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);
  return (typeof scope === 'string' ? [scope] : scope).some((p) => path.startsWith(p)) && !exclude.some(under);
}

/**
 * The document with every object schema that names its properties and says nothing of others
 * closed (additionalProperties: false), so an answer carrying a field the document does not name
 * fails. Not the inline parts directly inside allOf/anyOf/oneOf: there each part sees the whole
 * object, so a closed part would refuse the fields of the others (the error envelopes are
 * allOf [ErrorResponse, { code narrowed }]); a $ref'd part is closed as the schema it names.
 * For the test check only: the committed documents stay open, as clients may add fields.
 */
export function closeSchemas<T>(node: T, role: 'schema' | 'part' | 'map' = 'schema'): T {
  if (Array.isArray(node)) return node.map((item) => closeSchemas(item, role)) as T;
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    // Examples are values, not schemas; the entries of a `properties` map are schemas, the map itself is not one.
    if (role !== 'map' && (key === 'example' || key === 'examples')) out[key] = value;
    else
      out[key] = closeSchemas(
        value,
        role === 'map'
          ? 'schema'
          : key === 'properties'
            ? 'map'
            : ['allOf', 'anyOf', 'oneOf'].includes(key)
              ? 'part'
              : 'schema',
      );
  }
  if (role === 'schema' && out.properties && typeof out.properties === 'object' && !('additionalProperties' in out))
    out.additionalProperties = false;
  return out as T;
}

/** The merchant API, as committed in the repository at root (npm run openapi:export). */
export function merchantContract(root: string): ContractOptions {
  return { file: join(root, 'docs', 'openapi.json'), name: 'merchant API (docs/openapi.json)', scope: '/api/' };
}

/**
 * The gateway's internal port (docs/ops-openapi.json): /ops/ and /internal/. Bull Board under
 * /ops/queues (HTML pages and their own JSON, basic auth) is not ours to describe, and /metrics,
 * /healthz, /readyz are not in the scope.
 */
export function opsContract(root: string): ContractOptions {
  return {
    file: join(root, 'docs', 'ops-openapi.json'),
    name: 'operations API (docs/ops-openapi.json)',
    scope: ['/ops/', '/internal/'],
    exclude: ['/ops/queues'],
  };
}

interface Contract extends ContractOptions {
  api: Promise<OpenAPIBackend>;
}

const contracts = new Map<string, Contract>();
const documents = new Map<string, Promise<OpenAPIBackend>>();
const violations: string[] = [];
const originalFetch: typeof fetch = globalThis.fetch.bind(globalThis);

/** fetch without the contract check: for tests that send what the document leaves out on purpose (an unknown route, HEAD, a 405). */
export const uncheckedFetch: typeof fetch = originalFetch;

/** The formats the documents use: a uuid is checked, the others only named (no ajv-formats dependency). */
const FORMATS = {
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  uri: true,
  'date-time': true,
} as const;

function load(file: string): Promise<OpenAPIBackend> {
  let api = documents.get(file);
  if (!api) {
    const definition = closeSchemas(JSON.parse(readFileSync(file, 'utf8')) as Document);
    const backend = new OpenAPIBackend({
      definition,
      quick: true,
      validate: true,
      ajvOpts: { strict: false, formats: FORMATS },
    });
    api = backend.init();
    documents.set(file, api);
  }
  return api;
}

/** Checks answers from baseUrl (an origin, e.g. http://127.0.0.1:3000) against the document; returns the undo. */
export function registerContract(baseUrl: string, options: ContractOptions): () => void {
  const base = new URL(baseUrl).origin;
  contracts.set(base, { ...options, api: load(options.file) });
  return () => void contracts.delete(base);
}

/** The contract violations since the last call (the set-up file fails the test on any). */
export function takeContractViolations(): string[] {
  return violations.splice(0);
}

/** Replaces globalThis.fetch with the checking one (idempotent). */
export function installContractFetch(): void {
  if (globalThis.fetch === checkedFetch) return;
  globalThis.fetch = checkedFetch;
}

function requestOf(input: string | URL | Request, init?: RequestInit): { url: URL; method: string; headers: Headers } {
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
  return { url, method, headers };
}

async function checkedFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const response = await originalFetch(input, init);
  const request = requestOf(input, init);
  const contract = contracts.get(request.url.origin);
  if (!contract || !inScope(request.url.pathname, contract)) return response;
  const problem = await check(await contract.api, request, response);
  if (problem) {
    const message = `Contract violation (${contract.name}): ${request.method} ${request.url.pathname} answered ${response.status}: ${problem}`;
    violations.push(message);
    throw new Error(message);
  }
  return response;
}

async function check(
  api: OpenAPIBackend,
  request: { url: URL; method: string; headers: Headers },
  response: Response,
): Promise<string | undefined> {
  const operation: Operation | undefined = api.router.matchOperation({
    method: request.method,
    path: request.url.pathname,
    headers: Object.fromEntries(request.headers.entries()),
    query: Object.fromEntries(request.url.searchParams.entries()),
  });
  if (!operation)
    return 'no such operation in the document (use uncheckedFetch to probe an undocumented route on purpose)';
  const declared = operation.responses?.[String(response.status)];
  if (!declared)
    return `status ${response.status} is not declared for ${operation.operationId} (declared: ${Object.keys(operation.responses ?? {}).join(', ')})`;
  const text = await response.clone().text();
  if (!('content' in declared) || !declared.content?.['application/json'])
    return text ? `a body where ${operation.operationId} declares none` : undefined;
  if (!/^application\/json\b/.test(response.headers.get('content-type') ?? ''))
    return `content-type ${response.headers.get('content-type')}, not application/json`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `a body that is not JSON: ${text.slice(0, 200)}`;
  }
  const result = api.validateResponse(body, operation, response.status);
  if (result.valid) return undefined;
  const errors = (result.errors ?? []).map(
    (e) => `${e.instancePath || '/'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
  );
  return `the body does not match ${operation.operationId}'s ${response.status} schema: ${errors.join('; ')}\nbody: ${text.slice(0, 1000)}`;
}
