import { Agent, request } from 'node:http';
import { randomUUID } from 'node:crypto';
import { createPrismaClient, dropDatabase } from '@pay/persistence';
import { createDashboardUser, createMerchant, createTestDatabase } from '@pay/testing';
import { median, percentile, printResults, recordNumbers } from '../lib/report';
import { runBench, startBenchStack } from '../lib/harness';

/**
 * Whether a sign-in tells a merchant user's email from an unknown one by its time. Through the
 * gateway's public port, one request at a time, in rounds of three wrong-password sign-ins in a
 * rotating order: a merchant user's email, an unknown email, an operator's email (another
 * audience, which the dashboard must treat as unknown). Each from an address of its own, and no
 * email more often than its per-account free failures allow, so every attempt is a real
 * verification (no backoff answer). Prints each kind's latency and the median of the per-round
 * differences (user minus unknown, operator minus unknown). Target: |median difference| < 0.5 ms.
 * Usage: npm run build && npm run bench -- signin [rounds=400] [warm-up rounds=30]
 */
const [ROUNDS = 400, WARMUP = 30] = process.argv.slice(2).map(Number);
const TARGET_MS = 0.5;
/** Failures of one email below the account-wide threshold (20): no account-wide backoff during the run. */
const USES_PER_EMAIL = 15;

type Kind = 'user' | 'unknown' | 'operator';

function signIn(base: URL, agent: Agent, email: string, address: string): Promise<{ status: number; ms: number }> {
  const body = JSON.stringify({ email, password: 'a wrong password, 12+' });
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request(
      new URL('/dashboard/api/session', base),
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, ms: Number(process.hrtime.bigint() - started) / 1e6 }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function main(): Promise<void> {
  const databaseUrl = await createTestDatabase('pay_bench');
  const prisma = createPrismaClient(databaseUrl, 2);
  const stack = await startBenchStack(
    databaseUrl,
    // Every attempt from an address of its own (X-Forwarded-For from the bench, on loopback).
    { TRUSTED_PROXIES: 'loopback', SIGN_IN_PER_ADDRESS_PER_MINUTE: '100000' },
    'signin',
  );
  try {
    const emailsNeeded = Math.ceil((ROUNDS + WARMUP) / USES_PER_EMAIL);
    const emails: Record<Kind, string[]> = { user: [], unknown: [], operator: [] };
    for (let i = 0; i < emailsNeeded; i += 1) {
      const { merchant } = await createMerchant(prisma);
      emails.user.push((await createDashboardUser(prisma, { merchantId: merchant.id })).email);
      emails.operator.push((await createDashboardUser(prisma)).email);
      emails.unknown.push(`nobody-${randomUUID()}@nowhere.example`);
    }
    const base = new URL(stack.gatewayUrl);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const kinds: Kind[] = ['user', 'unknown', 'operator'];
    const ms: Record<Kind, number[]> = { user: [], unknown: [], operator: [] };
    const differences = { user: [] as number[], operator: [] as number[] };
    const statuses: Record<string, number> = {};
    let address = 0;
    for (let round = 0; round < WARMUP + ROUNDS; round += 1) {
      const taken: Partial<Record<Kind, number>> = {};
      // A rotating order: none of the three always runs first (or right after another's work).
      for (let k = 0; k < kinds.length; k += 1) {
        const kind = kinds[(round + k) % kinds.length];
        address += 1;
        const from = `2001:db8:${(address >> 16).toString(16)}:${(address & 0xffff).toString(16)}::1`;
        const answer = await signIn(base, agent, emails[kind][Math.floor(round / USES_PER_EMAIL)], from);
        statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
        taken[kind] = answer.ms;
      }
      if (round < WARMUP) continue;
      for (const kind of kinds) ms[kind].push(taken[kind] as number);
      differences.user.push((taken.user as number) - (taken.unknown as number));
      differences.operator.push((taken.operator as number) - (taken.unknown as number));
    }
    agent.destroy();

    const row = (kind: Kind) => {
      const sorted = [...ms[kind]].sort((a, b) => a - b);
      return {
        email:
          kind === 'user' ? "a merchant user's" : kind === 'unknown' ? 'unknown' : "an operator's (other audience)",
        n: sorted.length,
        p50ms: median(sorted).toFixed(2),
        p90ms: percentile(sorted, 90).toFixed(2),
        p99ms: percentile(sorted, 99).toFixed(2),
      };
    };
    printResults(`wrong-password sign-ins on the dashboard, one at a time, ${ROUNDS} rounds`, kinds.map(row));
    printResults('answers', [statuses]);
    const userDiff = median(differences.user);
    const operatorDiff = median(differences.operator);
    const met = (d: number) => (Math.abs(d) < TARGET_MS ? 'met' : 'MISSED');
    console.log(
      `median per-round difference, merchant user - unknown: ${userDiff.toFixed(3)} ms (target |d| < ${TARGET_MS} ms: ${met(userDiff)}); operator - unknown: ${operatorDiff.toFixed(3)} ms (${met(operatorDiff)})`,
    );
    recordNumbers('targets', {
      userMinusUnknownMs: Number(userDiff.toFixed(3)),
      operatorMinusUnknownMs: Number(operatorDiff.toFixed(3)),
      targetMs: TARGET_MS,
      met: met(userDiff) === 'met' && met(operatorDiff) === 'met' ? 'met' : 'MISSED',
    });
  } finally {
    await stack.stop();
    await prisma.$disconnect();
    await dropDatabase(databaseUrl);
  }
}

runBench(main);
