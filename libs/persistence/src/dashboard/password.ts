import { hash, verify } from '@node-rs/argon2';

/** Passwords people choose: 12 to 128 characters (decision 0023). */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;

/**
 * argon2id with OWASP's parameters (m = 19 MiB, t = 2, p = 1). `algorithm: 2` is
 * Algorithm.Argon2id (a const enum, which isolated-module builds cannot read).
 */
const ARGON2ID = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Why a new password is refused, or undefined when it is fine. */
export function passwordProblem(password: string): string | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `password must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (length > PASSWORD_MAX_LENGTH) return `password must be at most ${PASSWORD_MAX_LENGTH} characters`;
  return undefined;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2ID);
}

/**
 * A hash of a password nobody knows, computed once: an unknown email (or a user without a
 * password yet) is verified against it, so the answer takes as long as for a real user.
 */
let dummyHash: Promise<string> | undefined;

/** Whether `password` matches `passwordHash`; without a hash, the same argon2 work and false. */
export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (passwordHash === null) {
    await verify(await (dummyHash ??= hashPassword('not a password: ' + Math.random().toString(36))), password);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    // A stored hash argon2 cannot parse is not a match.
    return false;
  }
}
