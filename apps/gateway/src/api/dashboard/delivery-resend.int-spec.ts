import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { createPgPool, WebhookDeliveryRepository } from '@pay/persistence';
import { createDashboardUser, createMerchant, signInDashboard, signedInMerchantUser } from '@pay/testing';
import type { Pool } from 'pg';
import request from 'supertest';
import { type GatewayApp, startTestGateway } from '../../testing/test-gateway';

/** The dashboard's resend of one of the merchant's callback deliveries (Developers page): its own only, by role, audited. */
describe('POST /dashboard/api/deliveries/:deliveryId/resend (real Postgres)', () => {
  let gateway: GatewayApp;
  let pub: Server;
  let pool: Pool;
  let deliveries: WebhookDeliveryRepository;

  beforeAll(async () => {
    gateway = await startTestGateway({});
    pub = gateway.app.getHttpServer();
    pool = createPgPool(process.env.DATABASE_URL as string, 2);
    deliveries = new WebhookDeliveryRepository(pool);
  });
  afterAll(async () => {
    await pool.end();
    await gateway?.close();
  });

  const failedDelivery = async (merchantId: number) => {
    const d = await deliveries.create(
      {
        eventId: `test.resend:${randomUUID()}`,
        eventType: 'payin.succeeded',
        merchantId,
        disbursementId: null,
        url: 'http://127.0.0.1:9/callback',
        body: '{"status":"success"}',
      },
      new Date(),
    );
    await pool.query(`UPDATE webhook_deliveries SET status = 'failed' WHERE id = $1`, [d.id]);
    return d;
  };

  it("resends its own failed delivery once (then already queued), audited; another merchant's is 404; a viewer is refused", async () => {
    const { merchant } = await createMerchant(prisma());
    const other = await createMerchant(prisma());
    const mine = await failedDelivery(merchant.id);
    const theirs = await failedDelivery(other.merchant.id);
    const user = await signedInMerchantUser(prisma(), pub, merchant.id);
    const post = (id: string, headers = user.headers) =>
      request(pub).post(`/dashboard/api/deliveries/${id}/resend`).set(headers).send({});

    const resent = await post(mine.id).expect(200);
    expect(resent.body).toMatchObject({
      message: 'Callback queued for resend',
      data: { deliveryId: mine.id, eventId: mine.eventId, status: 'pending' },
    });
    expect((await post(mine.id).expect(200)).body.message).toBe('Callback already queued');
    const row = await pool.query('SELECT status, resend_count FROM webhook_deliveries WHERE id = $1', [mine.id]);
    expect(row.rows).toEqual([{ status: 'pending', resend_count: 1 }]);
    const audit = await pool.query(
      `SELECT action, target FROM operator_audit_log WHERE merchant_id = $1 AND action = 'webhook-delivery.resend'`,
      [merchant.id],
    );
    expect(audit.rows).toEqual([
      { action: 'webhook-delivery.resend', target: `webhook-delivery:${mine.id}` },
      { action: 'webhook-delivery.resend', target: `webhook-delivery:${mine.id}` },
    ]);

    expect((await post(theirs.id).expect(404)).body).toMatchObject({ status: false, code: 'NOT_FOUND' });
    const untouched = await pool.query('SELECT status, resend_count FROM webhook_deliveries WHERE id = $1', [
      theirs.id,
    ]);
    expect(untouched.rows).toEqual([{ status: 'failed', resend_count: 0 }]);

    const viewer = await createDashboardUser(prisma(), { merchantId: merchant.id, merchantRole: 'viewer' });
    const signedIn = await signInDashboard(pub, viewer);
    expect((await post(mine.id, signedIn.headers).expect(403)).body).toMatchObject({ code: 'ROLE_REQUIRED' });
  });

  const prisma = () => gateway.prisma;
});
