import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The files a local SNAP set-up needs: ours (client) and the simulator's, as the simulator and the rail read them. */
export const SNAP_KEY_FILES = [
  'client-secret',
  'client-private.pem',
  'client-public.pem',
  'simulator-private.pem',
  'simulator-public.pem',
] as const;

const SECRET_MODE = 0o600;
const PUBLIC_MODE = 0o644;

/**
 * Writes into `dir` whichever of the SNAP_KEY_FILES are absent and returns their names; files
 * already there are kept, so a re-run (a restarted one-shot) never replaces a key the other
 * side already holds. A missing public key is derived from its private key; a private key
 * missing beside its public key cannot be, and is refused.
 */
export function makeSnapKeys(dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  // Everything is decided (and refused) before the first file is written.
  const files: Array<{ name: string; text: string; mode: number }> = [];
  if (!existsSync(join(dir, 'client-secret')))
    files.push({ name: 'client-secret', text: randomBytes(24).toString('hex'), mode: SECRET_MODE });
  for (const owner of ['client', 'simulator'] as const) files.push(...missingOfPair(dir, owner));
  for (const { name, text, mode } of files)
    // 'wx': never overwrite, even a file that appeared since we looked
    writeFileSync(join(dir, name), text, { mode, flag: 'wx' });
  return files.map((f) => f.name);
}

function missingOfPair(dir: string, owner: string): Array<{ name: string; text: string; mode: number }> {
  const privateName = `${owner}-private.pem`;
  const publicName = `${owner}-public.pem`;
  const hasPrivate = existsSync(join(dir, privateName));
  const hasPublic = existsSync(join(dir, publicName));
  if (hasPrivate && hasPublic) return [];
  if (hasPrivate) {
    let publicPem: string;
    try {
      const key = createPrivateKey(readFileSync(join(dir, privateName), 'utf8'));
      publicPem = createPublicKey(key).export({ type: 'spki', format: 'pem' }).toString();
    } catch {
      throw new Error(`${join(dir, privateName)} is not a PEM private key: remove it to make a new pair`);
    }
    return [{ name: publicName, text: publicPem, mode: PUBLIC_MODE }];
  }
  if (hasPublic)
    throw new Error(
      `${join(dir, publicName)} exists without ${privateName}: remove it to make a new pair (and give the other side the new public key)`,
    );
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return [
    { name: privateName, text: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), mode: SECRET_MODE },
    { name: publicName, text: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(), mode: PUBLIC_MODE },
  ];
}
