import { positiveInt } from '@pay/platform';
import { z } from 'zod';

/**
 * Sign-in's own limits (decision 0023, "Sign-in throttling and the password hashing pool"): the
 * per-address limit on the routes that check or set a password, and the pool that hashes them.
 */
export const signInEnvShape = {
  SIGN_IN_PER_ADDRESS_PER_MINUTE: positiveInt().max(100_000).default(20).meta({
    description:
      "Sign-ins and set-password requests per client address (an IPv6 address by its /64) per minute (and burst), the dashboard's and the console's together; one more answers 429 RATE_LIMITED before any lookup or hashing. The address is the one X-Forwarded-For gives behind TRUSTED_PROXIES: set those behind an ingress, or every client shares the ingress address",
  }),
  PASSWORD_HASH_CONCURRENCY: positiveInt().max(64).default(1).meta({
    description:
      "Passwords hashed or verified at once (argon2id, ~20 ms and 19 MiB each), each on a worker thread of the gateway's own: never on libuv's threadpool, which file reads and DNS lookups need",
  }),
  PASSWORD_HASH_QUEUE_DEPTH: z.coerce.number().int().min(0).max(10_000).default(16).meta({
    description:
      'Passwords waiting for a hashing thread; one more answers 429 RATE_LIMITED with Retry-After (a sign-in flood is refused, not queued). 0: none waits',
  }),
};

export interface SignInConfig {
  /** Sign-ins and set-password requests per client address per minute (and burst) */
  perAddressPerMinute: number;
  hashing: {
    /** Hashing threads */
    concurrency: number;
    /** Passwords that may wait for a thread; past it, 429 */
    queueDepth: number;
  };
}

/** The typed settings of signInEnvShape (the gateway's `signIn`). */
export function signInSection(env: z.output<z.ZodObject<typeof signInEnvShape>>): SignInConfig {
  return {
    perAddressPerMinute: env.SIGN_IN_PER_ADDRESS_PER_MINUTE,
    hashing: { concurrency: env.PASSWORD_HASH_CONCURRENCY, queueDepth: env.PASSWORD_HASH_QUEUE_DEPTH },
  };
}
