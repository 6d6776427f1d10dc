import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** PEM files of a throw-away certificate authority and what it signed (unencrypted PKCS#8 keys). */
export interface TestPki {
  caFile: string;
  /** The broker's: valid for 127.0.0.1 and localhost */
  serverCertFile: string;
  serverKeyFile: string;
  /** A client's, for mutual TLS (CN=<client>) */
  clientCertFile: string;
  clientKeyFile: string;
}

async function openssl(args: string[]): Promise<void> {
  await run('openssl', args, { timeout: 30_000 }).catch((err: Error & { stderr?: string }) => {
    throw new Error(`openssl ${args[0]} failed (is openssl on PATH?): ${err.message}\n${err.stderr ?? ''}`);
  });
}

async function signed(
  dir: string,
  name: string,
  subject: string,
  extensions: string,
  ca: { cert: string; key: string },
): Promise<{ cert: string; key: string }> {
  const key = join(dir, `${name}.key`);
  const cert = join(dir, `${name}.pem`);
  const csr = join(dir, `${name}.csr`);
  const ext = join(dir, `${name}.ext`);
  writeFileSync(ext, extensions);
  await openssl(['req', '-new', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', csr, '-subj', subject]);
  await openssl([
    'x509',
    '-req',
    '-in',
    csr,
    '-CA',
    ca.cert,
    '-CAkey',
    ca.key,
    '-CAcreateserial',
    '-out',
    cert,
    '-days',
    '2',
    '-extfile',
    ext,
  ]);
  return { cert, key };
}

/** Makes a CA and a server and a client certificate signed by it, with `openssl`, in `dir`. */
export async function createTestPki(dir: string, client = 'client'): Promise<TestPki> {
  mkdirSync(dir, { recursive: true });
  const ca = { cert: join(dir, 'ca.pem'), key: join(dir, 'ca.key') };
  await openssl([
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    ca.key,
    '-out',
    ca.cert,
    '-days',
    '2',
    '-subj',
    '/CN=payments test CA',
  ]);
  const server = await signed(
    dir,
    'server',
    '/CN=localhost',
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n',
    ca,
  );
  const user = await signed(dir, 'client', `/CN=${client}`, 'extendedKeyUsage=clientAuth\n', ca);
  return {
    caFile: ca.cert,
    serverCertFile: server.cert,
    serverKeyFile: server.key,
    clientCertFile: user.cert,
    clientKeyFile: user.key,
  };
}
