import { Inject, Injectable } from '@nestjs/common';
import { BusTransport, OutgoingRecord } from '../transport/bus-transport.interface';

/** Injection token for the app's single BusTransport (provide it with `createTransport(config)`). */
export const BUS_TRANSPORT = Symbol('BUS_TRANSPORT');

export interface BusMessage {
  key: string;
  /** Serialised as JSON; bigint (money) becomes a decimal string so no precision is lost. */
  value: unknown;
  headers?: Record<string, string>;
}

export function serializeMessage(message: BusMessage): OutgoingRecord {
  const value = JSON.stringify(message.value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  return { key: message.key, value, headers: message.headers };
}

@Injectable()
export class BusPublisher {
  constructor(@Inject(BUS_TRANSPORT) private readonly transport: BusTransport) {}

  /** Resolves once the broker has every message durably. */
  async emit(topic: string, messages: BusMessage | BusMessage[]): Promise<void> {
    const list = Array.isArray(messages) ? messages : [messages];
    await this.transport.publish(topic, list.map(serializeMessage));
  }
}
