// What GET/POST .../api/session answer, mapped in one place (decision 0023: user, merchant, csrfToken, sandbox).

export interface Session {
  user: { id: number | string; email: string; role: 'merchant' | 'operator'; totpEnabled: boolean };
  merchant: { id: number | string; name: string } | null;
  csrfToken: string;
  sandbox: boolean;
}

interface RawSession {
  user?: { id?: number | string; email?: string; role?: string; totpEnabled?: boolean; totp?: boolean };
  merchant?: { id?: number | string; name?: string } | null;
  csrfToken?: string;
  sandbox?: boolean;
}

export function toSession(raw: unknown): Session {
  const r = (raw ?? {}) as RawSession;
  return {
    user: {
      id: r.user?.id ?? '',
      email: r.user?.email ?? '',
      role: r.user?.role === 'operator' ? 'operator' : 'merchant',
      totpEnabled: Boolean(r.user?.totpEnabled ?? r.user?.totp),
    },
    merchant: r.merchant && r.merchant.id !== undefined ? { id: r.merchant.id, name: r.merchant.name ?? '' } : null,
    csrfToken: r.csrfToken ?? '',
    sandbox: Boolean(r.sandbox),
  };
}
