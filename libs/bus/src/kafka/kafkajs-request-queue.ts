/** A request kafkajs has sent and awaits the answer of (its SocketRequest). */
interface InflightRequest {
  /** Set just after the request enters the in-flight map (SocketRequest.send): null when the map learns of it. */
  sentAt: number | null;
  requestTimeout: number;
  timeoutRequest(): void;
}

const WATCHING = Symbol('pay.bus.kafkajs.watchingTimeouts');
const CHECK_AT = Symbol('pay.bus.kafkajs.timeoutCheckAt');

/** What the patches below rely on in kafkajs's (untyped, internal) RequestQueue. */
interface RequestQueueInternals {
  pending: unknown[];
  inflight: Map<number, InflightRequest>;
  throttledUntil: number;
  enforceRequestTimeout: boolean;
  requestTimeoutIntervalId?: NodeJS.Timeout;
  isConnected(): boolean;
  destroy(): void;
  scheduleCheckPendingRequests(): void;
  scheduleRequestTimeoutCheck(): void;
  [WATCHING]?: boolean;
  [CHECK_AT]?: number;
}

/** The kafkajs these patches were written against (its latest release); another must be reviewed first. */
const KAFKAJS_VERSION = '2.2.4';

/** The in-flight map of one connection, telling its queue of every request sent (so it can time it out). */
class WatchedInflight extends Map<number, InflightRequest> {
  private readonly sent?: (request: InflightRequest) => void;

  constructor(entries: Iterable<[number, InflightRequest]>, sent: (request: InflightRequest) => void) {
    super(entries);
    this.sent = sent;
  }

  override set(correlationId: number, request: InflightRequest): this {
    super.set(correlationId, request);
    this.sent?.(request); // undefined while Map's constructor copies the entries
    return this;
  }
}

const deadlineOf = (request: InflightRequest): number => (request.sentAt ?? Date.now()) + request.requestTimeout;

/** Arms the connection's one timeout timer for `at`, unless it is armed for that time or earlier already. */
function armTimeoutCheck(queue: RequestQueueInternals, at: number): void {
  if (!queue[WATCHING]) return;
  if (queue.requestTimeoutIntervalId !== undefined && (queue[CHECK_AT] ?? Infinity) <= at) return;
  clearTimeout(queue.requestTimeoutIntervalId);
  queue[CHECK_AT] = at;
  // kafkajs times a request out once strictly more than its timeout has passed: 1 ms after the deadline.
  queue.requestTimeoutIntervalId = setTimeout(() => checkTimeouts(queue), Math.max(0, at - Date.now()) + 1);
}

/** kafkajs's own check (a request past its timeout is timed out; a disconnected queue stops), then the next deadline. */
function checkTimeouts(queue: RequestQueueInternals): void {
  queue.requestTimeoutIntervalId = undefined;
  queue[CHECK_AT] = undefined;
  let next = Infinity;
  queue.inflight.forEach((request) => {
    if (Date.now() - (request.sentAt ?? Date.now()) > request.requestTimeout) request.timeoutRequest();
    else next = Math.min(next, deadlineOf(request));
  });
  if (!queue.isConnected()) return queue.destroy();
  if (next !== Infinity) armTimeoutCheck(queue, next);
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
 * connection of every client does it: measured with `BENCH_BUS=kafka npm run bench -- idle`, 40–50 ms
 * of CPU a second across an idle stack of four services.
 *
 * Patched: with nothing pending and no throttle in effect, no check is scheduled. Nothing waits on
 * one: a request pushed later is sent at once or, when it must wait, schedules its own check
 * (push), and an answer or a timeout checks the queue again (fulfillRequest, the request's
 * timeout). With requests pending, or a throttle in effect, kafkajs's own code runs unchanged.
 *
 * Also, each connection looked for requests past their timeout every 100 ms, in flight or not (ten
 * wake-ups a second per connection; a service holds four to eight, and each wake-up of an idle Node
 * process costs 0.1–0.2 ms of CPU on these machines). Patched: a connection arms one timer for the
 * earliest deadline of what it has in flight, when it sends a request (its in-flight map tells it)
 * and again when that timer fires; with nothing in flight it has no timer. A request is timed out
 * 1 ms after its deadline (kafkajs: up to 100 ms after); the check itself is kafkajs's.
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
  if (version !== KAFKAJS_VERSION)
    throw new Error(
      `kafkajs ${version} is installed; quietKafkaRequestQueues patches ${KAFKAJS_VERSION}'s RequestQueue: review it against the new version first`,
    );
  const scheduleCheck = proto.scheduleCheckPendingRequests;
  proto.scheduleCheckPendingRequests = function scheduleCheckPendingRequests(this: RequestQueueInternals): void {
    if (this.pending.length === 0 && this.throttledUntil <= Date.now()) return;
    scheduleCheck.call(this);
  };
  proto.scheduleRequestTimeoutCheck = function scheduleRequestTimeoutCheck(this: RequestQueueInternals): void {
    if (!this.enforceRequestTimeout) return;
    this.destroy();
    this[WATCHING] = true;
    if (!(this.inflight instanceof WatchedInflight))
      this.inflight = new WatchedInflight(this.inflight, (request) => armTimeoutCheck(this, deadlineOf(request)));
    this.inflight.forEach((request) => armTimeoutCheck(this, deadlineOf(request)));
  };
  const destroy = proto.destroy;
  proto.destroy = function destroyQueue(this: RequestQueueInternals): void {
    this[WATCHING] = false;
    destroy.call(this); // clears the timer (kafkajs's clearInterval clears a timeout too)
    this.requestTimeoutIntervalId = undefined;
    this[CHECK_AT] = undefined;
  };
  proto[PATCHED] = true;
}
