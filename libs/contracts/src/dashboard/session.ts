// The session endpoints of both audiences (`/dashboard/api` and `/console/api`, decision 0023):
// the `data` of their answers and their request bodies.

export type DashboardRole = 'merchant' | 'operator';

/** `POST .../session` and `GET .../session` */
export interface SessionView {
  user: {
    id: number;
    email: string;
    role: DashboardRole;
    totpEnabled: boolean;
    /** A merchant user's role (owner, developer, finance, viewer; docs/access.md); null for an operator */
    merchantRole: 'owner' | 'developer' | 'finance' | 'viewer' | null;
    /** What the role allows (@pay/domain PERMISSIONS): the dashboard hides the rest; empty for an operator */
    permissions: string[];
  };
  /** null for an operator */
  merchant: { id: number; name: string } | null;
  /** Send it in `X-CSRF-Token` on every POST/PUT/PATCH/DELETE */
  csrfToken: string;
  /** The gateway's SANDBOX_MODE */
  sandbox: boolean;
}

export interface SignInBody {
  email: string;
  password: string;
  /** The authentication code, once TOTP is on */
  totp?: string;
}

export interface SetPasswordBody {
  token: string;
  password: string;
}

/** `POST .../totp/setup` */
export interface TotpSetupView {
  /** base32, for typing into an app */
  secret: string;
  /** otpauth://totp/... */
  url: string;
  /** The URL as a QR code, a PNG data URL */
  qr: string;
}

/** `POST .../totp/enable`, `POST .../totp/disable` */
export interface TotpCodeBody {
  code: string;
}

export interface TotpStateView {
  totpEnabled: boolean;
}
