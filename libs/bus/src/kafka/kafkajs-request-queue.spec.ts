import { quietKafkaRequestQueues } from './kafkajs-request-queue';

/** kafkajs's own RequestQueue (internal, untyped), patched as every process using @pay/bus has it. */
interface Queue {
  inflight: Map<number, unknown>;
  scheduleRequestTimeoutCheck(): void;
  push(request: { entry: Entry; expectResponse: boolean; requestTimeout?: number; sendRequest(): void }): void;
  fulfillRequest(answer: { correlationId: number; payload: unknown; size: number }): void;
  destroy(): void;
}
interface Entry {
  correlationId: number;
  apiName: string;
  apiKey: number;
  apiVersion: number;
  resolve(answer: unknown): void;
  reject(error: Error): void;
}

quietKafkaRequestQueues();
const RequestQueue = require('kafkajs/src/network/requestQueue') as new (options: object) => Queue;
const noLog = { debug: () => undefined, warn: () => undefined, error: () => undefined, info: () => undefined };

function connectedQueue(requestTimeout: number): Queue {
  const queue = new RequestQueue({
    maxInFlightRequests: null,
    requestTimeout,
    enforceRequestTimeout: true,
    clientId: 'test',
    broker: 'localhost:0',
    logger: noLog,
    isConnected: () => true,
  });
  queue.scheduleRequestTimeoutCheck(); // what kafkajs's Connection does once connected
  return queue;
}

/** Sends a request the broker never answers unless the test does; the outcome is what kafkajs settles it with. */
function send(queue: Queue, correlationId: number, requestTimeout?: number): { outcome: Promise<string> } {
  let settle: (outcome: string) => void = () => undefined;
  const outcome = new Promise<string>((resolve) => (settle = resolve));
  const entry: Entry = {
    correlationId,
    apiName: 'Fetch',
    apiKey: 1,
    apiVersion: 11,
    resolve: () => settle('answered'),
    reject: (error) => settle(`${error.name}: ${error.message}`),
  };
  queue.push({ entry, expectResponse: true, requestTimeout, sendRequest: () => undefined });
  return { outcome };
}

const timers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

describe('kafkajs request timeouts, patched (kafkajs-request-queue.ts)', () => {
  it('a connection with nothing in flight holds no timer; what it sends arms one, which stops once nothing is left', async () => {
    const idle = timers();
    const queue = connectedQueue(50);
    expect(timers()).toBe(idle); // kafkajs: a 50 ms interval from connect to disconnect
    const request = send(queue, 1);
    send(queue, 2);
    expect(timers()).toBe(idle + 1); // one for both: the earlier deadline
    queue.fulfillRequest({ correlationId: 1, payload: null, size: 0 });
    queue.fulfillRequest({ correlationId: 2, payload: null, size: 0 });
    expect(await request.outcome).toBe('answered');
    await new Promise((resolve) => setTimeout(resolve, 120)); // the deadline passes; the check finds nothing in flight
    const before = timers();
    queue.destroy(); // clears a timer, if the queue still held one
    expect(timers()).toBe(before);
    expect(queue.inflight.size).toBe(0);
  });

  it('times out a request the broker does not answer, just after its timeout, and only that one', async () => {
    const queue = connectedQueue(100);
    const started = Date.now();
    const unanswered = send(queue, 1);
    const slow = send(queue, 2, 400); // a request with a longer timeout of its own (Fetch, JoinGroup)
    const answered = send(queue, 3);
    queue.fulfillRequest({ correlationId: 3, payload: null, size: 0 });
    expect(await answered.outcome).toBe('answered');
    expect(await unanswered.outcome).toMatch(
      /KafkaJSRequestTimeoutError: Request Fetch\(key: 1, version: 11\) timed out/,
    );
    const firstAfter = Date.now() - started;
    expect(firstAfter).toBeGreaterThanOrEqual(100);
    expect(firstAfter).toBeLessThan(300);
    expect(await slow.outcome).toMatch(/timed out/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(queue.inflight.size).toBe(0);
    queue.destroy();
  });

  it('a disconnected connection stops checking (kafkajs destroys its queue)', async () => {
    const idle = timers();
    const queue = connectedQueue(50);
    const request = send(queue, 1);
    queue.destroy();
    expect(timers()).toBe(idle);
    const result = await Promise.race([
      request.outcome,
      new Promise((resolve) => setTimeout(() => resolve('still in flight'), 150)),
    ]);
    expect(result).toBe('still in flight'); // as kafkajs: its Connection rejects what was in flight when it disconnects
  });
});
