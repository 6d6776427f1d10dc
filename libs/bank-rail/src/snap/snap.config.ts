import { createPrivateKey, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { configSection } from '@pay/platform';
import { SnapClient, type SnapClientOptions } from '@pay/snap';
import { z } from 'zod';

/**
 * One SNAP provider, configured by these variables alone (docs/rails.md says how to connect a bank).
 * Secrets and keys come from files (a mounted Secret), never from the environment itself.
 */
export const snapEnvShape = configSection('snap', {
  SNAP_BASE_URL: z
    .url({ protocol: /^https?$/ })
    .optional()
    .meta({
      description:
        "The provider's base URL with its path prefix, which is part of every signature (`https://api.bank.example/snap`, `https://sandbox.bank.example/openapi`)",
      requiredWhen: 'RAIL_PROVIDER=snap',
      example: 'https://sandbox.bank.example/snap',
    }),
  SNAP_CLIENT_ID: z.string().min(1).max(64).optional().meta({
    description: 'The client id the provider issued at onboarding (X-CLIENT-KEY of the token request)',
    requiredWhen: 'RAIL_PROVIDER=snap',
  }),
  SNAP_PARTNER_ID: z.string().min(1).max(36).optional().meta({
    description: 'X-PARTNER-ID, where the provider issued one different from the client id',
    defaultText: 'SNAP_CLIENT_ID',
  }),
  SNAP_CLIENT_SECRET_FILE: z.string().min(1).optional().meta({
    description: 'File holding the client secret (the HMAC-SHA512 key of the symmetric signature)',
    requiredWhen: 'RAIL_PROVIDER=snap and SNAP_SIGNATURE_MODE=symmetric',
  }),
  SNAP_PRIVATE_KEY_FILE: z.string().min(1).optional().meta({
    description:
      'File holding our RSA private key (PEM): it signs the token request, and transactions in the asymmetric mode. Its public key is what the provider was given',
    requiredWhen: 'RAIL_PROVIDER=snap',
  }),
  SNAP_PROVIDER_PUBLIC_KEY_FILE: z.string().min(1).optional().meta({
    description: "File holding the provider's RSA public key (PEM), for what it signs and sends us",
  }),
  SNAP_SIGNATURE_MODE: z.enum(['symmetric', 'asymmetric']).default('symmetric').meta({
    description:
      'symmetric: B2B token + HMAC-SHA512 (the default, most banks); asymmetric: RSA without a token (fixed at onboarding by some providers)',
  }),
  SNAP_CHANNEL_ID: z.string().min(1).max(5).optional().meta({
    description: 'CHANNEL-ID the provider assigned (95221 in ASPI samples)',
    requiredWhen: 'RAIL_PROVIDER=snap',
    example: '95221',
  }),
  SNAP_SOURCE_ACCOUNT_NO: z
    .string()
    .regex(/^\d{6,19}$/, 'must be 6 to 19 digits')
    .optional()
    .meta({
      description: 'Our account at the provider that payouts are debited from',
      requiredWhen: 'RAIL_PROVIDER=snap',
    }),
  SNAP_SOURCE_BANK_CODE: z.string().min(3).max(11).default('014').meta({
    description:
      "The provider's own bank code: a beneficiary there is paid by intrabank transfer (17) and looked up by internal inquiry (15)",
  }),
  SNAP_BANK_CODES_FILE: z.string().min(1).optional().meta({
    description:
      'JSON file mapping our bank codes to the provider\'s beneficiaryBankCode, over the built-in table (`{"DANA": "DANA01"}`); e-wallet codes differ between providers',
  }),
  SNAP_EXTERNAL_ID_LENGTH: z.coerce.number().int().min(19).max(36).default(32).meta({
    description: 'Digits of X-EXTERNAL-ID (19 for strict banks such as Mandiri)',
  }),
  SNAP_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3_000).meta({
    description: 'Giving up on a connection that is not made: nothing was sent, the call is retried',
  }),
  SNAP_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(15_000).meta({
    description: "Giving up on an answer after sending: the outcome is UNKNOWN and the transfer's status is asked",
  }),
  SNAP_STATUS_POLL_MS: z.coerce.number().int().min(10).max(3_600_000).default(30_000).meta({
    description:
      'First wait before asking the status of a transfer whose outcome is not known; it doubles with every inquiry, up to 10 minutes',
  }),
  SNAP_NOT_FOUND_WINDOW_MS: z.coerce.number().int().min(0).max(86_400_000).default(600_000).meta({
    description:
      'How long after the first attempt a status inquiry\'s "not found" may still mean "not yet seen": after it, the same partnerReferenceNo is sent again (the provider dedupes)',
  }),
});

type SnapEnv = z.output<z.ZodObject<typeof snapEnvShape>>;

export interface SnapRailConfig {
  baseUrl: string;
  clientId: string;
  partnerId: string;
  signatureMode: 'symmetric' | 'asymmetric';
  channelId: string;
  sourceAccountNo: string;
  sourceBankCode: string;
  externalIdLength: number;
  connectTimeoutMs: number;
  timeoutMs: number;
  statusPollMs: number;
  notFoundWindowMs: number;
  files: { clientSecret?: string; privateKey: string; providerPublicKey?: string; bankCodes?: string };
}

