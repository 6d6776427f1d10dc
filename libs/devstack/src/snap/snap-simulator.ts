import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_PG_SERVER, repoRoot } from '@pay/testing';
import { Pool } from 'pg';
import { freePort } from '../stack/free-port';
import { tail } from '../stack/log-tail';

export interface SnapSimulatorOptions {
  /**
   * Postgres for the simulator's state (a schema of its own, new per start unless `schema` is given);
   * default DATABASE_URL, else the local server's `postgres` database.
   */
  databaseUrl?: string;
  schema?: string;
  /** Where it sends QRIS payment notifications (the gateway's internal `/snap/v1.0/qr/qr-mpm-notify`) */
  notifyUrl?: string;
  /** How long in-progress transfers take to resolve (default 1 s) */
  delayMs?: number;
  /** How long an answer that never arrives holds the socket (default 20 s) */
  hangMs?: number;
  /** The source account's opening balance, in sen */
  sourceBalance?: bigint;
  signatureMode?: 'symmetric' | 'asymmetric';
  port?: number;
  /** Keys, secret and log; absent: a temporary folder removed on stop */
  dir?: string;
}

/**
 * The SNAP provider simulator (apps/snap-simulator) as its own process, with a client key pair,
 * a client secret and a simulator key pair made for this run: what the local runner, the
 * integration tests and every end-to-end suite point `RAIL_PROVIDER=snap` and `QRIS_ACQUIRER=snap` at.
 */
export class SnapSimulator {
  private child: ChildProcess | null = null;

  private constructor(
    private readonly opts: Required<Omit<SnapSimulatorOptions, 'notifyUrl' | 'dir' | 'port'>> & {
      notifyUrl?: string;
      port: number;
    },
    readonly dir: string,
    private readonly ownsDir: boolean,
    readonly clientId: string,
    readonly clientSecret: string,
    readonly clientPrivateKeyPem: string,
    readonly providerPublicKeyPem: string,
  ) {}

