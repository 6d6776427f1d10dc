// The console's users (GET /console/api/users, POST /console/api/users/:userId/disable|enable;
// decision 0023, "Disabling users"): DashboardUserAdmin's view, never a hash or a secret. Its own
// file, beside console.api.ts, with the same mapping style.
import type { ApiClient } from '../shared/api/api-client';
import { bool, obj, optStr, page, str, type Raw } from '../shared/api/raw';

export interface ConsoleUser {
  id: string;
  email: string;
  role: 'merchant' | 'operator';
  merchantId: string | null;
  totpEnabled: boolean;
  lockedUntil: string | null;
  disabled: boolean;
}

function toUser(r: Raw): ConsoleUser {
  return {
    id: str(r, 'userId', 'id'),
    email: str(r, 'email'),
    role: str(r, 'role') === 'operator' ? 'operator' : 'merchant',
    merchantId: optStr(r, 'merchantId'),
    totpEnabled: bool(r, 'totpEnabled'),
    lockedUntil: optStr(r, 'lockedUntil'),
    disabled: bool(r, 'disabled'),
  };
}

export function consoleUsersApi(api: ApiClient) {
  return {
    // No cursor: the API lists every user (`_cursor` is always null, useCursorList's first page).
    users: async (_cursor: string | null) => page(await api.get('/users'), toUser),
    setDisabled: async (id: string, disabled: boolean) => toUser(obj(await api.post(`/users/${encodeURIComponent(id)}/${disabled ? 'disable' : 'enable'}`))),
  };
}
