import { SetMetadata } from '@nestjs/common';
import { ErrorCode } from '@pay/contracts';
import { type MerchantRole, type Permission, roleAllows } from '@pay/domain';
import { ApiError } from '@pay/platform';

export const ROLE_REACH = 'dashboardRoleReach';

/** What a /dashboard/api route needs of the merchant user's role (docs/access.md); 'any': every role (the session, the own account). */
export type Reach = Permission | 'any';

/**
 * The permission a merchant dashboard route needs (docs/access.md's table): MerchantSessionGuard
 * refuses a user whose role does not have it with 403 ROLE_REQUIRED, before the route reads or
 * changes anything. Every /dashboard/api route declares one; a route declaring none is the
 * owner's only.
 */
export const RoleReach = (reach: Reach) => SetMetadata(ROLE_REACH, reach);

/** Whether a merchant user of `role` reaches a route declaring `reach` (undefined: none declared). */
export function reaches(role: MerchantRole, reach: Reach | undefined): boolean {
  if (reach === 'any') return true;
  return reach === undefined ? role === 'owner' : roleAllows(role, reach);
}

/** 403 ROLE_REQUIRED unless the role reaches the route; the message names what it needs. */
export function requireReach(role: MerchantRole | null, reach: Reach | undefined): void {
  if (role !== null && reaches(role, reach)) return;
  throw new ApiError(
    ErrorCode.RoleRequired,
    `Your role (${role ?? 'none'}) does not allow this: it needs ${reach === undefined ? 'the owner role' : reach}`,
  );
}
