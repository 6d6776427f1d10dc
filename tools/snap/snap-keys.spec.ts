import { createPrivateKey, createPublicKey, createSign, createVerify } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeSnapKeys, SNAP_KEY_FILES } from './snap-keys';

describe('makeSnapKeys', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'snap-keys-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const read = (name: string) => readFileSync(join(dir, name), 'utf8');
  const contents = () => Object.fromEntries(SNAP_KEY_FILES.map((name) => [name, read(name)]));

  /** A pair matches when what the private key signs, the public key verifies. */
  const pairMatches = (owner: string) => {
    const signature = createSign('RSA-SHA256')
      .update('probe')
      .sign(createPrivateKey(read(`${owner}-private.pem`)));
    return createVerify('RSA-SHA256')
      .update('probe')
      .verify(createPublicKey(read(`${owner}-public.pem`)), signature);
  };

  it('writes all five files into a new directory, private ones readable by the owner alone', () => {
    const target = join(dir, 'snap');
    expect(makeSnapKeys(target).sort()).toEqual([...SNAP_KEY_FILES].sort());
    dir = target;
    expect(read('client-secret')).toMatch(/^[0-9a-f]{48}$/);
    for (const name of ['client-secret', 'client-private.pem', 'simulator-private.pem'])
      expect(statSync(join(dir, name)).mode & 0o777).toBe(0o600);
  });

  it('writes RSA 2048 keys in PKCS#8 and SPKI PEM whose pairs match, and two different pairs', () => {
    makeSnapKeys(dir);
    for (const owner of ['client', 'simulator']) {
      expect(read(`${owner}-private.pem`)).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
      expect(read(`${owner}-public.pem`)).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
      const key = createPrivateKey(read(`${owner}-private.pem`));
      expect(key.asymmetricKeyType).toBe('rsa');
      expect(key.asymmetricKeyDetails?.modulusLength).toBe(2048);
      expect(pairMatches(owner)).toBe(true);
    }
    expect(read('client-public.pem')).not.toBe(read('simulator-public.pem'));
  });

  it('changes nothing on a second run', () => {
    makeSnapKeys(dir);
    const first = contents();
    expect(makeSnapKeys(dir)).toEqual([]);
    expect(contents()).toEqual(first);
  });

  it('writes only what is absent: a lost public key is derived from its private key', () => {
    makeSnapKeys(dir);
    const first = contents();
    unlinkSync(join(dir, 'client-secret'));
    unlinkSync(join(dir, 'simulator-public.pem'));
    expect(makeSnapKeys(dir).sort()).toEqual(['client-secret', 'simulator-public.pem']);
    const second = contents();
    expect(second['client-secret']).not.toBe(first['client-secret']);
    expect(second['simulator-public.pem']).toBe(first['simulator-public.pem']);
    expect(second['client-private.pem']).toBe(first['client-private.pem']);
    expect(pairMatches('simulator')).toBe(true);
  });

  it('refuses a public key without its private key, and a private key that does not parse, writing nothing', () => {
    writeFileSync(join(dir, 'client-public.pem'), 'kept');
    expect(() => makeSnapKeys(dir)).toThrow(/client-public\.pem exists without client-private\.pem/);
    expect(read('client-public.pem')).toBe('kept');
    expect(readdirSync(dir)).toEqual(['client-public.pem']);

    const other = mkdtempSync(join(tmpdir(), 'snap-keys-'));
    try {
      writeFileSync(join(other, 'simulator-private.pem'), 'not a key');
      expect(() => makeSnapKeys(other)).toThrow(/simulator-private\.pem is not a PEM private key/);
      expect(readdirSync(other)).toEqual(['simulator-private.pem']);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
