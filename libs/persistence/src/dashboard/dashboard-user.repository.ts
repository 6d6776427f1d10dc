import type { MerchantRole } from '@pay/domain';
import type { Pool } from 'pg';
import { sql, type SqlClient, sqlClient } from '../client/sql';

export type DashboardRole = 'merchant' | 'operator';

export interface DashboardUser {
  id: number;
  email: string;
  role: DashboardRole;
  merchantId: number | null;
  /** A merchant user's role (docs/access.md); null for operators */
  merchantRole: MerchantRole | null;
  passwordHash: string | null;
  totpSecret: string | null;
  totpEnabledAt: Date | null;
  failedSignIns: number;
  lockedUntil: Date | null;
  disabledAt: Date | null;
  createdAt: Date;
  /** A merchant user's merchant is active; always true for operators */
  merchantActive: boolean;
}

interface UserRow {
  id: bigint;
  email: string;
  role: DashboardRole;
  merchant_id: number | null;
  merchant_role: MerchantRole | null;
  password_hash: string | null;
  totp_secret: string | null;
  totp_enabled_at: Date | null;
  failed_sign_ins: number;
  locked_until: Date | null;
  disabled_at: Date | null;
  created_at: Date;
  merchant_active: boolean | null;
}

const toUser = (r: UserRow): DashboardUser => ({
  id: Number(r.id),
  email: r.email,
  role: r.role,
  merchantId: r.merchant_id,
  merchantRole: r.merchant_role,
  passwordHash: r.password_hash,
  totpSecret: r.totp_secret,
  totpEnabledAt: r.totp_enabled_at,
  failedSignIns: r.failed_sign_ins,
  lockedUntil: r.locked_until,
  disabledAt: r.disabled_at,
  createdAt: r.created_at,
  merchantActive: r.role === 'operator' || r.merchant_active === true,
});

/** Consecutive failed sign-ins that lock a user, and for how long (decision 0023). */
export const LOCKOUT_FAILURES = 5;
export const LOCKOUT_MS = 15 * 60_000;

/** Emails are compared and stored lower-cased and trimmed. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

/** Dashboard and console users (table dashboard_users), through plain SQL. */
export class DashboardUserRepository {
  private readonly db: SqlClient;

  constructor(pool: Pool) {
    this.db = sqlClient(pool);
  }

  /** Whether a merchant user's merchant exists. */
  async merchantExists(merchantId: number): Promise<boolean> {
    return (await this.db.query(sql`SELECT 1 FROM merchants WHERE id = ${merchantId}`)).length === 1;
  }

  async insert(
    tx: SqlClient,
    user: {
      email: string;
      role: DashboardRole;
      merchantId: number | null;
      /** A merchant user's role; owner when left out */
      merchantRole?: MerchantRole | null;
      passwordHash?: string | null;
    },
  ): Promise<DashboardUser> {
    const merchantRole = user.role === 'merchant' ? (user.merchantRole ?? 'owner') : null;
    const [row] = await tx.query<UserRow>(
      sql`INSERT INTO dashboard_users (email, role, merchant_id, merchant_role, password_hash) VALUES (${normaliseEmail(user.email)}, ${user.role}, ${user.merchantId}, ${merchantRole}, ${user.passwordHash ?? null}) RETURNING *, true AS merchant_active`,
    );
    return toUser(row);
  }

  async findByEmail(email: string): Promise<DashboardUser | undefined> {
    const [row] = await this.db.query<UserRow>(
      sql`SELECT u.*, m.is_active AS merchant_active FROM dashboard_users u LEFT JOIN merchants m ON m.id = u.merchant_id WHERE u.email = ${normaliseEmail(email)}`,
    );
    return row && toUser(row);
  }

  /**
   * The user who may sign in on an audience's endpoint with this email: a user of `role` only, so
   * the merchant dashboard never loads an operator (nor the console a merchant user). Another
   * audience's user is not found, exactly as an unknown email.
   */
  async findForSignIn(email: string, role: DashboardRole): Promise<DashboardUser | undefined> {
    const [row] = await this.db.query<UserRow>(
      sql`SELECT u.*, m.is_active AS merchant_active FROM dashboard_users u LEFT JOIN merchants m ON m.id = u.merchant_id WHERE u.email = ${normaliseEmail(email)} AND u.role = ${role}`,
    );
    return row && toUser(row);
  }

  async findById(id: number): Promise<DashboardUser | undefined> {
    const [row] = await this.db.query<UserRow>(
      sql`SELECT u.*, m.is_active AS merchant_active FROM dashboard_users u LEFT JOIN merchants m ON m.id = u.merchant_id WHERE u.id = ${id}`,
    );
    return row && toUser(row);
  }

  async list(): Promise<DashboardUser[]> {
    return (
      await this.db.query<UserRow>(
        sql`SELECT u.*, m.is_active AS merchant_active FROM dashboard_users u LEFT JOIN merchants m ON m.id = u.merchant_id ORDER BY u.id`,
      )
    ).map(toUser);
  }

