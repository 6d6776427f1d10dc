import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import {
  applyMigrations,
  createPgPool,
  createPrismaClient,
  dropDatabase,
  ensureDatabase,
  hashToken,
  MerchantAuthRepository,
  PgListener,
  type PrismaClient,
} from '@pay/persistence';
import { createMerchant, repoRoot, waitFor } from '@pay/testing';
import type { Pool } from 'pg';
import { MerchantAuthCache } from './merchant-auth.cache';

/**
 * Real Postgres: the cache forgets on the triggers' NOTIFY, and never serves while it cannot hear
 * them. A database of its own: another suite's merchant changes would make it forget at random.
 */
describe('MerchantAuthCache (real Postgres, LISTEN)', () => {
  const database = new URL(process.env.DATABASE_URL as string);
  database.pathname = `/${database.pathname.slice(1)}_authcache_${randomBytes(3).toString('hex')}`;
  const url = database.toString();
  let prisma: PrismaClient;
  let pool: Pool;
  let tokens: MerchantAuthRepository;
  const listeners: PgListener[] = [];

  beforeAll(async () => {
    await ensureDatabase(url);
    await applyMigrations(url, join(repoRoot(), 'prisma', 'migrations'));
    prisma = createPrismaClient(url, 2);
    pool = createPgPool(url, 2);
    tokens = new MerchantAuthRepository(pool);
  });
  afterEach(async () => {
    for (const l of listeners.splice(0)) await l.stop();
  });
  afterAll(async () => {
    await prisma.$disconnect();
    await pool.end();
    await dropDatabase(url);
  });

  async function started(ttlMs = 60_000): Promise<MerchantAuthCache> {
    const listener = new PgListener(url);
    listeners.push(listener);
    const cache = new MerchantAuthCache(listener, ttlMs);
    await listener.start();
    return cache;
  }

  async function remembered(cache: MerchantAuthCache) {
    const { merchant, token, tokenId, admin } = await createMerchant(prisma);
    const hash = hashToken(token);
    const version = cache.version();
    const lookup = await tokens.findByHash(hash);
    if (!lookup.found) throw new Error('token not found');
    cache.remember(hash, lookup.merchant, version);
    return { merchant, hash, tokenId, admin };
  }

  it('serves a token that authenticated, and forgets every token when one is revoked or a merchant changes', async () => {
    const cache = await started();
    const a = await remembered(cache);
    const b = await remembered(cache);
    expect(cache.get(a.hash)).toMatchObject({ id: a.merchant.id, tokenId: a.tokenId, isActive: true });
    await a.admin.revokeToken(a.tokenId);
    await waitFor(async () => cache.get(a.hash) === undefined, 5_000, 'the revocation heard');
    expect(cache.get(b.hash)).toBeUndefined(); // everything is forgotten: changes are rare

    const c = await remembered(cache);
    await c.admin.setAllowlist(c.merchant.id, ['203.0.113.7'], true);
    await waitFor(async () => cache.get(c.hash) === undefined, 5_000, 'the merchant change heard');
  });

  it('a lookup that began before a change is not remembered after it; a token touched for last use changes nothing', async () => {
    const cache = await started();
    const { merchant, token, tokenId, admin } = await createMerchant(prisma);
    const hash = hashToken(token);
    const version = cache.version();
    const lookup = await tokens.findByHash(hash); // also stamps last_used_at: no notification
    if (!lookup.found) throw new Error('token not found');
    await admin.setActive(merchant.id, false);
    await waitFor(async () => cache.version() !== version, 5_000, 'the change heard');
    cache.remember(hash, lookup.merchant, version);
    expect(cache.get(hash)).toBeUndefined();

    const other = await remembered(cache);
    await pool.query(`UPDATE api_tokens SET last_used_at = now() - interval '2 minutes' WHERE id = $1`, [tokenId]);
    await new Promise((r) => setTimeout(r, 100));
    expect(cache.get(other.hash)).toMatchObject({ id: other.merchant.id });
  });

  it('keeps entries at most its ttl; with a ttl of 0, or before it listens, it keeps nothing', async () => {
    const short = await started(50);
    const { hash } = await remembered(short);
    expect(short.get(hash)).toBeDefined();
    await new Promise((r) => setTimeout(r, 80));
    expect(short.get(hash)).toBeUndefined();

    const off = await started(0);
    expect(off.get((await remembered(off)).hash)).toBeUndefined();
    const deaf = new MerchantAuthCache(new PgListener(url), 60_000); // never started: not listening
    expect(deaf.get((await remembered(deaf)).hash)).toBeUndefined();
  });
});
