import { BaseRpcContext } from '@nestjs/microservices';
import { IncomingRecord } from '../transport/bus-transport.interface';

/**
 * What an `@EventPattern` handler gets as `@Ctx()`: the raw record (key, headers, id, delivery
 * count); a batch handler's context holds every record of the batch, in order.
 */
export class BusContext extends BaseRpcContext<IncomingRecord[]> {
  getRecord(): IncomingRecord {
    return this.args[0];
  }

  getRecords(): IncomingRecord[] {
    return this.args;
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
