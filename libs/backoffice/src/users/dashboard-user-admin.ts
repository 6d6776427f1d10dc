import { BackofficeError, BackofficeErrorCode } from '@pay/contracts';
import {
  DashboardPasswordLinkRepository,
  type DashboardRole,
  DashboardSessionRepository,
  type DashboardUser,
  DashboardUserRepository,
  inTransaction,
  normaliseEmail,
  type SqlClient,
} from '@pay/persistence';
import { isMerchantRole, MERCHANT_ROLES, type MerchantRole } from '@pay/domain';
import type { Pool } from 'pg';
import { merchantNotFound } from '../merchants/merchant-admin';
import { invalidInput } from '../merchants/merchant-input';

/** Where set-password links point when DASHBOARD_PUBLIC_URL / CONSOLE_PUBLIC_URL are not set. */
export const DEFAULT_DASHBOARD_PUBLIC_URL = 'http://localhost:3000/dashboard';
export const DEFAULT_CONSOLE_PUBLIC_URL = 'http://localhost:3001/console';

/** The web apps' base URLs, which set-password links are built on. */
export interface DashboardUrls {
  dashboard: string;
  console: string;
}

/** `<base>/#/set-password/<token>`: the merchant dashboard for merchant users, the console for operators. */
export function setPasswordUrl(urls: DashboardUrls, role: DashboardRole, token: string): string {
  return `${(role === 'merchant' ? urls.dashboard : urls.console).replace(/\/+$/, '')}/#/set-password/${token}`;
}

const invalidRole = () => invalidInput('merchantRole', `merchantRole must be one of ${MERCHANT_ROLES.join(', ')}`);

const userNotFound = (key: number | string) =>
  new BackofficeError(BackofficeErrorCode.DashboardUserNotFound, `dashboard user ${key} not found`);

/** A user as operators see it (never a hash or a secret). */
export interface DashboardUserView {
  userId: number;
  email: string;
  role: DashboardRole;
  merchantId: number | null;
  /** A merchant user's role (docs/access.md); null for operators */
  merchantRole: MerchantRole | null;
  passwordSet: boolean;
  totpEnabled: boolean;
  lockedUntil: Date | null;
  disabled: boolean;
  createdAt: Date;
}

/** A user and its new one-time set-password link (shown once). */
export interface DashboardUserLink {
  userId: number;
  email: string;
  role: DashboardRole;
  merchantId: number | null;
  merchantRole: MerchantRole | null;
  setPasswordUrl: string;
}

