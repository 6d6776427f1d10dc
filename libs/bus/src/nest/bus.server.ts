import { CustomTransportStrategy, MessageHandler, Server } from '@nestjs/microservices';
import { lastValueFrom } from 'rxjs';
import { BusTransport, IncomingRecord, Subscription } from '../transport/bus-transport.interface';
import { BusContext } from './bus.context';
import { isNestMangledError } from './bus-error.filter';

export interface BusServerOptions {
  /** Owned by the app (it also publishes with it); the server never closes it. */
  transport: BusTransport;
  group: string;
  consumerName?: string;
  /** Every subscription's SubscribeOptions.idleReadWaitMs (Kafka's long poll; default 1 s). */
  idleReadWaitMs?: number;
  /** Every subscription's SubscribeOptions.gatherMs (a stand-by consumer; default 0). */
  gatherMs?: number;
}

/**
 * Nest custom transport: subscribes to every topic that has an `@EventPattern(topic)` handler and awaits the handler
 * (with `{ batch: true }` as extras, the handler gets the messages waiting on a partition as one array),
 * so the transport acknowledges only after it resolves and retries / dead-letters when it fails. The app must register
 * BusErrorFilter globally so the transport sees the handler's own error (and can tell an outage from a bad record).
 */
export class BusServer extends Server implements CustomTransportStrategy {
  private readonly subscriptions: Subscription[] = [];

  constructor(private readonly options: BusServerOptions) {
    super();
  }

  async listen(callback: (error?: unknown) => void): Promise<void> {
    try {
      for (const [pattern, handler] of this.messageHandlers) {
        if (!handler.isEventHandler) continue;
        // `@EventPattern(topic, { batch: true })`: the handler takes an array of messages (group commit).
        const batch = handler.extras?.batch === true;
        this.subscriptions.push(
          await this.options.transport.subscribe({
            topic: pattern,
            group: this.options.group,
            consumerName: this.options.consumerName,
            idleReadWaitMs: this.options.idleReadWaitMs,
            gatherMs: this.options.gatherMs,
            handler: (record) => this.dispatch(handler, [record], batch),
            batchHandler: batch ? (records) => this.dispatch(handler, records, true) : undefined,
          }),
        );
      }
      callback();
    } catch (error) {
      callback(error);
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.subscriptions.splice(0).map((s) => s.close()));
  }

  on(): never {
    throw new Error('BusServer has no status events; observe the transport logs instead');
  }

  unwrap<T>(): T {
    return this.options.transport as T;
  }

  /**
   * Nest's own handleEvent swallows handler errors (its exception filter turns them into an erroring observable that
   * nobody awaits); here the observable is awaited so a failure rejects and the record is not acknowledged.
   */
  private async dispatch(handler: MessageHandler, records: IncomingRecord[], batch: boolean): Promise<void> {
    const messages: unknown[] = records.map((r) => JSON.parse(r.value));
    try {
      const result: unknown = await handler(batch ? messages : messages[0], new BusContext(records));
      await lastValueFrom(this.transformToObservable(result), { defaultValue: undefined });
    } catch (error) {
      if (isNestMangledError(error))
        throw new Error(
          'handler failed, but Nest replaced its error: register BusErrorFilter with app.useGlobalFilters',
        );
      throw error;
    }
  }
}
