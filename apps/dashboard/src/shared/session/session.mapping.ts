// What GET/POST .../api/session answer (decision 0023), typed by the contract the gateway answers with.
import type { SessionView } from '@pay/contracts/dashboard';

export type Session = SessionView;

/** The session as the app keeps it: the contract's fields, nothing else the answer may carry. */
export function toSession(v: SessionView): Session {
  return {
    user: {
      id: v.user.id,
      email: v.user.email,
      role: v.user.role,
      totpEnabled: v.user.totpEnabled,
      merchantRole: v.user.merchantRole,
      permissions: [...v.user.permissions],
    },
    merchant: v.merchant === null ? null : { id: v.merchant.id, name: v.merchant.name },
    csrfToken: v.csrfToken,
    sandbox: v.sandbox,
  };
}