export function describeDashboardUser(u: DashboardUser, now: Date = new Date()): DashboardUserView {
  return {
    userId: u.id,
    email: u.email,
    role: u.role,
    merchantId: u.merchantId,
    merchantRole: u.merchantRole,
    passwordSet: u.passwordHash !== null,
    totpEnabled: u.totpEnabledAt !== null,
    lockedUntil: u.lockedUntil && u.lockedUntil > now ? u.lockedUntil : null,
    disabled: u.disabledAt !== null,
    createdAt: u.createdAt,
  };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Dashboard and console users, the one place the admin CLI (`admin user ...`), the ops API
 * (/ops/dashboard-users) and the console call: a user never gets a password from an operator,
 * only a one-time link to set one. Unknown user, refused input and a taken email are BackofficeErrors.
 */
export class DashboardUserAdmin {
  private readonly users: DashboardUserRepository;
  private readonly links: DashboardPasswordLinkRepository;
  private readonly sessions: DashboardSessionRepository;

  constructor(
    private readonly pool: Pool,
    private readonly urls: DashboardUrls,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.users = new DashboardUserRepository(pool);
    this.links = new DashboardPasswordLinkRepository(pool);
    this.sessions = new DashboardSessionRepository(pool);
  }

  /** `merchantRole`: a merchant user's role (owner when left out); an operator has none. */
  async create(input: {
    email: string;
    role: DashboardRole;
    merchantId?: number | null;
    merchantRole?: string | null;
  }): Promise<DashboardUserLink> {
    const email = normaliseEmail(input.email);
    if (email.length > 254 || !EMAIL.test(email)) throw invalidInput('email', 'email must be an email address');
    if (input.role !== 'merchant' && input.role !== 'operator')
      throw invalidInput('role', "role must be 'merchant' or 'operator'");
    const merchantId = input.merchantId ?? null;
    if (input.role === 'merchant' && merchantId === null)
      throw invalidInput('merchantId', 'a merchant user needs merchantId');
    if (input.role === 'operator' && merchantId !== null)
      throw invalidInput('merchantId', 'an operator belongs to no merchant: leave merchantId out');
    const merchantRole = input.merchantRole ?? null;
    if (input.role === 'operator' && merchantRole !== null)
      throw invalidInput('merchantRole', 'an operator has no merchant role: leave merchantRole out');
    if (merchantRole !== null && !isMerchantRole(merchantRole)) throw invalidRole();
    if (merchantId !== null && !(await this.merchantExists(merchantId))) throw merchantNotFound(merchantId);
    const now = this.clock();
    try {
      return await inTransaction(this.pool, async (tx) => {
        const user = await this.users.insert(tx, {
          email,
          role: input.role,
          merchantId,
          merchantRole: merchantRole as MerchantRole | null,
        });
        const token = await this.links.create(tx, user.id, now);
        return this.linkOf(user, token);
      });
    } catch (err) {
      if ((err as { code?: string }).code === '23505')
        throw new BackofficeError(BackofficeErrorCode.Conflict, `a user with email ${email} already exists`);
      throw err;
    }
  }

  /** A new set-password link (earlier unused ones stop working); the password stays until the link is used. */
  async resetLink(key: number | string): Promise<DashboardUserLink> {
    const user = await this.get(key);
    const token = await inTransaction(this.pool, (tx) => this.links.create(tx, user.id, this.clock()));
    return this.linkOf(user, token);
  }

  /** Clears a lockout (and the failure count). */
  async unlock(key: number | string): Promise<DashboardUserView> {
    const user = await this.get(key);
    await this.users.unlock(user.id);
    return describeDashboardUser(await this.get(user.id), this.clock());
  }

  /**
   * Disables the user: in one transaction, sign-in stops working, every session of the user is
   * revoked (its next request is 401 SESSION_REQUIRED) and its unused set-password links are used
   * up (enabling the user again does not bring them back). Disabling a disabled user changes nothing.
   * `by`: the operator asking, which may not be the user.
   */
  async disable(key: number | string, by?: { operatorUserId: number }): Promise<DashboardUserView> {
    // The console's operators cannot disable themselves (the last operator would lock everyone out); the CLI can.
    if (by && key === by.operatorUserId)
      throw new BackofficeError(BackofficeErrorCode.Conflict, 'You cannot disable your own user; ask another operator');
    const user = await this.get(key);
    const now = this.clock();
    await inTransaction(this.pool, async (tx) => {
      if (user.disabledAt === null) await this.keepAnOwner(tx, user);
      await this.users.disable(tx, user.id, now);
      await this.sessions.revokeAllOf(user.id, now, tx);
      await this.links.expireAllOf(tx, user.id, now);
    });
    return describeDashboardUser(await this.get(user.id), now);
  }

  /**
   * Changes a merchant user's role (docs/access.md); it applies on the user's next request. Refused
   * for an operator, and (409) when it would leave the merchant without an enabled owner.
   */
  async setMerchantRole(key: number | string, role: string): Promise<DashboardUserView> {
    if (!isMerchantRole(role)) throw invalidRole();
    const user = await this.get(key);
    if (user.role !== 'merchant') throw invalidInput('merchantRole', 'an operator has no merchant role');
    await inTransaction(this.pool, async (tx) => {
      if (role !== 'owner' && user.disabledAt === null) await this.keepAnOwner(tx, user);
      await this.users.setMerchantRole(tx, user.id, role);
    });
    return describeDashboardUser(await this.get(user.id), this.clock());
  }

  /** 409 when `user` is its merchant's only enabled owner (the owners locked until the transaction ends). */
  private async keepAnOwner(tx: SqlClient, user: DashboardUser): Promise<void> {
    if (user.merchantId === null || user.merchantRole !== 'owner') return;
    const owners = await this.users.lockOwners(tx, user.merchantId);
    if (owners.length <= 1 && owners.includes(user.id))
      throw new BackofficeError(
        BackofficeErrorCode.Conflict,
        `merchant ${user.merchantId} must keep at least one owner: make another user owner first`,
      );
  }

  /** Lets a disabled user sign in again (with its password; its old sessions stay revoked). */
  async enable(key: number | string): Promise<DashboardUserView> {
    const user = await this.get(key);
    await this.users.enable(user.id);
    return describeDashboardUser(await this.get(user.id), this.clock());
  }

  async list(): Promise<DashboardUserView[]> {
    const now = this.clock();
    return (await this.users.list()).map((u) => describeDashboardUser(u, now));
  }

  /** A user by id or by email. */
  async get(key: number | string): Promise<DashboardUser> {
    const user = typeof key === 'number' ? await this.users.findById(key) : await this.users.findByEmail(key);
    if (!user) throw userNotFound(key);
    return user;
  }

  private linkOf(user: DashboardUser, token: string): DashboardUserLink {
    return {
      userId: user.id,
      email: user.email,
      role: user.role,
      merchantId: user.merchantId,
      merchantRole: user.merchantRole,
      setPasswordUrl: setPasswordUrl(this.urls, user.role, token),
    };
  }

  private async merchantExists(merchantId: number): Promise<boolean> {
    if (!Number.isInteger(merchantId) || merchantId < 1 || merchantId > 2_147_483_647) return false;
    return this.users.merchantExists(merchantId);
  }
}
