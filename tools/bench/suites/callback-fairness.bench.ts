import { randomUUID } from 'node:crypto';
import { disbursementCallbackEventId } from '@pay/domain';
import { createPgPool, createPrismaClient, dropDatabase } from '@pay/persistence';
import { createMerchant, createTestDatabase, WebhookReceiver } from '@pay/testing';
import { callbackRows, insertCallbacks } from '../lib/callbacks';
import { runBench, startBenchStack } from '../lib/harness';
import { percentile, printResults, recordNumbers } from '../lib/report';

/**
 * One merchant's callback URL is a tarpit (it accepts the connection and never answers) while
 * another merchant gets a steady stream of callbacks to a receiver that answers at once: the
 * steady merchant's callback latency (from the delivery row's write, as the payout service and
 * the gateway write it, to the receiver holding the request) without and with the tarpit.
 * Target: its p99 with the tarpit <= 2x its p99 without.
 *
 * The workers run with their defaults (20 attempt slots, 5 per merchant, connect 3 s, first byte
 * 5 s, 10 s in all). Windows of WINDOW seconds alternate, so both see the same background load of
 * a shared machine (a first window of the steady stream alone warms the workers up and counts in
 * neither): in each odd window a new tarpit opens and its merchant gets STUCK callbacks
 * due at once (as 60 unpaid QR codes expiring, issue 39), enough to keep its share of the slots
 * taken for the whole window; at the window's end the tarpit closes (its attempts end, their
 * retries fall 30 s later on a closed port). A callback counts in the window it was written in.
 * Also prints the most attempts the tarpit merchant held at once (sampled from the database)
 * against its cap. WEBHOOK_MERCHANT_CONCURRENCY=20 in the environment runs the same without a cap
 * below the 20 slots, for comparison.
 * Usage: npm run build && npm run bench -- callback-fairness [window seconds=10] [windows=8] [steady callbacks/s=20] [stuck callbacks per window=60]
 */
const [WINDOW_S = 10, WINDOWS = 8, STEADY_RPS = 20, STUCK = 60] = process.argv.slice(2).map(Number);
const TARGET = 2;
/** WEBHOOK_MERCHANT_CONCURRENCY in the environment reaches the workers (20: no cap below the 20 slots, for comparison). */
const PER_MERCHANT = process.env.WEBHOOK_MERCHANT_CONCURRENCY ?? '5';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function summary(ms: number[]) {
  const sorted = [...ms].sort((a, b) => a - b);
  return {
    callbacks: sorted.length,
    p50: Number(percentile(sorted, 50).toFixed(1)),
    p99: Number(percentile(sorted, 99).toFixed(1)),
    max: Number((sorted[sorted.length - 1] ?? Number.NaN).toFixed(1)),
  };
}

