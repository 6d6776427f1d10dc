/**
 * The one place that decides what a failure means (STYLE 13). Consumers, relays, pollers and
 * the HTTP filter all ask `classifyFault`:
 *
 * - `transient`: the dependency (PostgreSQL, Redis, the broker, S3) is away, busy or lost a
 *   race. The same work will succeed later: retry with capped backoff for as long as it takes,
 *   answer 503 + Retry-After, never dead-letter.
 * - `permanent`: the input can never succeed (unparseable, fails validation, unknown contract
 *   version). Dead-letter at once; answer 4xx.
 * - `unknown`: anything else (most likely a bug). Retried a bounded number of times, then
 *   dead-lettered loudly, where an operator can replay it once the bug is fixed.
 *
 * Errors are recognised by shape (codes, names, flags), never by importing the drivers, so this
 * stays free of I/O packages. The `cause` chain is walked: Prisma's driver adapter, kafkajs and
 * the AWS SDK wrap the driver's error.
 */
export type FaultKind = 'transient' | 'permanent' | 'unknown';

/** Thrown (or flagged with `transient: true`) by our own code when a retry will help. */
export class TransientError extends Error {
  readonly transient = true;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TransientError';
  }
}

/** Thrown (or flagged with `permanent: true`) for input that can never be processed. */
export class PermanentError extends Error {
  readonly permanent = true;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PermanentError';
  }
}

/** Node socket and DNS errors: the peer is down, restarting or unreachable. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ESOCKETTIMEDOUT',
  'ERR_SOCKET_CLOSED',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * PostgreSQL SQLSTATEs that a retry can clear: connection exceptions (08), serialization
 * failure and deadlock, lock and statement timeouts, shutdown and start-up, a read-only
 * server during failover, and exhausted resources.
 */
const PG_TRANSIENT_STATES = new Set([
  '40001',
  '40P01',
  '55P03',
  '57014',
  '57P01',
  '57P02',
  '57P03',
  '57P05',
  '25006',
  '58030',
]);
const PG_TRANSIENT_CLASSES = ['08', '53'];

/**
 * Prisma's codes for an unreachable server, timeouts, a closed connection, an exhausted pool
 * and a write conflict; and its driver adapter's error kinds for the same.
 */
const PRISMA_TRANSIENT_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1011', 'P1017', 'P2024', 'P2034']);
const ADAPTER_TRANSIENT_KINDS = new Set([
  'DatabaseNotReachable',
  'DatabaseDoesNotExist',
  'ConnectionClosed',
  'SocketTimeout',
  'TransactionWriteConflict',
  'TooManyConnections',
  'TlsConnectionError',
  'ConnectionPoolTimeout',
]);

/** Driver messages without a code (node-postgres, ioredis, BullMQ). */
const TRANSIENT_MESSAGES = [
  /connection terminated/i,
  /terminating connection/i,
  /timeout exceeded when trying to connect/i,
  /connection (?:is )?closed/i,
  /client has encountered a connection error/i,
  /the database system is (?:starting up|shutting down|in recovery mode)/i,
  /server closed the connection unexpectedly/i,
  /reached the max retries per request limit/i,
  /stream isn't writeable/i,
  /^(?:LOADING|READONLY|TRYAGAIN|CLUSTERDOWN|MASTERDOWN)\b/,
  // Redis refusing writes until an operator or time frees it: at maxmemory (noeviction), a script running too long, a failing snapshot.
  /^(?:OOM|BUSY|MISCONF)\b/,
  /\bNOREPLICAS\b/,
  /socket hang up/i,
  /command timed out/i,
];

const PERMANENT_NAMES = new Set(['SyntaxError', 'InvalidMessageError', 'PermanentError']);

interface ErrorShape {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  kind?: unknown;
  transient?: unknown;
  permanent?: unknown;
  retriable?: unknown;
  $retryable?: unknown;
  $metadata?: { httpStatusCode?: unknown };
  cause?: unknown;
  originalCode?: unknown;
  meta?: { code?: unknown; driverAdapterError?: unknown };
}

