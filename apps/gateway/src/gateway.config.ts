import { bool, port, serviceEnv } from '@pay/platform';
import { z } from 'zod';

/** Every setting of the gateway; validated once at start-up (see .env.example). */
export const gatewayConfigSchema = z.object({
  ...serviceEnv,
  GATEWAY_PORT: port().default(3000),
  GATEWAY_HOST: z.string().min(1).default('0.0.0.0'),
  /**
   * Which proxies may set X-Forwarded-For (Express "trust proxy" syntax: comma-separated
   * addresses/CIDRs or loopback, linklocal, uniquelocal). Empty: none, the socket peer is the client.
   */
  TRUSTED_PROXIES: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean)),
  SWAGGER_ENABLED: bool().default(true),
});

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