export function snapSection(env: SnapEnv): SnapRailConfig | null {
  if (!env.SNAP_BASE_URL || !env.SNAP_CLIENT_ID || !env.SNAP_PRIVATE_KEY_FILE) return null;
  return {
    baseUrl: env.SNAP_BASE_URL,
    clientId: env.SNAP_CLIENT_ID,
    partnerId: env.SNAP_PARTNER_ID ?? env.SNAP_CLIENT_ID,
    signatureMode: env.SNAP_SIGNATURE_MODE,
    channelId: env.SNAP_CHANNEL_ID ?? '',
    sourceAccountNo: env.SNAP_SOURCE_ACCOUNT_NO ?? '',
    sourceBankCode: env.SNAP_SOURCE_BANK_CODE,
    externalIdLength: env.SNAP_EXTERNAL_ID_LENGTH,
    connectTimeoutMs: env.SNAP_CONNECT_TIMEOUT_MS,
    timeoutMs: env.SNAP_TIMEOUT_MS,
    statusPollMs: env.SNAP_STATUS_POLL_MS,
    notFoundWindowMs: env.SNAP_NOT_FOUND_WINDOW_MS,
    files: {
      clientSecret: env.SNAP_CLIENT_SECRET_FILE,
      privateKey: env.SNAP_PRIVATE_KEY_FILE,
      providerPublicKey: env.SNAP_PROVIDER_PUBLIC_KEY_FILE,
      bankCodes: env.SNAP_BANK_CODES_FILE,
    },
  };
}

/** What the files hold, read and checked: a key that does not parse is refused here, at start-up. */
export interface SnapCredentials {
  clientSecret?: string;
  privateKeyPem: string;
  providerPublicKeyPem?: string;
  bankCodes: Record<string, string>;
}

export function readSnapCredentials(files: SnapRailConfig['files']): SnapCredentials {
  const read = (path: string, what: string) => {
    try {
      return readFileSync(path, 'utf8').trim();
    } catch (err) {
      throw new Error(
        `${what}: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
      );
    }
  };
  const privateKeyPem = read(files.privateKey, 'SNAP_PRIVATE_KEY_FILE');
  try {
    createPrivateKey(privateKeyPem);
  } catch {
    throw new Error('SNAP_PRIVATE_KEY_FILE: not a PEM private key');
  }
  const providerPublicKeyPem = files.providerPublicKey
    ? read(files.providerPublicKey, 'SNAP_PROVIDER_PUBLIC_KEY_FILE')
    : undefined;
  if (providerPublicKeyPem)
    try {
      createPublicKey(providerPublicKeyPem);
    } catch {
      throw new Error('SNAP_PROVIDER_PUBLIC_KEY_FILE: not a PEM public key');
    }
  const clientSecret = files.clientSecret ? read(files.clientSecret, 'SNAP_CLIENT_SECRET_FILE') : undefined;
  if (clientSecret !== undefined && clientSecret.length < 8)
    throw new Error('SNAP_CLIENT_SECRET_FILE: the secret is shorter than 8 characters');
  let bankCodes: Record<string, string> = {};
  if (files.bankCodes) {
    const parsed = z
      .record(z.string().regex(/^[A-Z0-9]{2,20}$/), z.string().regex(/^[A-Z0-9]{3,11}$/))
      .safeParse(JSON.parse(read(files.bankCodes, 'SNAP_BANK_CODES_FILE')));
    if (!parsed.success) throw new Error('SNAP_BANK_CODES_FILE: must map bank codes to 3-11 letters or digits');
    bankCodes = parsed.data;
  }
  return { clientSecret, privateKeyPem, providerPublicKeyPem, bankCodes };
}

/** RAIL_PROVIDER=snap needs the provider, our key and the account; the files must hold what they say. */
export function refineSnapEnv(env: SnapEnv & { RAIL_PROVIDER: string }, ctx: z.RefinementCtx): void {
  if (env.RAIL_PROVIDER !== 'snap') return;
  const required = [
    'SNAP_BASE_URL',
    'SNAP_CLIENT_ID',
    'SNAP_PRIVATE_KEY_FILE',
    'SNAP_CHANNEL_ID',
    'SNAP_SOURCE_ACCOUNT_NO',
  ] as const;
  let missing = false;
  for (const key of required)
    if (!env[key]) {
      missing = true;
      ctx.addIssue({ code: 'custom', path: [key], message: 'required when RAIL_PROVIDER=snap' });
    }
  if (env.SNAP_SIGNATURE_MODE === 'symmetric' && !env.SNAP_CLIENT_SECRET_FILE) {
    missing = true;
    ctx.addIssue({
      code: 'custom',
      path: ['SNAP_CLIENT_SECRET_FILE'],
      message: 'required when RAIL_PROVIDER=snap and SNAP_SIGNATURE_MODE=symmetric',
    });
  }
  const section = snapSection(env);
  if (missing || !section) return;
  try {
    readSnapCredentials(section.files);
  } catch (err) {
    const message = (err as Error).message;
    const key = message.split(':')[0];
    ctx.addIssue({ code: 'custom', path: [key], message: message.slice(key.length + 2) });
  }
}

/** A SNAP client for the provider these settings and files name; `extra` adds the caller's hooks. */
export function snapClientFor(
  provider: string,
  config: SnapRailConfig,
  credentials: SnapCredentials,
  extra: Pick<SnapClientOptions, 'clock' | 'onAttempt' | 'onCall'> = {},
): SnapClient {
  return new SnapClient({
    provider,
    baseUrl: config.baseUrl,
    clientId: config.clientId,
    partnerId: config.partnerId,
    clientSecret: credentials.clientSecret,
    privateKeyPem: credentials.privateKeyPem,
    channelId: config.channelId,
    signatureMode: config.signatureMode,
    externalIdLength: config.externalIdLength,
    connectTimeoutMs: config.connectTimeoutMs,
    responseTimeoutMs: config.timeoutMs,
    ...extra,
  });
}
