import 'reflect-metadata';
import { Controller, INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { uniqueName, waitFor } from '../testing/bus-transport.contract';
import { redisHarness, RedisTestHarness } from '../testing/redis-test.harness';
import { BusTransport } from '../transport/bus-transport.interface';
import { BusContext } from './bus.context';
import { BUS_TRANSPORT, BusPublisher } from './bus.publisher';
import { BusServer } from './bus.server';

const TOPIC = uniqueName('nest.payout.events');
const seen: { payload: unknown; key: string; deliveryCount: number }[] = [];
let failFirst = true;

@Controller()
class PayoutEventsController {
  @EventPattern(TOPIC)
  async onPayoutEvent(@Payload() payload: { id: string }, @Ctx() ctx: BusContext): Promise<void> {
    seen.push({ payload, key: ctx.getKey(), deliveryCount: ctx.getRecord().deliveryCount });
    if (payload.id === 'flaky' && failFirst) {
      failFirst = false;
      throw new Error('downstream timeout');
    }
  }
}

describe('BusServer (Nest custom transport) over Redis Streams', () => {
  let h: RedisTestHarness;
  let transport: BusTransport;
  let app: INestMicroservice;

  beforeAll(async () => {
    h = redisHarness();
    transport = h.transport();

    @Module({ controllers: [PayoutEventsController], providers: [{ provide: BUS_TRANSPORT, useValue: transport }, BusPublisher] })
    class TestModule {}

    app = await NestFactory.createMicroservice(TestModule, { strategy: new BusServer({ transport, group: 'payout' }), logger: false });
    await app.listen();
  });

  afterAll(async () => {
    await app.close();
    await h.dispose();
  });

  it('routes records to @EventPattern handlers with the parsed payload and the record context', async () => {
    await app.get(BusPublisher).emit(TOPIC, { key: 'merchant-1', value: { id: 'a', amount: 150_000n } });
    await waitFor('handler call', () => seen.some((s) => (s.payload as { id: string }).id === 'a'), 5_000);
    expect(seen.find((s) => (s.payload as { id: string }).id === 'a')).toEqual({
      payload: { id: 'a', amount: '150000' },
      key: 'merchant-1',
      deliveryCount: 1,
    });
  });

  it('does not acknowledge when the handler throws: the record comes back', async () => {
    await app.get(BusPublisher).emit(TOPIC, { key: 'merchant-2', value: { id: 'flaky' } });
    await waitFor('redelivery', () => seen.filter((s) => (s.payload as { id: string }).id === 'flaky').length === 2, 5_000);
    expect(seen.filter((s) => (s.payload as { id: string }).id === 'flaky').map((s) => s.deliveryCount)).toEqual([1, 2]);
    await waitFor('acknowledged', async () => (await h.unacknowledged(TOPIC, 'payout')) === 0, 5_000);
  });
});
