import { configSection } from '@pay/platform';
import { z } from 'zod';
import type { SnapRailHooks } from './snap-bank-rail';
import { SnapQrisAcquirer } from './snap-qris-acquirer';
import { readSnapCredentials, type snapEnvShape, type SnapRailConfig, snapSection } from './snap.config';

/**
 * Who acquires our QRIS codes: ourselves (`self`: we encode the code, the acquirer's notification
 * comes in our own signed format), or an acquirer over SNAP (`snap`: it generates the code (47),
 * notifies payments (52), answers queries (51) and refunds (78)). The acquirer is the SNAP_* provider
 * unless a SNAP_ACQUIRER_* setting says otherwise (an acquirer that is not the payout bank).
 */
export const acquirerEnvShape = configSection('acquirer', {
  QRIS_ACQUIRER: z.enum(['self', 'snap']).default('self').meta({
    description:
      'Who generates QRIS codes and reports their payments: `self` (codes encoded here, notifications in our own signed format at /internal/acquirer/qris/notifications) or `snap`, an acquirer over SNAP (codes from its generate, notifications at /snap/v1.0/qr/qr-mpm-notify, pay-ins whose notification never came asked before they expire)',
  }),
  ACQUIRER_CLOCK_SKEW_SECONDS: z.coerce.number().int().min(1).max(3_600).default(300).meta({
    description:
      "How far the acquirer's clock may be from ours: a payment time it gives (notification or query) must lie between the code's creation and now, each widened by this; with QRIS_ACQUIRER=snap, also how far a notification's X-TIMESTAMP may be from now",
  }),
  SNAP_ACQUIRER_MERCHANT_ID: z.string().min(1).max(64).optional().meta({
    description: 'Our merchant id at the acquirer (merchantId of every QRIS call)',
    requiredWhen: 'QRIS_ACQUIRER=snap',
  }),
  SNAP_ACQUIRER_BASE_URL: z
    .url({ protocol: /^https?$/ })
    .optional()
    .meta({
      description: "The acquirer's base URL with its path prefix, where it is not the SNAP_* provider",
      defaultText: 'SNAP_BASE_URL',
    }),
  SNAP_ACQUIRER_CLIENT_ID: z.string().min(1).max(64).optional().meta({
    description: 'The client id the acquirer issued',
    defaultText: 'SNAP_CLIENT_ID',
  }),
  SNAP_ACQUIRER_PARTNER_ID: z.string().min(1).max(36).optional().meta({
    description: 'X-PARTNER-ID at the acquirer',
    defaultText: 'SNAP_ACQUIRER_CLIENT_ID',
  }),
  SNAP_ACQUIRER_CLIENT_SECRET_FILE: z.string().min(1).optional().meta({
    description: 'File holding the client secret the acquirer issued (symmetric signatures)',
    defaultText: 'SNAP_CLIENT_SECRET_FILE',
  }),
  SNAP_ACQUIRER_PRIVATE_KEY_FILE: z.string().min(1).optional().meta({
    description: 'File holding our RSA private key (PEM) registered with the acquirer',
    defaultText: 'SNAP_PRIVATE_KEY_FILE',
  }),
  SNAP_ACQUIRER_PUBLIC_KEY_FILE: z.string().min(1).optional().meta({
    description: "File holding the acquirer's RSA public key (PEM): its payment notifications are verified with it",
    defaultText: 'SNAP_PROVIDER_PUBLIC_KEY_FILE',
  }),
  SNAP_ACQUIRER_CHANNEL_ID: z.string().min(1).max(5).optional().meta({
    description: 'CHANNEL-ID the acquirer assigned',
    defaultText: 'SNAP_CHANNEL_ID',
  }),
  SNAP_ACQUIRER_SIMULATOR_URL: z
    .url({ protocol: /^https?$/ })
    .optional()
    .meta({
      description:
        "The acquirer is the SNAP provider simulator, whose controls are at this URL (`http://snap-simulator:4010/simulator/v1`): its payments are sandbox money, and the gateway's sandbox payer pays codes through it. Never set against a real acquirer",
      production: 'refuses it',
    }),
});

type SnapEnv = z.output<z.ZodObject<typeof snapEnvShape>>;
type AcquirerEnv = z.output<z.ZodObject<typeof acquirerEnvShape>>;

export type AcquirerConfig =
  | { kind: 'self' }
  | {
      kind: 'snap';
      snap: SnapRailConfig;
      merchantId: string;
      /** The simulator's control URL when the acquirer is the SNAP provider simulator */
      simulatorUrl: string | null;
    };

