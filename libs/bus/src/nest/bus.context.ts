import { BaseRpcContext } from '@nestjs/microservices';
import { IncomingRecord } from '../transport/bus-transport.interface';

/** What an `@EventPattern` handler gets as `@Ctx()`: the raw record (key, headers, id, delivery count). */
export class BusContext extends BaseRpcContext<[IncomingRecord]> {
  getRecord(): IncomingRecord {
    return this.args[0];
  }

  getTopic(): string {
    return this.args[0].topic;
  }

  getKey(): string {
    return this.args[0].key;
  }

  getHeaders(): Record<string, string> {
    return this.args[0].headers;
  }
}
