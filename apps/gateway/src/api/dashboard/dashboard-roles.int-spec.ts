import type { Server } from 'node:http';
import { MERCHANT_ROLES, type MerchantRole } from '@pay/domain';
import type { PrismaClient } from '@pay/persistence';
import {
  createDashboardUser,
  createMerchant,
  type DashboardSignIn,
  signedInOperator,
  signInDashboard,
} from '@pay/testing';
import request from 'supertest';
import type { App } from 'supertest/types';
import { dashboardRoutes, type Route } from '../../testing/dashboard-routes';
import { reaches } from '../../kernel/auth/session/role-reach';
import { type GatewayApp, startTestGateway } from '../../testing/test-gateway';

describe('dashboard roles: every /dashboard/api route, each role (real Postgres)', () => {
  let gateway: GatewayApp;
  let http: App;
  let prisma: PrismaClient;
  const routes = dashboardRoutes().map((r) => ({ ...r, url: r.path.replace(/:[A-Za-z]+/g, 'X-1') }));
  // Signing out ends the session the walk uses: it goes last.
  routes.sort(
    (a, b) =>
      Number(a.method === 'delete' && a.url === '/dashboard/api/session') -
      Number(b.method === 'delete' && b.url === '/dashboard/api/session'),
  );

  beforeAll(async () => {
    gateway = await startTestGateway({});
    http = gateway.app.getHttpServer();
    prisma = gateway.prisma;
  });
  afterAll(() => gateway.close());

  async function signedIn(merchantId: number, merchantRole: MerchantRole): Promise<DashboardSignIn> {
    const user = await createDashboardUser(prisma, { merchantId, merchantRole });
    return signInDashboard(http as Server, user);
  }

  const call = (route: Route & { url: string }, s: DashboardSignIn) => {
    const r = request(http)[route.method](route.url).set('Cookie', s.cookie).set('X-CSRF-Token', s.csrfToken);
    return route.method === 'get' ? r : r.send({});
  };

  it('finds the routes, the reads, the tokens, the payouts, the reports among them', () => {
    expect(routes.length).toBeGreaterThanOrEqual(30);
    const reachOf = (method: string, url: string) => routes.find((r) => r.method === method && r.url === url)?.reach;
    expect(reachOf('post', '/dashboard/api/tokens')).toBe('tokens:manage');
    expect(reachOf('post', '/dashboard/api/payouts/batch')).toBe('payouts:write');
    expect(reachOf('post', '/dashboard/api/recon')).toBe('reports:read');
    expect(reachOf('get', '/dashboard/api/payins')).toBe('payins:read');
    expect(reachOf('get', '/dashboard/api/session')).toBe('any');
  });

  it.each(MERCHANT_ROLES)(
    'answers 403 ROLE_REQUIRED to a %s on every route its role does not reach, and lets it into the others',
    async (role) => {
      const { merchant } = await createMerchant(prisma);
      await prisma.merchant.update({
        where: { id: merchant.id },
        data: { rateLimitRead: 10_000, rateLimitWrite: 10_000, rateLimitExport: 10_000 },
      });
      const session = await signedIn(merchant.id, role);
      const outcomes = [];
      for (const route of routes) {
        const res = await call(route, session);
        outcomes.push({
          route: `${route.method.toUpperCase()} ${route.url}`,
          roleRequired: res.body?.code === 'ROLE_REQUIRED',
          status: res.status,
        });
      }
      const expected = routes.map((route) => ({
        route: `${route.method.toUpperCase()} ${route.url}`,
        roleRequired: !reaches(role, route.reach),
      }));
      expect(outcomes.map(({ route, roleRequired }) => ({ route, roleRequired }))).toEqual(expected);
      for (const o of outcomes.filter((o) => o.roleRequired)) expect(o.status).toBe(403);
      for (const o of outcomes.filter((o) => !o.roleRequired)) expect(o.status).not.toBe(500);
    },
  );

  it('names what the route needs; a refused write changes nothing; a role change applies on the next request', async () => {
    const { merchant } = await createMerchant(prisma);
    const user = await createDashboardUser(prisma, { merchantId: merchant.id, merchantRole: 'viewer' });
    const session = await signInDashboard(http as Server, user);
    const before = await prisma.apiToken.count({ where: { merchantId: merchant.id } });
    const issue = () =>
      request(http)
        .post('/dashboard/api/tokens')
        .set('Cookie', session.cookie)
        .set('X-CSRF-Token', session.csrfToken)
        .send({ label: 'x' });
    const refused = await issue();
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      status: false,
      code: 'ROLE_REQUIRED',
      message: 'Your role (viewer) does not allow this: it needs tokens:manage',
    });
    expect(await prisma.apiToken.count({ where: { merchantId: merchant.id } })).toBe(before);
    const me = await request(http).get('/dashboard/api/session').set('Cookie', session.cookie);
    expect(me.body.data.user).toMatchObject({
      merchantRole: 'viewer',
      permissions: ['balance:read', 'payins:read', 'payouts:read'],
    });

    await prisma.$executeRaw`UPDATE dashboard_users SET merchant_role = 'developer' WHERE id = ${user.userId}`;
    expect((await issue()).status).toBe(201);
    expect(await prisma.apiToken.count({ where: { merchantId: merchant.id } })).toBe(before + 1);
  });

  it('the console creates a merchant user with a role and changes roles (audited), keeping the last owner', async () => {
    const { merchant } = await createMerchant(prisma);
    const operator = await signedInOperator(prisma, gateway.internalServer);
    const console = (method: 'post' | 'put', path: string, body: object) =>
      request(gateway.internalServer)
        [method](`/console/api${path}`)
        .set('Cookie', operator.cookie)
        .set('X-CSRF-Token', operator.csrfToken)
        .send(body);
    const created = await console('post', `/merchants/${merchant.id}/users`, {
      email: `finance-${merchant.id}@roles.example`,
      merchantRole: 'finance',
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ role: 'merchant', merchantRole: 'finance' });
    const owner = await createDashboardUser(prisma, { merchantId: merchant.id });

    const demoted = await console('put', `/users/${created.body.data.userId}/role`, { merchantRole: 'viewer' });
    expect(demoted.status).toBe(200);
    expect(demoted.body.data).toMatchObject({ userId: created.body.data.userId, merchantRole: 'viewer' });
    const audit = await prisma.$queryRaw<{ operator_user_id: bigint; details: { merchantRole?: string } }[]>`
      SELECT operator_user_id, details FROM operator_audit_log
       WHERE action = 'dashboard-user.role' AND target = ${`dashboard-user:${created.body.data.userId}`}`;
    expect(audit.map((r) => [Number(r.operator_user_id), r.details.merchantRole])).toEqual([
      [operator.userId, 'viewer'],
    ]);

    const lastOwner = await console('put', `/users/${owner.userId}/role`, { merchantRole: 'developer' });
    expect(lastOwner.status).toBe(409);
    expect(lastOwner.body).toMatchObject({ status: false, code: 'CONFLICT' });
    expect(lastOwner.body.message).toMatch(/must keep at least one owner/);
    expect((await console('put', `/users/${owner.userId}/role`, { merchantRole: 'admin' })).status).toBe(400);
  });
});
