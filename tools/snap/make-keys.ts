import { join } from 'node:path';
import { makeSnapKeys } from './snap-keys';

/**
 * node dist/tools/snap/make-keys.js <dir>: the client secret and the two RSA key pairs a local SNAP
 * set-up needs (the compose one-shot `snap-keys`); only absent files are written.
 */
const dir = process.argv[2];
if (!dir || process.argv.length > 3) {
  process.stderr.write('usage: make-keys <dir>  (writes the absent SNAP secret and key files into <dir>)\n');
  process.exit(2);
}
try {
  const written = makeSnapKeys(dir);
  for (const name of written) process.stdout.write(`wrote ${join(dir, name)}\n`);
  if (written.length === 0) process.stdout.write(`${dir}: every SNAP key file is already there, nothing written\n`);
} catch (err) {
  process.stderr.write(`make-keys: ${(err as Error).message}\n`);
  process.exit(1);
}
