/** What the patch below relies on in kafkajs's (untyped, internal) RequestQueue. */
interface RequestQueueInternals {
  pending: unknown[];
  throttledUntil: number;
  scheduleCheckPendingRequests(): void;
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
 * Applied once per process, by every KafkaTransport; idempotent.
 */
export function quietKafkaRequestQueues(): void {
  // kafkajs has no "exports" map: its internal modules are reachable by path, untyped.
  const RequestQueue = require('kafkajs/src/network/requestQueue') as { prototype: RequestQueuePrototype };
  const proto = RequestQueue.prototype;
  if (proto[PATCHED]) return;
  const original = proto.scheduleCheckPendingRequests;
  if (typeof original !== 'function') throw new Error('kafkajs RequestQueue has no scheduleCheckPendingRequests: review quietKafkaRequestQueues against the installed kafkajs');
  proto.scheduleCheckPendingRequests = function scheduleCheckPendingRequests(this: RequestQueueInternals): void {
    if (this.pending.length === 0 && this.throttledUntil <= Date.now()) return;
    original.call(this);
  };
  proto[PATCHED] = true;
}