async function main(): Promise<void> {
  const databaseUrl = await createTestDatabase('pay_bench');
  const prisma = createPrismaClient(databaseUrl, 4);
  const pool = createPgPool(databaseUrl, 8);
  /** When each steady callback's row was written (before the INSERT) and in which phase (null: the warm-up), by event id. */
  const written = new Map<string, { at: bigint; phase: 'with' | 'without' | null }>();
  const latencies = { without: [] as number[], with: [] as number[] };
  const steady = await WebhookReceiver.start((_n, req) => {
    const w = written.get(req.headers['x-callback-event-id'] as string);
    if (w?.phase) latencies[w.phase].push(Number(process.hrtime.bigint() - w.at) / 1e6);
    return { status: 200 };
  });
  /** The steady merchant: STEADY_RPS callbacks a second on a schedule until `until`, whatever the answers take. */
  const stream = async (merchantId: number, until: number, phase: 'with' | 'without' | null) => {
    const pending: Promise<unknown>[] = [];
    for (let at = Date.now(); at < until; at += 1000 / STEADY_RPS) {
      if (at > Date.now()) await sleep(at - Date.now());
      const id = randomUUID();
      const eventId = disbursementCallbackEventId(id, 'success');
      written.set(eventId, { at: process.hrtime.bigint(), phase });
      pending.push(
        pool.query(
          `INSERT INTO webhook_deliveries (id, event_id, event_type, merchant_id, disbursement_id, url, body, status, next_attempt_at, created_at, updated_at)
           VALUES (gen_random_uuid(), $1, 'disbursement.succeeded', $2, $3::uuid, $4, $5, 'pending', now(), now(), now())`,
          [eventId, merchantId, id, steady.url, JSON.stringify({ id: eventId })],
        ),
      );
    }
    await Promise.all(pending);
  };
  const stack = await startBenchStack(databaseUrl, { WEBHOOK_MERCHANT_CONCURRENCY: PER_MERCHANT }, 'callback-fairness');
  let tarpit: WebhookReceiver | undefined;
  let sampling = true;
  let mostHeld = 0;
  try {
    const { merchant: fine } = await createMerchant(prisma, { name: 'Toko Lancar' });
    const { merchant: stuck } = await createMerchant(prisma, { name: 'Toko Macet' });
    // The tarpit merchant's attempts leased at once, across the workers.
    const sampler = (async () => {
      while (sampling) {
        const [{ n }] = await prisma.$queryRaw<{ n: number }[]>`
          SELECT count(*)::int AS n FROM webhook_deliveries WHERE merchant_id = ${stuck.id} AND status = 'delivering' AND lease_until >= now()`;
        mostHeld = Math.max(mostHeld, n);
        await sleep(100);
      }
    })().catch(() => undefined);

    // Warm-up: the steady stream for one window, counted in no phase (the workers' JIT, connections).
    await stream(fine.id, Date.now() + WINDOW_S * 1000, null);

    const start = Date.now();
    for (let w = 0; w < WINDOWS; w++) {
      const withTarpit = w % 2 === 1;
      if (withTarpit) {
        tarpit = await WebhookReceiver.start(() => 'hang');
        await insertCallbacks(prisma, stuck.id, tarpit.url, callbackRows(stuck, STUCK));
      }
      await stream(fine.id, start + (w + 1) * WINDOW_S * 1000, withTarpit ? 'with' : 'without');
      await tarpit?.close();
      tarpit = undefined;
    }
    // The last callbacks' answers.
    const expected = [...written.values()].filter((w) => w.phase).length;
    for (let i = 0; i < 100 && latencies.with.length + latencies.without.length < expected; i++) await sleep(100);
    sampling = false;
    await sampler;

    const without = summary(latencies.without);
    const during = summary(latencies.with);
    const ratio = during.p99 / without.p99;
    const p50Ratio = during.p50 / without.p50;
    printResults("the steady merchant's callback latency (ms, row written -> receiver)", [
      { phase: 'without the tarpit', ...without },
      { phase: `with another merchant's tarpit (${STUCK} callbacks per window)`, ...during },
    ]);
    const lost = expected - latencies.with.length - latencies.without.length;
    console.log(
      `\np99 with the tarpit / without: ${ratio.toFixed(2)}x (target <= ${TARGET}x: ${ratio <= TARGET ? 'met' : 'MISSED'}); p50 ${p50Ratio.toFixed(2)}x; ` +
        `the tarpit merchant held at most ${mostHeld} attempt slots at once (cap ${PER_MERCHANT} of 20); ` +
        `${lost} steady callback(s) not received within 10 s of the end`,
    );
    recordNumbers('fairness', {
      p99WithoutMs: without.p99,
      p99WithMs: during.p99,
      ratio: Number(ratio.toFixed(2)),
      p50Ratio: Number(p50Ratio.toFixed(2)),
      target: TARGET,
      tarpitMostHeld: mostHeld,
      notReceived: lost,
    });
  } finally {
    sampling = false;
    await stack.stop();
    await tarpit?.close();
    await steady.close();
    await prisma.$disconnect();
    await pool.end();
    await dropDatabase(databaseUrl);
  }
}

runBench(main);
