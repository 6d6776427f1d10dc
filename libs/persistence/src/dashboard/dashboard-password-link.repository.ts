import type { Pool } from 'pg';
import { inTransaction, sql, type SqlClient, sqlClient } from '../client/sql';
import { generateToken, hashToken } from '../merchants/token';
import type { DashboardRole } from './dashboard-user.repository';

/** How long a set-password link can be used (decision 0023). */
export const PASSWORD_LINK_TTL_MS = 72 * 3_600_000;

/** A fresh link token: 256 random bits, base64url (it travels in a URL fragment). */
export function generateLinkToken(): { token: string; hash: string } {
  const { token } = generateToken();
  // generateToken's value carries the API-token prefix; a link token does not need one.
  const bare = token.slice(token.indexOf('_') + 1);
  return { token: bare, hash: hashToken(bare) };
}

/** One-time set-password links (table dashboard_password_links): only the token's SHA-256 is stored. */
export class DashboardPasswordLinkRepository {
  constructor(private readonly pool: Pool) {}

  /** A new link for the user; its earlier unused links stop working. Returns the token (shown once). */
  async create(tx: SqlClient, userId: number, now: Date): Promise<string> {
    const { token, hash } = generateLinkToken();
    await tx.execute(
      sql`UPDATE dashboard_password_links SET used_at = ${now} WHERE user_id = ${userId} AND used_at IS NULL`,
    );
    await tx.execute(
      sql`INSERT INTO dashboard_password_links (token_hash, user_id, created_at, expires_at) VALUES (${hash}, ${userId}, ${now}, ${new Date(now.getTime() + PASSWORD_LINK_TTL_MS)})`,
    );
    return token;
  }

  /** The user's unused links stop working (the user is disabled). */
  async expireAllOf(tx: SqlClient, userId: number, now: Date): Promise<void> {
    await tx.execute(
      sql`UPDATE dashboard_password_links SET used_at = ${now} WHERE user_id = ${userId} AND used_at IS NULL`,
    );
  }

  /**
   * Whether the link could be used now (consume checks again, atomically): a made-up token is
   * refused before any password is hashed for it.
   */
  async isUsable(token: string, role: DashboardRole, now: Date): Promise<boolean> {
    const rows = await sqlClient(this.pool).query(
      sql`SELECT 1 FROM dashboard_password_links l JOIN dashboard_users u ON u.id = l.user_id
           WHERE l.token_hash = ${hashToken(token)} AND u.role = ${role}
             AND l.used_at IS NULL AND l.expires_at > ${now} AND u.disabled_at IS NULL`,
    );
    return rows.length === 1;
  }

  /**
   * Uses the link once: when it exists, is unused, unexpired and belongs to a user of `role`,
   * sets that user's password, clears a lockout, revokes the user's sessions and answers the
   * user id; otherwise undefined and nothing changes.
   */
  async consume(token: string, role: DashboardRole, passwordHash: string, now: Date): Promise<number | undefined> {
    return inTransaction(this.pool, async (tx) => {
      const [link] = await tx.query<{ user_id: bigint }>(
        sql`UPDATE dashboard_password_links l SET used_at = ${now}
              FROM dashboard_users u
             WHERE l.token_hash = ${hashToken(token)} AND l.user_id = u.id AND u.role = ${role}
               AND l.used_at IS NULL AND l.expires_at > ${now} AND u.disabled_at IS NULL
         RETURNING l.user_id`,
      );
      if (!link) return undefined;
      await tx.execute(
        sql`UPDATE dashboard_users SET password_hash = ${passwordHash}, failed_sign_ins = 0, locked_until = NULL WHERE id = ${link.user_id}`,
      );
      await tx.execute(
        sql`UPDATE dashboard_sessions SET revoked_at = ${now} WHERE user_id = ${link.user_id} AND revoked_at IS NULL`,
      );
      return Number(link.user_id);
    });
  }
}