function shapeKind(err: ErrorShape): FaultKind | null {
  if (err.permanent === true) return 'permanent';
  if (err.transient === true) return 'transient';
  if (typeof err.name === 'string' && PERMANENT_NAMES.has(err.name)) return 'permanent';
  // kafkajs marks what a retry can fix; the AWS SDK marks throttling and 5xx.
  if (err.retriable === true || (err.$retryable !== undefined && err.$retryable !== null)) return 'transient';
  if (typeof err.$metadata?.httpStatusCode === 'number' && err.$metadata.httpStatusCode >= 500) return 'transient';
  if (
    typeof err.name === 'string' &&
    /^(?:TimeoutError|KafkaJSConnectionError|KafkaJSRequestTimeoutError|KafkaJSConnectionClosedError|AbortError)$/.test(
      err.name,
    )
  ) {
    return 'transient';
  }
  for (const code of [err.code, err.originalCode, err.meta?.code]) {
    if (typeof code !== 'string') continue;
    if (NETWORK_CODES.has(code) || PRISMA_TRANSIENT_CODES.has(code) || PG_TRANSIENT_STATES.has(code))
      return 'transient';
    if (/^[0-9A-Z]{5}$/.test(code) && PG_TRANSIENT_CLASSES.includes(code.slice(0, 2))) return 'transient';
  }
  if (typeof err.kind === 'string') {
    if (ADAPTER_TRANSIENT_KINDS.has(err.kind)) return 'transient';
    // Prisma's adapter carries the server's SQLSTATE as `code` beside kind 'postgres'.
  }
  if (typeof err.message === 'string' && TRANSIENT_MESSAGES.some((re) => re.test(err.message as string)))
    return 'transient';
  return null;
}

/** Walks the error and what it wraps (causes, AggregateError's errors, Prisma's adapter error); the first decisive answer wins. */
function firstAnswer<T>(error: unknown, answer: (err: ErrorShape) => T | null): T | null {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const current = queue.shift();
    if (current === null || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const found = answer(current as ErrorShape);
    if (found !== null) return found;
    queue.push(...related(current as ErrorShape));
    if (current instanceof AggregateError) queue.push(...current.errors);
  }
  return null;
}

export function classifyFault(error: unknown): FaultKind {
  return firstAnswer(error, shapeKind) ?? 'unknown';
}

/** The errors an error wraps: its `cause`, and Prisma's driver adapter error (P2010 carries it in `meta`). */
function related(err: ErrorShape): unknown[] {
  return [err.cause, err.meta?.driverAdapterError];
}

/** SQLSTATEs of a refused login or a database that does not exist. */
const PG_MISCONFIGURED_STATES = new Set(['28000', '28P01', '3D000']);
const ADAPTER_MISCONFIGURED_KINDS = new Set(['AuthenticationFailed', 'DatabaseAccessDenied', 'DatabaseDoesNotExist']);
/** Prisma: authentication failed, database does not exist, access denied. */
const PRISMA_MISCONFIGURED_CODES = new Set(['P1000', 'P1003', 'P1010']);
const MISCONFIGURED_MESSAGES = [/^(?:WRONGPASS|NOAUTH|NOPERM)\b/, /invalid url/i, /password authentication failed/i];

/**
 * True when the error says the settings are wrong (the login is refused, the database does not
 * exist, the URL is malformed): waiting will not fix it. Start-up gives up at once on these,
 * with a clear message, instead of waiting for the dependency as it does for an outage. (At run
 * time the same errors stay whatever classifyFault says: a rotated password is an outage to
 * the requests in flight, never a reason to dead-letter money.)
 */
export function isMisconfiguration(error: unknown): boolean {
  return firstAnswer(error, misconfigured) ?? false;
}

function misconfigured(err: ErrorShape): true | null {
  for (const code of [err.code, err.originalCode, err.meta?.code]) {
    if (
      typeof code === 'string' &&
      (PG_MISCONFIGURED_STATES.has(code) || PRISMA_MISCONFIGURED_CODES.has(code) || code === 'ERR_INVALID_URL')
    )
      return true;
  }
  if (typeof err.kind === 'string' && ADAPTER_MISCONFIGURED_KINDS.has(err.kind)) return true;
  if (typeof err.message === 'string' && MISCONFIGURED_MESSAGES.some((re) => re.test(err.message as string)))
    return true;
  return null;
}

/** A unique key already taken: Prisma's P2002, or PostgreSQL's 23505 (raw SQL, plain pg). */
const CONFLICT_CODES = new Set(['P2002', '23505']);
/** Text PostgreSQL cannot store: an invalid byte sequence (NUL included, 22021) or a character the encoding lacks (22P05). */
const INVALID_TEXT_STATES = new Set(['22021', '22P05']);

/**
 * What a database refusal says about the request that caused it: `conflict` (a unique key is
 * taken) or `invalid_text`; null for anything else. The HTTP filter's safety net: handlers map
 * the refusals they expect to precise codes, and whatever they miss is still the client's
 * 409 or 400, not a 500.
 */
export function databaseInputRefusal(error: unknown): 'conflict' | 'invalid_text' | null {
  return firstAnswer(error, (err) => {
    for (const code of [err.code, err.originalCode, err.meta?.code]) {
      if (typeof code !== 'string') continue;
      if (CONFLICT_CODES.has(code)) return 'conflict';
      if (INVALID_TEXT_STATES.has(code)) return 'invalid_text';
    }
    return null;
  });
}

export const isTransientFault = (error: unknown): boolean => classifyFault(error) === 'transient';
export const isPermanentFault = (error: unknown): boolean => classifyFault(error) === 'permanent';