  /**
   * One more consecutive failure; the LOCKOUT_FAILURES-th locks the user until now + LOCKOUT_MS
   * (and starts the count again). One statement, so concurrent failures each count.
   */
  async recordFailure(userId: number, now: Date): Promise<{ lockedUntil: Date | null }> {
    const lockUntil = new Date(now.getTime() + LOCKOUT_MS);
    const [row] = await this.db.query<{ locked_until: Date | null }>(
      sql`UPDATE dashboard_users
             SET failed_sign_ins = CASE WHEN failed_sign_ins + 1 >= ${LOCKOUT_FAILURES} THEN 0 ELSE failed_sign_ins + 1 END,
                 locked_until = CASE WHEN failed_sign_ins + 1 >= ${LOCKOUT_FAILURES} THEN ${lockUntil}::timestamptz ELSE locked_until END
           WHERE id = ${userId}
       RETURNING locked_until`,
    );
    const lockedUntil = row?.locked_until ?? null;
    return { lockedUntil: lockedUntil && lockedUntil > now ? lockedUntil : null };
  }

  /** A successful confirmation: the failure count starts again. */
  async resetFailures(userId: number): Promise<void> {
    await this.db.execute(
      sql`UPDATE dashboard_users SET failed_sign_ins = 0 WHERE id = ${userId} AND failed_sign_ins <> 0`,
    );
  }

  /**
   * A successful sign-in (the password, and the code when TOTP is on): the failure count starts
   * again and a lockout ends, as the user has just proved both factors.
   */
  async clearFailures(userId: number): Promise<void> {
    await this.db.execute(
      sql`UPDATE dashboard_users SET failed_sign_ins = 0, locked_until = NULL
           WHERE id = ${userId} AND (failed_sign_ins <> 0 OR locked_until IS NOT NULL)`,
    );
  }

  /** Clears a lockout and the failure count; false when there is no such user. */
  async unlock(userId: number): Promise<boolean> {
    return (
      (await this.db.execute(
        sql`UPDATE dashboard_users SET failed_sign_ins = 0, locked_until = NULL WHERE id = ${userId}`,
      )) === 1
    );
  }

  /** A new secret waiting for its first code (totp/setup); refused (false) while TOTP is on. */
  async setPendingTotpSecret(userId: number, secret: string): Promise<boolean> {
    return (
      (await this.db.execute(
        sql`UPDATE dashboard_users SET totp_secret = ${secret}, totp_last_step = NULL WHERE id = ${userId} AND totp_enabled_at IS NULL`,
      )) === 1
    );
  }

  /**
   * Accepts a TOTP code of time step `step` (unix seconds / 30) of `secret`, once: true when the
   * user's TOTP is on with that secret and no code of this step or a later one was accepted
   * before. One conditional UPDATE, so of two requests with the same code exactly one gets true.
   */
  async useTotpStep(userId: number, secret: string, step: number): Promise<boolean> {
    return (
      (await this.db.execute(
        sql`UPDATE dashboard_users SET totp_last_step = ${step}
             WHERE id = ${userId} AND totp_secret = ${secret} AND totp_enabled_at IS NOT NULL
               AND (totp_last_step IS NULL OR totp_last_step < ${step})`,
      )) === 1
    );
  }

  /** Turns TOTP on with the pending secret; the confirming code's step counts as used. */
  async enableTotp(userId: number, secret: string, now: Date, step: number): Promise<boolean> {
    return (
      (await this.db.execute(
        sql`UPDATE dashboard_users SET totp_enabled_at = ${now}, totp_last_step = ${step}
             WHERE id = ${userId} AND totp_secret = ${secret} AND totp_enabled_at IS NULL
               AND (totp_last_step IS NULL OR totp_last_step < ${step})`,
      )) === 1
    );
  }

  /** Turns TOTP off with a code of step `step` of `secret`, unless that step (or a later one) was already used. */
  async disableTotp(userId: number, secret: string, step: number): Promise<boolean> {
    return (
      (await this.db.execute(
        sql`UPDATE dashboard_users SET totp_enabled_at = NULL, totp_secret = NULL, totp_last_step = NULL
             WHERE id = ${userId} AND totp_secret = ${secret} AND totp_enabled_at IS NOT NULL
               AND (totp_last_step IS NULL OR totp_last_step < ${step})`,
      )) === 1
    );
  }

  /** Disables the user (a user disabled already keeps its first disabled_at); false when there is no such user. */
  async disable(tx: SqlClient, userId: number, now: Date): Promise<boolean> {
    return (
      (await tx.execute(
        sql`UPDATE dashboard_users SET disabled_at = coalesce(disabled_at, ${now}) WHERE id = ${userId}`,
      )) === 1
    );
  }

  /**
   * Locks the merchant's enabled owners (FOR UPDATE, in `tx`) and counts them: a change that would
   * take away an owner checks the count under the lock, so two concurrent demotions cannot both
   * leave the merchant without one.
   */
  async lockOwners(tx: SqlClient, merchantId: number): Promise<number[]> {
    const rows = await tx.query<{ id: bigint }>(
      sql`SELECT id FROM dashboard_users
           WHERE merchant_id = ${merchantId} AND merchant_role = 'owner' AND disabled_at IS NULL
           ORDER BY id FOR UPDATE`,
    );
    return rows.map((r) => Number(r.id));
  }

  /** Sets a merchant user's role; false when there is no such merchant user. */
  async setMerchantRole(tx: SqlClient, userId: number, role: MerchantRole): Promise<boolean> {
    return (
      (await tx.execute(
        sql`UPDATE dashboard_users SET merchant_role = ${role} WHERE id = ${userId} AND role = 'merchant'`,
      )) === 1
    );
  }

  /** Enables the user again; false when there is no such user. */
  async enable(userId: number): Promise<boolean> {
    return (await this.db.execute(sql`UPDATE dashboard_users SET disabled_at = NULL WHERE id = ${userId}`)) === 1;
  }
}
