/** What the patches below rely on in kafkajs's (untyped, internal) RequestQueue. */
interface RequestQueueInternals {
  pending: unknown[];
  inflight: Map<number, { sentAt: number; requestTimeout: number; timeoutRequest(): void }>;
  throttledUntil: number;
  requestTimeout: number;
  enforceRequestTimeout: boolean;
  requestTimeoutIntervalId?: NodeJS.Timeout;
  isConnected(): boolean;
  destroy(): void;
  scheduleCheckPendingRequests(): void;
  scheduleRequestTimeoutCheck(): void;
}

/** The kafkajs these patches were written against (its latest release); another must be reviewed first. */
const KAFKAJS_VERSION = '2.2.4';

/** How often a connection looks for requests past their timeout: kafkajs's 100 ms, or a tenth of the timeout, up to 1 s. */
export function requestTimeoutCheckMs(requestTimeoutMs: number): number {
  return Math.min(requestTimeoutMs, Math.max(100, Math.min(1_000, Math.floor(requestTimeoutMs / 10))));
}

const PATCHED = Symbol.for('pay.bus.kafkajs.quietRequestQueue');

type RequestQueuePrototype = RequestQueueInternals & { [PATCHED]?: true };

/**
 * Stops kafkajs's idle connections from waking their process a thousand times a second.
 *
 * In kafkajs 2.2.4 (its latest release), once a connection has had one answer, its RequestQueue
 * re-arms a timer for ever: with nothing pending and no throttle, scheduleCheckPendingRequests
 * sets a timeout of `throttledUntil - Date.now()` = `-1 - Date.now()` ms. Node runs that after 1 ms
 * (on Node 24 with a TimeoutNegativeWarning), the check finds nothing and schedules itself again.
 * Reported upstream (tulios/kafkajs#1704, #1751; fixes #1755 and #1768 unmerged). Every broker
 * connection of every client does it: measured with `BENCH_BUS=kafka npm run bench:idle`, 40–50 ms
 * of CPU a second across an idle stack of four services.
 *
 * Patched: with nothing pending and no throttle in effect, no check is scheduled. Nothing waits on
 * one: a request pushed later is sent at once or, when it must wait, schedules its own check
 * (push), and an answer or a timeout checks the queue again (fulfillRequest, the request's
 * timeout). With requests pending, or a throttle in effect, kafkajs's own code runs unchanged.
 *
 * Also, each connection looks for requests past their timeout every 100 ms (ten wake-ups a second
 * per connection, idle or not; a service holds several). It now looks every tenth of the request
 * timeout, up to 1 s (requestTimeoutCheckMs): a request of the default 30 s times out within 31 s
 * instead of 30.1 s, and an idle connection wakes once a second. The check itself is kafkajs's.
 *
 * Applied once per process when the Kafka transport's module loads (so every kafkajs client of a
 * process that uses @pay/bus is patched, the tests' own included); idempotent. Written against
 * kafkajs 2.2.4: another version is refused until these are reviewed against it.
 */
export function quietKafkaRequestQueues(): void {
  // kafkajs has no "exports" map: its internal modules are reachable by path, untyped.
  const RequestQueue = require('kafkajs/src/network/requestQueue') as { prototype: RequestQueuePrototype };
  const proto = RequestQueue.prototype;
  if (proto[PATCHED]) return;
  const { version } = require('kafkajs/package.json') as { version: string };
  if (version !== KAFKAJS_VERSION) throw new Error(`kafkajs ${version} is installed; quietKafkaRequestQueues patches ${KAFKAJS_VERSION}'s RequestQueue: review it against the new version first`);
  const scheduleCheck = proto.scheduleCheckPendingRequests;
  proto.scheduleCheckPendingRequests = function scheduleCheckPendingRequests(this: RequestQueueInternals): void {
    if (this.pending.length === 0 && this.throttledUntil <= Date.now()) return;
    scheduleCheck.call(this);
  };
  // kafkajs 2.2.4's own body, with the interval of requestTimeoutCheckMs instead of min(timeout, 100).
  proto.scheduleRequestTimeoutCheck = function scheduleRequestTimeoutCheck(this: RequestQueueInternals): void {
    if (!this.enforceRequestTimeout) return;
    this.destroy();
    this.requestTimeoutIntervalId = setInterval(() => {
      this.inflight.forEach((request) => {
        if (Date.now() - request.sentAt > request.requestTimeout) request.timeoutRequest();
      });
      if (!this.isConnected()) this.destroy();
    }, requestTimeoutCheckMs(this.requestTimeout));
  };
  proto[PATCHED] = true;
}