/** The acquirer's provider: the SNAP_* one, with what the SNAP_ACQUIRER_* settings override. */
function acquirerProvider(env: SnapEnv & AcquirerEnv): SnapRailConfig | null {
  const base = snapSection({
    ...env,
    SNAP_BASE_URL: env.SNAP_ACQUIRER_BASE_URL ?? env.SNAP_BASE_URL,
    SNAP_CLIENT_ID: env.SNAP_ACQUIRER_CLIENT_ID ?? env.SNAP_CLIENT_ID,
    SNAP_PARTNER_ID:
      env.SNAP_ACQUIRER_PARTNER_ID ?? (env.SNAP_ACQUIRER_CLIENT_ID ? env.SNAP_ACQUIRER_CLIENT_ID : env.SNAP_PARTNER_ID),
    SNAP_CLIENT_SECRET_FILE: env.SNAP_ACQUIRER_CLIENT_SECRET_FILE ?? env.SNAP_CLIENT_SECRET_FILE,
    SNAP_PRIVATE_KEY_FILE: env.SNAP_ACQUIRER_PRIVATE_KEY_FILE ?? env.SNAP_PRIVATE_KEY_FILE,
    SNAP_PROVIDER_PUBLIC_KEY_FILE: env.SNAP_ACQUIRER_PUBLIC_KEY_FILE ?? env.SNAP_PROVIDER_PUBLIC_KEY_FILE,
    SNAP_CHANNEL_ID: env.SNAP_ACQUIRER_CHANNEL_ID ?? env.SNAP_CHANNEL_ID,
    // Not the acquirer's: the bank codes file maps payout beneficiaries.
    SNAP_BANK_CODES_FILE: undefined,
  });
  return base;
}

export function acquirerSection(env: SnapEnv & AcquirerEnv): AcquirerConfig {
  const snap = env.QRIS_ACQUIRER === 'snap' ? acquirerProvider(env) : null;
  if (!snap || !env.SNAP_ACQUIRER_MERCHANT_ID) return { kind: 'self' };
  return {
    kind: 'snap',
    snap,
    merchantId: env.SNAP_ACQUIRER_MERCHANT_ID,
    simulatorUrl: env.SNAP_ACQUIRER_SIMULATOR_URL ?? null,
  };
}

/**
 * QRIS_ACQUIRER=snap needs the acquirer (its address, our client id, key and channel, our merchant id)
 * and its public key (nothing unverified is accepted as a payment); the files must hold what they say.
 */
export function refineAcquirerEnv(env: SnapEnv & AcquirerEnv & { NODE_ENV: string }, ctx: z.RefinementCtx): void {
  if (env.NODE_ENV === 'production' && env.SNAP_ACQUIRER_SIMULATOR_URL)
    ctx.addIssue({
      code: 'custom',
      path: ['SNAP_ACQUIRER_SIMULATOR_URL'],
      message:
        "must not be set when NODE_ENV=production: production's acquirer is a real one, whose payments are real money",
    });
  if (env.QRIS_ACQUIRER !== 'snap') return;
  const required: [string, unknown][] = [
    ['SNAP_ACQUIRER_MERCHANT_ID', env.SNAP_ACQUIRER_MERCHANT_ID],
    ['SNAP_ACQUIRER_BASE_URL', env.SNAP_ACQUIRER_BASE_URL ?? env.SNAP_BASE_URL],
    ['SNAP_ACQUIRER_CLIENT_ID', env.SNAP_ACQUIRER_CLIENT_ID ?? env.SNAP_CLIENT_ID],
    ['SNAP_ACQUIRER_PRIVATE_KEY_FILE', env.SNAP_ACQUIRER_PRIVATE_KEY_FILE ?? env.SNAP_PRIVATE_KEY_FILE],
    ['SNAP_ACQUIRER_PUBLIC_KEY_FILE', env.SNAP_ACQUIRER_PUBLIC_KEY_FILE ?? env.SNAP_PROVIDER_PUBLIC_KEY_FILE],
    ['SNAP_ACQUIRER_CHANNEL_ID', env.SNAP_ACQUIRER_CHANNEL_ID ?? env.SNAP_CHANNEL_ID],
  ];
  if (env.SNAP_SIGNATURE_MODE === 'symmetric')
    required.push([
      'SNAP_ACQUIRER_CLIENT_SECRET_FILE',
      env.SNAP_ACQUIRER_CLIENT_SECRET_FILE ?? env.SNAP_CLIENT_SECRET_FILE,
    ]);
  let missing = false;
  for (const [key, value] of required)
    if (!value) {
      missing = true;
      const fallback = key === 'SNAP_ACQUIRER_MERCHANT_ID' ? '' : ` (or ${key.replace('SNAP_ACQUIRER_', 'SNAP_')})`;
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: `required when QRIS_ACQUIRER=snap${fallback.replace('SNAP_PUBLIC_KEY_FILE', 'SNAP_PROVIDER_PUBLIC_KEY_FILE')}`,
      });
    }
  const provider = acquirerProvider(env);
  if (missing || !provider) return;
  try {
    readSnapCredentials(provider.files);
  } catch (err) {
    const message = (err as Error).message;
    const key = message.split(':')[0];
    ctx.addIssue({ code: 'custom', path: [key], message: `${message.slice(key.length + 2)} (the acquirer's)` });
  }
}

/** The acquirer QRIS_ACQUIRER names: null for `self`. `hooks.onCall` sees every call (rail metrics, provider `snap-acquirer`). */
export function createQrisAcquirer(
  config: AcquirerConfig,
  hooks: Pick<SnapRailHooks, 'onCall'> = {},
): SnapQrisAcquirer | null {
  if (config.kind === 'self') return null;
  return new SnapQrisAcquirer(config.snap, readSnapCredentials(config.snap.files), config.merchantId, hooks);
}
