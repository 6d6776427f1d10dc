import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { MerchantRole } from '@pay/domain';
import { hashPassword, type PrismaClient } from '@pay/persistence';
import request from 'supertest';

/** A password every test user gets unless it names one (12+ characters, as the policy wants). */
export const TEST_DASHBOARD_PASSWORD = 'correct horse battery staple';

export interface TestDashboardUser {
  userId: number;
  email: string;
  password: string;
  role: 'merchant' | 'operator';
  merchantId: number | null;
  /** A merchant user's role (owner unless asked); null for operators */
  merchantRole: MerchantRole | null;
}

/** What a signed-in browser sends: the session cookie and the CSRF token (X-CSRF-Token on POST/PUT/PATCH/DELETE). */
export interface DashboardSignIn {
  /** The Cookie header value, e.g. `pay_dash_session=...` */
  cookie: string;
  csrfToken: string;
  /** Both as headers, for supertest's .set() or fetch */
  headers: { cookie: string; 'x-csrf-token': string };
}

/**
 * A dashboard user with a known password, written directly (argon2id hash + insert, no
 * set-password link): a merchant user when `merchantId` is given (an owner unless `merchantRole`
 * says), else an operator. Emails are
 * unique per call so suites can share a database.
 */
export async function createDashboardUser(
  prisma: PrismaClient,
  options: {
    merchantId?: number;
    merchantRole?: MerchantRole;
    email?: string;
    password?: string;
    totpSecret?: string;
  } = {},
): Promise<TestDashboardUser> {
  const role = options.merchantId === undefined ? 'operator' : 'merchant';
  const email = (options.email ?? `${role}-${randomUUID().slice(0, 8)}@test.example`).toLowerCase();
  const password = options.password ?? TEST_DASHBOARD_PASSWORD;
  const passwordHash = await hashPassword(password);
  const totpSecret = options.totpSecret ?? null;
  const merchantRole = role === 'merchant' ? (options.merchantRole ?? 'owner') : null;
  const [row] = await prisma.$queryRaw<{ id: bigint }[]>`
    INSERT INTO dashboard_users (email, role, merchant_id, merchant_role, password_hash, totp_secret, totp_enabled_at)
    VALUES (${email}, ${role}, ${options.merchantId ?? null}::int, ${merchantRole}, ${passwordHash}, ${totpSecret}, ${totpSecret ? new Date() : null}::timestamptz)
    RETURNING id`;
  return { userId: Number(row.id), email, password, role, merchantId: options.merchantId ?? null, merchantRole };
}

/**
 * Signs in over HTTP and returns what later requests send. `target` is a base URL
 * (`http://127.0.0.1:3000`, fetch) or a server (supertest): for a merchant user the gateway's
 * public port (/dashboard/api), for an operator its internal port (/console/api). Throws unless
 * the sign-in answers 200.
 */
export async function signInDashboard(
  target: string | Server,
  user: { email: string; password: string; role: 'merchant' | 'operator' },
  totp?: string,
): Promise<DashboardSignIn> {
  const path = user.role === 'merchant' ? '/dashboard/api/session' : '/console/api/session';
  const body = { email: user.email, password: user.password, ...(totp ? { totp } : {}) };
  let status: number;
  let json: { data?: { csrfToken?: string } } & Record<string, unknown>;
  let setCookies: string[];
  if (typeof target === 'string') {
    const res = await fetch(new URL(path, target), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    status = res.status;
    json = (await res.json()) as typeof json;
    setCookies = res.headers.getSetCookie();
  } else {
    const res = await request(target).post(path).send(body);
    status = res.status;
    json = res.body as typeof json;
    const header = res.headers['set-cookie'] as string[] | string | undefined;
    setCookies = header === undefined ? [] : Array.isArray(header) ? header : [header];
  }
  const cookie = setCookies
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith(user.role === 'merchant' ? 'pay_dash_session=' : 'pay_console_session='));
  const csrfToken = json.data?.csrfToken;
  if (status !== 200 || !cookie || !csrfToken)
    throw new Error(`dashboard sign-in of ${user.email} answered ${status}: ${JSON.stringify(json)}`);
  return { cookie, csrfToken, headers: { cookie, 'x-csrf-token': csrfToken } };
}

/** A new merchant user of `merchantId`, signed in on the gateway's public port. */
export async function signedInMerchantUser(
  prisma: PrismaClient,
  target: string | Server,
  merchantId: number,
): Promise<TestDashboardUser & DashboardSignIn> {
  const user = await createDashboardUser(prisma, { merchantId });
  return { ...user, ...(await signInDashboard(target, user)) };
}

/** A new operator, signed in on the gateway's internal port. */
export async function signedInOperator(
  prisma: PrismaClient,
  target: string | Server,
): Promise<TestDashboardUser & DashboardSignIn> {
  const user = await createDashboardUser(prisma);
  return { ...user, ...(await signInDashboard(target, user)) };
}
