// The console's users (GET /console/api/users, POST /console/api/users/:userId/disable|enable|unlock|reset-link;
// decision 0023, "Disabling users"): DashboardUserAdmin's view, never a hash or a secret. Its own
// file, beside console.api.ts, typed by the same contract.
import type {
  ConsoleUserView,
  DashboardUserLinkView,
  MerchantRoleName,
  SetMerchantRoleBody,
} from '@pay/contracts/dashboard';
import type { ApiClient } from '../shared/api/api-client';
import { onePage } from './console.api';

export interface ConsoleUser {
  id: string;
  email: string;
  role: 'merchant' | 'operator';
  merchantId: string | null;
  /** A merchant user's role (docs/access.md); null for an operator */
  merchantRole: MerchantRoleName | null;
  totpEnabled: boolean;
  lockedUntil: string | null;
  disabled: boolean;
}

function toUser(u: ConsoleUserView): ConsoleUser {
  return {
    id: String(u.userId),
    email: u.email,
    role: u.role,
    merchantId: u.merchantId === null ? null : String(u.merchantId),
    merchantRole: u.merchantRole,
    totpEnabled: u.totpEnabled,
    lockedUntil: u.lockedUntil,
    disabled: u.disabled,
  };
}

export function consoleUsersApi(api: ApiClient) {
  return {
    // No cursor: the API lists every user (`_cursor` is always null, useCursorList's first page).
    users: async (_cursor: string | null) => onePage(await api.get<ConsoleUserView[]>('/users'), toUser),
    unlock: async (id: string) => toUser(await api.post<ConsoleUserView>(`/users/${encodeURIComponent(id)}/unlock`)),
    /** A new one-time set-password link for the user (shown only now) */
    newLink: async (id: string) =>
      (await api.post<DashboardUserLinkView>(`/users/${encodeURIComponent(id)}/reset-link`)).setPasswordUrl,
    /** 409 CONFLICT when it would leave the merchant without an enabled owner */
    setRole: async (id: string, merchantRole: MerchantRoleName) =>
      toUser(
        await api.put<ConsoleUserView>(`/users/${encodeURIComponent(id)}/role`, {
          merchantRole,
        } satisfies SetMerchantRoleBody),
      ),
    setDisabled: async (id: string, disabled: boolean) =>
      toUser(await api.post<ConsoleUserView>(`/users/${encodeURIComponent(id)}/${disabled ? 'disable' : 'enable'}`)),
  };
}
