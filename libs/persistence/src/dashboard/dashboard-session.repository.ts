import { randomBytes } from 'node:crypto';
import type { MerchantRole } from '@pay/domain';
import type { Pool } from 'pg';
import { sql, type SqlClient, sqlClient } from '../client/sql';
import type { MerchantRateLimits } from '../merchants/merchant-auth.repository';
import { hashToken } from '../merchants/token';
import type { DashboardRole } from './dashboard-user.repository';

/** Idle timeout, absolute lifetime, and how often a session's last_seen_at is written (decision 0023). */
export const SESSION_IDLE_MS = 30 * 60_000;
export const SESSION_ABSOLUTE_MS = 12 * 3_600_000;
export const SESSION_TOUCH_MS = 60_000;
/** How recently the password must have been proved for the actions marked @RequiresRecentAuth() (decision 0023). */
export const REAUTH_WINDOW_MS = 10 * 60_000;

/** A live session with what the guards need of its user and merchant. */
export interface DashboardSession {
  userId: number;
  email: string;
  role: DashboardRole;
  merchantId: number | null;
  /** A merchant user's role, read live with the session (a change applies on the next request); null for operators */
  merchantRole: MerchantRole | null;
  merchantName: string | null;
  /** False for an inactive merchant; true for operators */
  merchantActive: boolean;
  /** A merchant user's merchant's own rate limits (the dashboard spends the merchant's API budget); null for operators */
  merchantRateLimits: MerchantRateLimits | null;
  disabled: boolean;
  totpEnabled: boolean;
  csrfToken: string;
  /** When the user last proved its password (sign-in, or confirming it since): sensitive actions want it recent */
  authenticatedAt: Date;
}

interface SessionRow {
  user_id: bigint;
  email: string;
  role: DashboardRole;
  merchant_id: number | null;
  merchant_role: MerchantRole | null;
  merchant_name: string | null;
  merchant_active: boolean | null;
  rate_limit_read: number | null;
  rate_limit_write: number | null;
  rate_limit_export: number | null;
  disabled_at: Date | null;
  totp_enabled_at: Date | null;
  csrf_token: string;
  last_seen_at: Date;
  authenticated_at: Date;
}

/** Sessions (table dashboard_sessions): the cookie carries 256 random bits, the row only their SHA-256. */
export class DashboardSessionRepository {
  private readonly db: SqlClient;

  constructor(pool: Pool) {
    this.db = sqlClient(pool);
  }

  /** A new session: the cookie value (shown once) and its CSRF token. */
  async create(userId: number, now: Date): Promise<{ token: string; csrfToken: string }> {
    const token = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(32).toString('base64url');
    await this.db.execute(
      sql`INSERT INTO dashboard_sessions (id_hash, user_id, csrf_token, created_at, last_seen_at, authenticated_at, expires_at)
          VALUES (${hashToken(token)}, ${userId}, ${csrfToken}, ${now}, ${now}, ${now}, ${new Date(now.getTime() + SESSION_ABSOLUTE_MS)})`,
    );
    return { token, csrfToken };
  }

  /**
   * The session of a cookie value when it is neither revoked, past its absolute expiry, nor idle
   * longer than SESSION_IDLE_MS; its last_seen_at moves to `now` at most once a SESSION_TOUCH_MS.
   */
  async find(token: string, now: Date): Promise<DashboardSession | undefined> {
    const idHash = hashToken(token);
    const [row] = await this.db.query<SessionRow>(
      sql`SELECT s.user_id, s.csrf_token, s.last_seen_at, s.authenticated_at, u.email, u.role, u.merchant_id, u.merchant_role, u.disabled_at, u.totp_enabled_at,
                 m.name AS merchant_name, m.is_active AS merchant_active, m.rate_limit_read, m.rate_limit_write, m.rate_limit_export
            FROM dashboard_sessions s
            JOIN dashboard_users u ON u.id = s.user_id
            LEFT JOIN merchants m ON m.id = u.merchant_id
           WHERE s.id_hash = ${idHash} AND s.revoked_at IS NULL AND s.expires_at > ${now} AND s.last_seen_at > ${new Date(now.getTime() - SESSION_IDLE_MS)}`,
    );
    if (!row) return undefined;
    if (now.getTime() - row.last_seen_at.getTime() >= SESSION_TOUCH_MS) {
      await this.db.execute(
        sql`UPDATE dashboard_sessions SET last_seen_at = ${now} WHERE id_hash = ${idHash} AND last_seen_at < ${now}`,
      );
    }
    return {
      userId: Number(row.user_id),
      email: row.email,
      role: row.role,
      merchantId: row.merchant_id,
      merchantRole: row.merchant_role,
      merchantName: row.merchant_name,
      merchantActive: row.role === 'operator' || row.merchant_active === true,
      merchantRateLimits:
        row.merchant_id === null
          ? null
          : { read: row.rate_limit_read, write: row.rate_limit_write, export: row.rate_limit_export },
      disabled: row.disabled_at !== null,
      totpEnabled: row.totp_enabled_at !== null,
      csrfToken: row.csrf_token,
      authenticatedAt: row.authenticated_at,
    };
  }

  /** The user of this live session proved its password again (POST .../session/confirm). */
  async markAuthenticated(token: string, now: Date): Promise<void> {
    await this.db.execute(
      sql`UPDATE dashboard_sessions SET authenticated_at = ${now} WHERE id_hash = ${hashToken(token)} AND revoked_at IS NULL`,
    );
  }

  /** Sign-out: the session of this cookie value stops working (idempotent). */
  async revoke(token: string, now: Date): Promise<void> {
    await this.db.execute(
      sql`UPDATE dashboard_sessions SET revoked_at = ${now} WHERE id_hash = ${hashToken(token)} AND revoked_at IS NULL`,
    );
  }

  /** Every session of a user but the one of `keepToken` stops working (TOTP turned on or off from that session). */
  async revokeOthersOf(userId: number, keepToken: string, now: Date): Promise<number> {
    return this.db.execute(
      sql`UPDATE dashboard_sessions SET revoked_at = ${now} WHERE user_id = ${userId} AND revoked_at IS NULL AND id_hash <> ${hashToken(keepToken)}`,
    );
  }

  /** Every session of a user stops working (password set, user disabled); `db`: a transaction's client, else the pool. */
  async revokeAllOf(userId: number, now: Date, db: SqlClient = this.db): Promise<number> {
    return db.execute(
      sql`UPDATE dashboard_sessions SET revoked_at = ${now} WHERE user_id = ${userId} AND revoked_at IS NULL`,
    );
  }
}
