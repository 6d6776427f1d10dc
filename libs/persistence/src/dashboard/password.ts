import { hash } from '@node-rs/argon2';

/** Passwords people choose: 12 to 128 characters (decision 0023). */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;

/**
 * argon2id with OWASP's parameters (m = 19 MiB, t = 2, p = 1). `algorithm: 2` is
 * Algorithm.Argon2id (a const enum, which isolated-module builds cannot read).
 */
export const ARGON2ID_OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Why a new password is refused, or undefined when it is fine. */
export function passwordProblem(password: string): string | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `password must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (length > PASSWORD_MAX_LENGTH) return `password must be at most ${PASSWORD_MAX_LENGTH} characters`;
  return undefined;
}

/**
 * The hash of a password, on libuv's threadpool: for the admin CLI, seeds and tests. The gateway
 * hashes and verifies on its own bounded pool of threads instead (PasswordHasher).
 */
export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2ID_OPTIONS);
}
