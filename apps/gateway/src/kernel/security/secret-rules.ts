import { isLoopbackHost } from '@pay/platform';
import type { z } from 'zod';
import { isPublishedSecret } from './published-secrets';

interface SecretSettings {
  NODE_ENV: string;
  GATEWAY_HOST: string;
  GATEWAY_INTERNAL_HOST: string;
  ACQUIRER_SECRET?: string;
  ACQUIRER_SECRET_PREVIOUS: string[];
  ADMIN_TOKEN?: string;
  ADMIN_TOKEN_PREVIOUS: string[];
  SANDBOX_MODE?: boolean;
}

const GENERATE = 'generate one with: openssl rand -hex 32';

/**
 * Whoever knows ACQUIRER_SECRET can credit any pay-in; whoever knows ADMIN_TOKEN runs the ops
 * API. A gateway other machines can reach (either port bound beyond loopback), and any gateway
 * with NODE_ENV=production, therefore needs a real ACQUIRER_SECRET and refuses every value this
 * repository publishes; production also refuses the sandbox payer. A gateway on loopback outside
 * production (the local runner, tests) may use the development secret.
 */
export function refuseWeakSecrets(c: SecretSettings, ctx: z.RefinementCtx): void {
  const production = c.NODE_ENV === 'production';
  const exposedHosts = [c.GATEWAY_HOST, c.GATEWAY_INTERNAL_HOST].filter((h) => !isLoopbackHost(h));
  if (!production && exposedHosts.length === 0) return;
  const why = production ? 'NODE_ENV=production' : `the gateway listens beyond loopback (${exposedHosts.join(', ')})`;
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });

  if (!c.ACQUIRER_SECRET) issue('ACQUIRER_SECRET', `is required when ${why}; ${GENERATE}`);
  else if (isPublishedSecret(c.ACQUIRER_SECRET))
    issue('ACQUIRER_SECRET', `must not be a value published in this repository when ${why}; ${GENERATE}`);
  if (c.ACQUIRER_SECRET_PREVIOUS.some(isPublishedSecret))
    issue('ACQUIRER_SECRET_PREVIOUS', `must not contain a value published in this repository when ${why}`);
  if (c.ADMIN_TOKEN && isPublishedSecret(c.ADMIN_TOKEN))
    issue('ADMIN_TOKEN', `must not be a value published in this repository when ${why}; ${GENERATE}`);
  if (c.ADMIN_TOKEN_PREVIOUS.some(isPublishedSecret))
    issue('ADMIN_TOKEN_PREVIOUS', `must not contain a value published in this repository when ${why}`);
  if (production && c.SANDBOX_MODE === true)
    issue('SANDBOX_MODE', 'must not be true when NODE_ENV=production (anyone could mark a pay-in paid)');
}
