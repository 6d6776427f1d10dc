// What GET/POST .../api/session answer (decision 0023: user, merchant, csrfToken, sandbox), mapped in
// one place. wt/auth had not published its shape when this was written: nested `user`/`merchant`
// objects are read first, the flat form (email, role, merchantId, merchantName) as a fallback.
import { bool, first, obj, optStr, str } from '../api/raw';

export interface Session {
  user: { id: string; email: string; role: 'merchant' | 'operator'; totpEnabled: boolean };
  merchant: { id: string; name: string } | null;
  csrfToken: string;
  sandbox: boolean;
}

export function toSession(raw: unknown): Session {
  const r = obj(raw);
  const user = r.user && typeof r.user === 'object' ? obj(r.user) : r;
  const merchant = r.merchant && typeof r.merchant === 'object' ? obj(r.merchant) : null;
  const merchantId = merchant ? optStr(merchant, 'id', 'merchantId') : optStr(r, 'merchantId') ?? optStr(user, 'merchantId');
  return {
    user: {
      id: str(user, 'id', 'userId'),
      email: str(user, 'email'),
      role: str(user, 'role') === 'operator' ? 'operator' : 'merchant',
      totpEnabled: bool(user, 'totpEnabled', 'totp') || Boolean(first(user, 'totpEnabledAt')),
    },
    merchant: merchantId === null ? null : { id: merchantId, name: merchant ? str(merchant, 'name') : str(r, 'merchantName') },
    csrfToken: str(r, 'csrfToken'),
    sandbox: bool(r, 'sandbox'),
  };
}
