import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { createDashboardUser, createMerchant } from '@pay/testing';
import { freshAddress, shapeOf, signInFrom } from '../../testing/sign-in-attempts';
import { type GatewayApp, startTestGateway } from '../../testing/test-gateway';

/**
 * Issue 39 item 4: each sign-in endpoint knows only its own audience. An operator's email on the
 * merchant dashboard (the public port) is an unknown email there, attempt by attempt, and nothing
 * an attacker does with it there reaches the operator's account; likewise a merchant user's email
 * on the console.
 */
describe('sign-in looks up only its own audience (real Postgres and Redis)', () => {
  let gateway: GatewayApp;
  let pub: Server;
  let internal: Server;

  beforeAll(async () => {
    gateway = await startTestGateway({ TRUSTED_PROXIES: 'loopback', RATE_LIMIT_REFUSAL_DELAY_MS: '0' });
    pub = gateway.app.getHttpServer();
    internal = gateway.internalServer;
  });
  afterAll(() => gateway?.close());

  const counters = async (userId: number) =>
    (
      await gateway.prisma.$queryRaw<
        { failed_sign_ins: number; locked_until: Date | null }[]
      >`SELECT failed_sign_ins, locked_until FROM dashboard_users WHERE id = ${userId}`
    )[0];

  /**
   * Four wrong passwords, the right one, two wrong ones again: for the other audience's user from
   * one address and for an unknown email from another, the same answers (status, body, headers).
   */
  async function expectLikeAnUnknownEmail(
    server: Server,
    path: '/dashboard/api/session' | '/console/api/session',
    user: { email: string; password: string },
  ): Promise<void> {
    const passwords = ['wrong password one', 'wrong password two', 'wrong password 3', 'wrong password 4'];
    const sequence = [...passwords, user.password, 'wrong password 5', 'wrong password 6'];
    const [userAddress, unknownAddress] = [freshAddress(), freshAddress()];
    const unknown = `nobody-${randomUUID()}@test.example`;
    for (const [i, password] of sequence.entries()) {
      const [asUser, asUnknown] = await Promise.all([
        signInFrom(server, path, userAddress, { email: user.email, password }),
        signInFrom(server, path, unknownAddress, { email: unknown, password }),
      ]);
      expect({ attempt: i + 1, ...shapeOf(asUser) }).toEqual({ attempt: i + 1, ...shapeOf(asUnknown) });
      expect(asUser.status).not.toBe(200);
      expect(asUser.status).not.toBe(423);
    }
  }

  it("an operator's email on the dashboard answers as an unknown email, and the operator is neither counted nor locked", async () => {
    const operator = await createDashboardUser(gateway.prisma);
    await expectLikeAnUnknownEmail(pub, '/dashboard/api/session', operator);
    expect(await counters(operator.userId)).toEqual({ failed_sign_ins: 0, locked_until: null });
    // The console, from the very address the attack came from too: the operator signs in at once.
    const onConsole = await signInFrom(internal, '/console/api/session', freshAddress(), {
      email: operator.email,
      password: operator.password,
    });
    expect(onConsole.status).toBe(200);
    expect(onConsole.body.data.user).toMatchObject({ id: operator.userId, role: 'operator' });
  });

  it("a merchant user's email on the console answers as an unknown email, and the user is neither counted nor locked", async () => {
    const { merchant } = await createMerchant(gateway.prisma);
    const user = await createDashboardUser(gateway.prisma, { merchantId: merchant.id });
    await expectLikeAnUnknownEmail(internal, '/console/api/session', user);
    expect(await counters(user.userId)).toEqual({ failed_sign_ins: 0, locked_until: null });
    const { email, password } = user;
    expect((await signInFrom(pub, '/dashboard/api/session', freshAddress(), { email, password })).status).toBe(200);
  });
});
