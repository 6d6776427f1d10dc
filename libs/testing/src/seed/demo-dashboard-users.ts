import { randomBytes } from 'node:crypto';
import { hashPassword, type PrismaClient } from '@pay/persistence';

export const DEMO_MERCHANT_USER_EMAIL = 'demo@merchant.example';
export const DEMO_OPERATOR_EMAIL = 'operator@console.example';

export interface DemoSignIn {
  email: string;
  /** Generated on this run; only its argon2id hash is stored */
  password: string;
}

/**
 * The local runner's dashboard users: one for the demo merchant, one operator, each with a
 * password generated now and set directly (no set-password link). Idempotent: a user that exists
 * gets the new password (the previous one was printed, never kept) and loses any lockout; a second
 * factor enrolled on an earlier run stays.
 */
export async function seedDemoDashboardUsers(
  prisma: PrismaClient,
  merchantId: number,
): Promise<{ merchant: DemoSignIn; operator: DemoSignIn }> {
  const upsert = async (email: string, role: 'merchant' | 'operator', merchant: number | null): Promise<DemoSignIn> => {
    // 18 random bytes: 24 URL-safe characters, within the 12..128 the policy allows.
    const password = randomBytes(18).toString('base64url');
    const passwordHash = await hashPassword(password);
    await prisma.$executeRaw`
      INSERT INTO dashboard_users (email, role, merchant_id, password_hash)
      VALUES (${email}, ${role}, ${merchant}::int, ${passwordHash})
      ON CONFLICT (email) DO UPDATE
        SET role = EXCLUDED.role, merchant_id = EXCLUDED.merchant_id, password_hash = EXCLUDED.password_hash,
            failed_sign_ins = 0, locked_until = NULL, disabled_at = NULL`;
    return { email, password };
  };
  return {
    merchant: await upsert(DEMO_MERCHANT_USER_EMAIL, 'merchant', merchantId),
    operator: await upsert(DEMO_OPERATOR_EMAIL, 'operator', null),
  };
}
