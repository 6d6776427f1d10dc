import { Client } from 'pg';
import { DISBURSEMENT_DECIDED_CHANNEL, PgListener } from '@pay/persistence';
import { DecisionWaiter } from './decision-waiter';

// The fallback timer is far longer than the test timeout: a wait that resolves was woken by the NOTIFY.
const NEVER = 10 * 60_000;

describe('DecisionWaiter (real Postgres LISTEN/NOTIFY)', () => {
  let waiter: DecisionWaiter;
  let listener: PgListener;
  let notifier: Client;
  const notify = (id: string) => notifier.query('SELECT pg_notify($1, $2)', [DISBURSEMENT_DECIDED_CHANNEL, id]);

  beforeAll(async () => {
    listener = new PgListener(process.env.DATABASE_URL as string);
    waiter = new DecisionWaiter(listener);
    await listener.start();
    notifier = new Client({ connectionString: process.env.DATABASE_URL });
    await notifier.connect();
  });
  afterAll(async () => {
    await listener.stop();
    await notifier.end();
  });

  it('wakes the waiting request when the decision for its transfer is committed', async () => {
    const sub = waiter.subscribe('a');
    const woken = sub.next(NEVER).then(() => 'woken');
    await notify('b'); // someone else's transfer: not a reason to wake
    await notify('a');
    await expect(woken).resolves.toBe('woken');
    sub.close();
  });

  it('keeps a notice that arrives while the request is reading the row', async () => {
    const sub = waiter.subscribe('c');
    await notify('c');
    await new Promise((r) => setTimeout(r, 200)); // the notice is in before next() is called
    await expect(sub.next(NEVER).then(() => 'woken')).resolves.toBe('woken');
    sub.close();
  });

  it('falls back to the timer when no notice comes', async () => {
    const sub = waiter.subscribe('d');
    await expect(sub.next(50).then(() => 'timer')).resolves.toBe('timer');
    sub.close();
  });

  it('wakes every concurrent request for the same transfer (an identical retry)', async () => {
    const [one, two] = [waiter.subscribe('e'), waiter.subscribe('e')];
    const both = Promise.all([one.next(NEVER), two.next(NEVER)]);
    await notify('e');
    await expect(both).resolves.toHaveLength(2);
    one.close();
    two.close();
  });

  it('hands over the decided status when the notice carries it (id:status), and null for a bare id', async () => {
    const sub = waiter.subscribe('f');
    const woken = sub.next(NEVER);
    await notify('f:pending');
    await expect(woken).resolves.toBe('pending');
    const again = sub.next(NEVER);
    await notify('f');
    await expect(again).resolves.toBeNull();
    sub.close();
  });

  it('keeps a decided status heard while the request was not waiting', async () => {
    const sub = waiter.subscribe('g');
    await notify('g:refused');
    await new Promise((r) => setTimeout(r, 200)); // the notice is in before next() is called
    await expect(sub.next(NEVER)).resolves.toBe('refused');
    sub.close();
  });
});
