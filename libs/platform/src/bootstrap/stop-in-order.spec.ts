import { serviceStop, stopInOrder } from './stop-in-order';

describe('stopInOrder', () => {
  it('runs the steps one after the other and names the one it waits on', async () => {
    const ran: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const ordered = stopInOrder([
      ['http server', () => void ran.push('http server')],
      [
        'database pool',
        async () => {
          await held;
          ran.push('database pool');
        },
      ],
      ['redis', () => void ran.push('redis')],
    ]);
    expect(ordered.stopStep()).toBe('not started');
    const stopped = ordered.stop();
    await new Promise((resolve) => setImmediate(resolve));
    expect(ordered.stopStep()).toBe('database pool');
    expect(ran).toEqual(['http server']);
    release();
    await stopped;
    expect(ran).toEqual(['http server', 'database pool', 'redis']);
    expect(ordered.stopStep()).toBe('done');
  });

  it('stops at a step that throws, which stays the step named', async () => {
    const ran: string[] = [];
    const ordered = stopInOrder([
      ['bus', () => Promise.reject(new Error('broker gone'))],
      ['database pool', () => void ran.push('database pool')],
    ]);
    await expect(ordered.stop()).rejects.toThrow('broker gone');
    expect(ran).toEqual([]);
    expect(ordered.stopStep()).toBe('bus');
  });

  it('a consumer service stops readiness first, then its own steps, the bus, and the database last', async () => {
    const ran: string[] = [];
    const note = (name: string) => () => void ran.push(name);
    const parts = {
      ops: { shuttingDown: note('readiness'), close: async () => void ran.push('ops port') },
      topics: { stop: note('topics') },
      transport: { close: async () => void ran.push('transport') },
      prisma: { $disconnect: async () => void ran.push('prisma') },
      pool: { end: async () => void ran.push('pool') },
    };
    await serviceStop(
      parts,
      [
        ['consumer', note('consumer')],
        ['relay', note('relay')],
      ],
      [['redis', note('redis')]],
    ).stop();
    expect(ran).toEqual([
      'readiness',
      'consumer',
      'relay',
      'topics',
      'transport',
      'ops port',
      'redis',
      'prisma',
      'pool',
    ]);
  });
});