  static async start(options: SnapSimulatorOptions = {}): Promise<SnapSimulator> {
    const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'snap-sim-'));
    mkdirSync(dir, { recursive: true });
    const client = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const provider = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = (k: { export(o: object): string | Buffer }, type: 'pkcs8' | 'spki') =>
      k.export({ type, format: 'pem' }).toString();
    const files = {
      clientSecret: randomBytes(24).toString('hex'),
      clientPrivate: pem(client.privateKey, 'pkcs8'),
      clientPublic: pem(client.publicKey, 'spki'),
      providerPrivate: pem(provider.privateKey, 'pkcs8'),
      providerPublic: pem(provider.publicKey, 'spki'),
    };
    writeFileSync(join(dir, 'client-secret'), files.clientSecret, { mode: 0o600 });
    writeFileSync(join(dir, 'client-private.pem'), files.clientPrivate, { mode: 0o600 });
    writeFileSync(join(dir, 'client-public.pem'), files.clientPublic);
    writeFileSync(join(dir, 'simulator-private.pem'), files.providerPrivate, { mode: 0o600 });
    writeFileSync(join(dir, 'simulator-public.pem'), files.providerPublic);
    const sim = new SnapSimulator(
      {
        databaseUrl: options.databaseUrl ?? process.env.DATABASE_URL ?? `${TEST_PG_SERVER}/postgres`,
        schema: options.schema ?? `snap_sim_${randomBytes(4).toString('hex')}`,
        notifyUrl: options.notifyUrl,
        delayMs: options.delayMs ?? 1_000,
        hangMs: options.hangMs ?? 20_000,
        sourceBalance: options.sourceBalance ?? 10n ** 15n,
        signatureMode: options.signatureMode ?? 'symmetric',
        port: options.port || (await freePort()),
      },
      dir,
      !options.dir,
      `SIMCLIENT${randomBytes(3).toString('hex').toUpperCase()}`,
      files.clientSecret,
      files.clientPrivate,
      files.providerPublic,
    );
    await sim.launch();
    return sim;
  }

  get port(): number {
    return this.opts.port;
  }

  /** The provider's base URL, path prefix included (what SNAP_BASE_URL takes) */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.opts.port}/snap`;
  }

  /** The simulator's controls (/simulator/v1/...): never part of SNAP */
  get controlUrl(): string {
    return `http://127.0.0.1:${this.opts.port}/simulator/v1`;
  }

  get sourceAccountNo(): string {
    return '8881234567';
  }

  get sourceBankCode(): string {
    return '014';
  }

  get channelId(): string {
    return '95221';
  }

  get logFile(): string {
    return join(this.dir, 'snap-simulator.log');
  }

  /** The files our services read: the client secret, the client's private key, the simulator's public key. */
  get files(): { clientSecretFile: string; privateKeyFile: string; providerPublicKeyFile: string } {
    return {
      clientSecretFile: join(this.dir, 'client-secret'),
      privateKeyFile: join(this.dir, 'client-private.pem'),
      providerPublicKeyFile: join(this.dir, 'simulator-public.pem'),
    };
  }

  /** The SNAP_* settings that point our services at this simulator. */
  env(): Record<string, string> {
    return {
      SNAP_BASE_URL: this.baseUrl,
      SNAP_CLIENT_ID: this.clientId,
      // The simulator knows one partner: X-PARTNER-ID is the client id.
      SNAP_PARTNER_ID: this.clientId,
      SNAP_CLIENT_SECRET_FILE: this.files.clientSecretFile,
      SNAP_PRIVATE_KEY_FILE: this.files.privateKeyFile,
      SNAP_PROVIDER_PUBLIC_KEY_FILE: this.files.providerPublicKeyFile,
      SNAP_CHANNEL_ID: this.channelId,
      SNAP_SOURCE_ACCOUNT_NO: this.sourceAccountNo,
      SNAP_SOURCE_BANK_CODE: this.sourceBankCode,
      SNAP_SIGNATURE_MODE: this.opts.signatureMode,
    };
  }

  /** Our merchant id at the simulator's acquirer (its default SNAP_SIM_QR_MERCHANT_ID) */
  get qrMerchantId(): string {
    return 'SIM-MERCHANT-1';
  }

  /** The settings that make the simulator our QRIS acquirer (with env(): the same provider). */
  acquirerEnv(): Record<string, string> {
    return {
      QRIS_ACQUIRER: 'snap',
      SNAP_ACQUIRER_MERCHANT_ID: this.qrMerchantId,
      SNAP_ACQUIRER_SIMULATOR_URL: this.controlUrl,
    };
  }

  /** What the simulator's own record says was executed, per partnerReferenceNo. */
  async executions(): Promise<
    { partnerReferenceNo: string; executions: number; state: string; reversals: number; amount: string }[]
  > {
    const res = await fetch(`${this.controlUrl}/executions`);
    return ((await res.json()) as { executions: never[] }).executions;
  }

  /** Every payment notification the simulator sent, and what it was answered. */
  async notifications(): Promise<
    {
      referenceNo: string;
      mode: string;
      attempt: number;
      goodSignature: boolean;
      httpStatus: number | null;
      responseCode: string | null;
    }[]
  > {
    const res = await fetch(`${this.controlUrl}/notifications`);
    return ((await res.json()) as { notifications: never[] }).notifications;
  }

  async control(path: string, body: object): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(`${this.controlUrl}/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  /** SIGKILL: the process is gone mid-call; its state (Postgres) stays. */
  async kill(): Promise<void> {
    await this.end('SIGKILL');
  }

  async restart(): Promise<void> {
    await this.end('SIGTERM');
    await this.launch();
  }

  async stop(): Promise<void> {
    await this.end('SIGTERM');
    const pool = new Pool({ connectionString: this.opts.databaseUrl, max: 1 });
    // A server gone away while the schema is dropped: the drop is skipped, the process carries on.
    pool.on('error', () => undefined);
    await pool.query(`DROP SCHEMA IF EXISTS ${this.opts.schema} CASCADE`).catch(() => undefined);
    await pool.end();
    if (this.ownsDir) rmSync(this.dir, { recursive: true, force: true });
  }

  private async end(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await exited;
  }

  private async launch(): Promise<void> {
    const root = repoRoot();
    const main = join(root, 'dist', 'apps', 'snap-simulator', 'src', 'main.js');
    // A checkout that was never built (a test run straight after install) builds the server code once.
    if (!existsSync(main)) {
      const built = spawnSync('npm', ['run', '--silent', 'build:server'], { cwd: root, stdio: 'inherit' });
      if (built.status !== 0 || !existsSync(main)) throw new Error('npm run build:server did not produce ' + main);
    }
    const log = createWriteStream(this.logFile, { flags: 'a' });
    const child = spawn(process.execPath, [main], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '',
        SNAP_SIM_HOST: '127.0.0.1',
        SNAP_SIM_PORT: String(this.opts.port),
        SNAP_SIM_DATABASE_URL: this.opts.databaseUrl,
        SNAP_SIM_SCHEMA: this.opts.schema,
        SNAP_SIM_CLIENT_ID: this.clientId,
        SNAP_SIM_CLIENT_SECRET_FILE: join(this.dir, 'client-secret'),
        SNAP_SIM_CLIENT_PUBLIC_KEY_FILE: join(this.dir, 'client-public.pem'),
        SNAP_SIM_PRIVATE_KEY_FILE: join(this.dir, 'simulator-private.pem'),
        SNAP_SIM_SIGNATURE_MODE: this.opts.signatureMode,
        SNAP_SIM_SOURCE_BALANCE: this.opts.sourceBalance.toString(),
        SNAP_SIM_DELAY_MS: String(this.opts.delayMs),
        SNAP_SIM_HANG_MS: String(this.opts.hangMs),
        ...(this.opts.notifyUrl ? { SNAP_SIM_NOTIFY_URL: this.opts.notifyUrl } : {}),
      },
    });
    // Both streams into one file: neither may end it (the other would then write after its end,
    // an error that fails whoever runs the stack); it ends once the child's output has drained.
    child.stdout?.pipe(log, { end: false });
    child.stderr?.pipe(log, { end: false });
    child.once('close', () => log.end());
    this.child = child;
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`the SNAP simulator exited:\n${tail(this.logFile)}`);
      try {
        if ((await fetch(`http://127.0.0.1:${this.opts.port}/healthz`)).ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`the SNAP simulator did not start within 20 s:\n${tail(this.logFile)}`);
  }
}

/** The SNAP provider simulator as its own process (see SnapSimulator.start). */
export function startSnapSimulator(options?: SnapSimulatorOptions): Promise<SnapSimulator> {
  return SnapSimulator.start(options);
}
