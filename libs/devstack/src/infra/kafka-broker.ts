import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { type Admin, Kafka, logLevel } from 'kafkajs';
import { Topic } from '@pay/contracts';
import { createTopicsAndWait, deadLetterTopic } from '@pay/bus';
import { repoRoot } from '@pay/testing';
import { freePort } from '../stack/free-port';

/** The broker docker-compose.yml runs (apache/kafka:3.9.1); tools/kafka/pom.xml pins the same. */
export const KAFKA_VERSION = '3.9.1';

/** Partitions of every topic, as kafka-init creates them (and BUS_PARTITIONS says). */
export const KAFKA_PARTITIONS = 12;

/** The topics kafka-init creates in docker-compose.yml: each topic and its dead-letter topic. */
export const KAFKA_TOPICS: readonly string[] = Object.values(Topic).flatMap((t) => [t, deadLetterTopic(t)]);

export interface KafkaBrokerOptions {
  /** Holds everything of this broker (config, KRaft metadata, logs, pid); a restart reuses it. */
  dir: string;
  /** The broker's jars (tools/kafka/kafka.sh install); default <repo>/.local/kafka/lib */
  libDir?: string;
  /** JVM heap; the default 1 GB is plenty for one node under tests (the machine has 2 cores, shared). */
  heapMb?: number;
  startTimeoutMs?: number;
  /** Adds a SASL_SSL and a mutual-TLS listener beside the plaintext one (which the launcher itself keeps using). */
  security?: KafkaBrokerSecurity;
  /** A node of a cluster of several (KafkaCluster): its id, ports and quorum; the cluster creates the topics. */
  clusterNode?: KafkaClusterNode;
}

/** What a node of a KafkaCluster is told: its id and ports, the cluster's id, quorum and replication. */
export interface KafkaClusterNode {
  nodeId: number;
  port: number;
  controllerPort: number;
  clusterId: string;
  /** controller.quorum.voters: every node, `id@host:controllerPort` */
  voters: string;
  /** Replicas of every topic (the cluster's size); min.insync.replicas is one fewer, at least 1 */
  replicationFactor: number;
}

/**
 * A broker as managed clusters run them: SASL_SSL (SCRAM-SHA-512, and OAUTHBEARER with Kafka's
 * unsecured JWS validator, which checks the token's claims but not a signature) and SSL with
 * client certificates required. Certificates are PEM, given inline to the broker (Kafka 3.9).
 */
export interface KafkaBrokerSecurity {
  /** The CA that signed certFile (clients trust it) and that client certificates must chain to */
  caFile: string;
  certFile: string;
  /** Unencrypted PKCS#8 */
  keyFile: string;
  /** SCRAM-SHA-512 users (name -> password), created when the storage is formatted */
  scramUsers?: Record<string, string>;
  /** connections.max.reauth.ms: clients authenticate again after this, so a changed password shows on live connections */
  reauthMs?: number;
}

/** What a running broker leaves in its directory, so another process (test.sh's trap) can stop it. */
interface BrokerState {
  pid: number;
  port: number;
  controllerPort: number;
  saslSslPort?: number;
  sslPort?: number;
}

const run = promisify(execFile);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * One real Apache Kafka node (KRaft: broker and controller in one JVM, no ZooKeeper) on free
 * ports with its own data directory: for the test command, the local stack and fault tests
 * (stop, then start again on the same data and ports). The JVM runs detached, so a CLI can
 * start it and a later one stop it; `stop` only ever signals the process whose command line
 * names this broker's own config file.
 */
export class KafkaBroker {
  private constructor(
    private readonly opts: ReturnType<typeof withDefaults>,
    private state: BrokerState,
  ) {}

  /** Formats the storage on first use, starts the node, waits until it answers, creates the topics. */
  static async start(options: KafkaBrokerOptions): Promise<KafkaBroker> {
    const broker = new KafkaBroker(withDefaults(options), { pid: 0, port: 0, controllerPort: 0 });
    await broker.launch();
    return broker;
  }

  /** A broker started by another process, from its directory (for `stop`). */
  static attach(options: KafkaBrokerOptions): KafkaBroker | null {
    const opts = withDefaults(options);
    const file = join(opts.dir, 'broker.json');
    if (!existsSync(file)) return null;
    return new KafkaBroker(opts, JSON.parse(readFileSync(file, 'utf8')) as BrokerState);
  }

  /** host:port for KAFKA_BROKERS */
  get brokers(): string {
    return `127.0.0.1:${this.state.port}`;
  }

  /** host:port of the SASL_SSL listener (with `security`) */
  get saslSslBrokers(): string {
    return `127.0.0.1:${this.securePort('saslSslPort')}`;
  }

  /** host:port of the SSL listener that requires a client certificate (with `security`) */
  get mtlsBrokers(): string {
    return `127.0.0.1:${this.securePort('sslPort')}`;
  }

  /** Sets a SCRAM-SHA-512 user's password on the running broker (kafka-configs.sh --alter --add-config). */
  async setScramPassword(user: string, password: string): Promise<void> {
    const args = [
      '--bootstrap-server',
      this.brokers,
      '--alter',
      '--add-config',
      `SCRAM-SHA-512=[password=${password}]`,
      '--entity-type',
      'users',
      '--entity-name',
      user,
    ];
    await run('java', ['-Xmx128m', ...this.jvmArgs().slice(2), 'kafka.admin.ConfigCommand', ...args], {
      timeout: 60_000,
    }).catch((err: Error & { stdout?: string; stderr?: string }) => {
      throw new Error(
        `kafka-configs --alter SCRAM-SHA-512 of ${user} failed: ${err.message}\n${err.stdout ?? ''}${err.stderr ?? ''}`,
      );
    });
  }

  get pid(): number {
    return this.state.pid;
  }

  get logFile(): string {
    return join(this.opts.dir, 'logs', 'server.log');
  }

  /** Stops the node the way an orchestrator does (SIGTERM: controlled shutdown), SIGKILL after 30 s. */
  async stop(): Promise<void> {
    if (!this.isOurs()) return;
    process.kill(this.state.pid, 'SIGTERM');
    const deadline = Date.now() + 30_000;
    while (this.isOurs()) {
      if (Date.now() > deadline) {
        process.kill(this.state.pid, 'SIGKILL');
        await sleep(500);
        break;
      }
      await sleep(100);
    }
  }

  /**
   * Stops and starts the node again on the same data directory and ports, after `downMs` away (a
   * broker outage). `crash`: SIGKILL instead of a controlled shutdown (a node lost; also quicker).
   */
  async restart(opts: { crash?: boolean; downMs?: number } = {}): Promise<void> {
    if (opts.crash && this.isOurs()) {
      process.kill(this.state.pid, 'SIGKILL');
      while (this.isOurs()) await sleep(50);
    }
    await this.stop();
    await sleep(opts.downMs ?? 0);
    await this.launch();
  }

  private securePort(name: 'saslSslPort' | 'sslPort'): number {
    const port = this.state[name];
    if (port === undefined) throw new Error('this broker was started without `security`');
    return port;
  }

  private get configFile(): string {
    return join(this.opts.dir, 'server.properties');
  }

  private async launch(): Promise<void> {
    const { dir, libDir } = this.opts;
    if (!existsSync(libDir) || !readdirSync(libDir).includes(`kafka_2.13-${KAFKA_VERSION}.jar`)) {
      throw new Error(`Kafka ${KAFKA_VERSION} is not installed in ${libDir}: run bash tools/kafka/kafka.sh install`);
    }
    mkdirSync(join(dir, 'logs'), { recursive: true });
    const previous = KafkaBroker.attach(this.opts);
    if (previous?.isOurs())
      throw new Error(
        `a Kafka broker already runs on ${dir} (pid ${previous.pid}): bash tools/kafka/kafka.sh stop ${dir}`,
      );
    if (!existsSync(this.configFile)) await this.configure();
    const ports = JSON.parse(readFileSync(join(dir, 'ports.json'), 'utf8')) as Omit<BrokerState, 'pid'>;
    const out = openSync(join(dir, 'logs', 'stdout.log'), 'a');
    const child = spawn('java', [...this.jvmArgs(), 'kafka.Kafka', this.configFile], {
      detached: true,
      stdio: ['ignore', out, out],
    });
    child.unref();
    if (child.pid === undefined) throw new Error('could not start java (is a JDK on PATH?)');
    this.state = { pid: child.pid, ...ports };
    writeFileSync(join(dir, 'broker.json'), JSON.stringify(this.state));
    try {
      await this.waitUntilAnswering(() => child.exitCode !== null || child.signalCode !== null);
      if (!this.opts.clusterNode) await this.createTopics();
    } catch (err) {
      await this.stop();
      throw err;
    }
  }

  private jvmArgs(): string[] {
    const { dir, libDir, heapMb } = this.opts;
    return [
      `-Xmx${heapMb}m`,
      `-Xms${Math.min(256, heapMb)}m`,
      '-XX:+UseG1GC',
      '-XX:MaxGCPauseMillis=20',
      '-Djava.awt.headless=true',
      `-Dlog4j.configuration=file:${join(dir, 'log4j.properties')}`,
      `-Dkafka.logs.dir=${join(dir, 'logs')}`,
      '-cp',
      `${libDir}/*`,
    ];
  }

  /** Writes the node's config (the settings of the compose service) and formats its KRaft storage. */
  private async configure(): Promise<void> {
    const { dir, security, clusterNode: node } = this.opts;
    const port = node?.port ?? (await freePort());
    const controllerPort = node?.controllerPort ?? (await freePort());
    const replicas = node?.replicationFactor ?? 1;
    const minInsync = Math.max(1, replicas - 1);
    const secure = security ? { saslSslPort: await freePort(), sslPort: await freePort() } : null;
    writeFileSync(join(dir, 'ports.json'), JSON.stringify({ port, controllerPort, ...secure }));
    writeFileSync(
      join(dir, 'log4j.properties'),
      [
        'log4j.rootLogger=INFO, file',
        'log4j.appender.file=org.apache.log4j.RollingFileAppender',
        `log4j.appender.file.File=${join(dir, 'logs', 'server.log')}`,
        'log4j.appender.file.MaxFileSize=20MB',
        'log4j.appender.file.MaxBackupIndex=2',
        'log4j.appender.file.layout=org.apache.log4j.PatternLayout',
        'log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n',
        // Every test topic created and deleted is logged line by line at INFO.
        'log4j.logger.kafka=WARN',
        'log4j.logger.state.change.logger=WARN',
        'log4j.logger.org.apache.kafka=WARN',
        'log4j.logger.kafka.server.KafkaServer=INFO',
        'log4j.logger.kafka.server.BrokerServer=INFO',
        '',
      ].join('\n'),
    );
    writeFileSync(
      this.configFile,
      [
        'process.roles=broker,controller',
        `node.id=${node?.nodeId ?? 1}`,
        `controller.quorum.voters=${node?.voters ?? `1@127.0.0.1:${controllerPort}`}`,
        `listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}${secure ? `,SASL_SSL://127.0.0.1:${secure.saslSslPort},SSL://127.0.0.1:${secure.sslPort}` : ''}`,
        `advertised.listeners=PLAINTEXT://127.0.0.1:${port}${secure ? `,SASL_SSL://127.0.0.1:${secure.saslSslPort},SSL://127.0.0.1:${secure.sslPort}` : ''}`,
        'controller.listener.names=CONTROLLER',
        `listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT${secure ? ',SASL_SSL:SASL_SSL,SSL:SSL' : ''}`,
        ...(security ? securityConfig(security) : []),
        'inter.broker.listener.name=PLAINTEXT',
        `log.dirs=${join(dir, 'data')}`,
        // As in compose: a typo in a topic name must fail, not create a 1-partition topic.
        'auto.create.topics.enable=false',
        `num.partitions=${KAFKA_PARTITIONS}`,
        // One node: internal topics cannot be replicated. A cluster replicates everything, as managed clusters
        // do (MSK's default for three brokers): a write is acknowledged (acks=all) once all in-sync replicas,
        // at least min.insync.replicas of them, hold it.
        `offsets.topic.replication.factor=${replicas}`,
        `transaction.state.log.replication.factor=${replicas}`,
        `transaction.state.log.min.isr=${minInsync}`,
        `default.replication.factor=${replicas}`,
        `min.insync.replicas=${minInsync}`,
        'group.initial.rebalance.delay.ms=0',
        // Fewer than the default 50: the first consumer group of a run waits for all of them.
        `offsets.topic.num.partitions=${KAFKA_PARTITIONS}`,
        // A small shared machine.
        'num.network.threads=2',
        'num.io.threads=4',
        '',
      ].join('\n'),
    );
    const clusterId = node?.clusterId ?? newClusterId();
    const scram = Object.entries(security?.scramUsers ?? {}).flatMap(([name, password]) => [
      '--add-scram',
      `SCRAM-SHA-512=[name=${name},password=${password}]`,
    ]);
    // `--cluster-id=<id>`, not `-t <id>`: an id starting with '-' (1 in 64) was taken for an option and the format failed.
    await run(
      'java',
      [
        '-Xmx256m',
        ...this.jvmArgs().slice(2),
        'kafka.tools.StorageTool',
        'format',
        `--cluster-id=${clusterId}`,
        '-c',
        this.configFile,
        ...scram,
      ],
      {
        timeout: 60_000,
      },
    ).catch((err: Error & { stdout?: string; stderr?: string }) => {
      throw new Error(
        `formatting the Kafka storage in ${dir} failed: ${err.message}\n${err.stdout ?? ''}${err.stderr ?? ''}`,
      );
    });
  }

  private admin() {
    return new Kafka({
      brokers: [this.brokers],
      clientId: 'kafka-broker-launcher',
      logLevel: logLevel.NOTHING,
      connectionTimeout: 1_000,
      retry: { retries: 0 },
    }).admin();
  }

  private async waitUntilAnswering(exited: () => boolean): Promise<void> {
    const deadline = Date.now() + this.opts.startTimeoutMs;
    for (;;) {
      if (exited())
        throw new Error(`the Kafka broker exited during start-up; see ${this.logFile}:\n${tail(this.logFile)}`);
      const admin = this.admin();
      try {
        await admin.connect();
        const cluster = await admin.describeCluster();
        if (cluster.controller !== null && cluster.brokers.length > 0) return;
      } catch {
        // not listening yet, or no controller elected yet
      } finally {
        await admin.disconnect().catch(() => undefined);
      }
      if (Date.now() > deadline) {
        throw new Error(
          `the Kafka broker did not answer within ${this.opts.startTimeoutMs} ms; see ${this.logFile}:\n${tail(this.logFile)}`,
        );
      }
      await sleep(250);
    }
  }

  /** kafka-init's `kafka-topics.sh --create --if-not-exists` for every topic and its .dlq. */
  private async createTopics(): Promise<void> {
    const admin = this.admin();
    try {
      await admin.connect();
      await createKafkaInitTopics(admin, 1);
    } finally {
      await admin.disconnect();
    }
  }

  /** True while the recorded pid is this broker's JVM (never another broker, nor a reused pid). */
  private isOurs(): boolean {
    if (this.state.pid <= 0) return false;
    try {
      const cmdline = readFileSync(`/proc/${this.state.pid}/cmdline`, 'utf8');
      return cmdline.includes(this.configFile);
    } catch {
      return false;
    }
  }
}

/** kafka-init's `kafka-topics.sh --create --if-not-exists`: every topic and its .dlq, replicated `replicationFactor` times. */
export async function createKafkaInitTopics(admin: Admin, replicationFactor: number): Promise<void> {
  const existing = new Set(await admin.listTopics());
  const missing = KAFKA_TOPICS.filter((t) => !existing.has(t));
  await createTopicsAndWait(
    admin,
    missing.map((topic) => ({ topic, numPartitions: KAFKA_PARTITIONS, replicationFactor })),
  );
}

/** A KRaft cluster id: 16 random bytes, base64url. */
export function newClusterId(): string {
  return Buffer.from(randomUUID().replace(/-/g, ''), 'hex').toString('base64url');
}

/** A PEM text as one .properties value (java.util.Properties reads a backslash-n as a line break). */
const inlinePem = (file: string): string => readFileSync(file, 'utf8').trim().split('\n').join('\\n');

function securityConfig(security: KafkaBrokerSecurity): string[] {
  return [
    'sasl.enabled.mechanisms=SCRAM-SHA-512,OAUTHBEARER',
    'listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;',
    // The broker's own login needs a subject; clients' tokens are checked by the default unsecured validator.
    'listener.name.sasl_ssl.oauthbearer.sasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required unsecuredLoginStringClaim_sub="broker";',
    'listener.name.ssl.ssl.client.auth=required',
    'ssl.keystore.type=PEM',
    `ssl.keystore.certificate.chain=${inlinePem(security.certFile)}`,
    `ssl.keystore.key=${inlinePem(security.keyFile)}`,
    'ssl.truststore.type=PEM',
    `ssl.truststore.certificates=${inlinePem(security.caFile)}`,
    ...(security.reauthMs ? [`connections.max.reauth.ms=${security.reauthMs}`] : []),
  ];
}

function withDefaults(
  options: KafkaBrokerOptions,
): Required<Omit<KafkaBrokerOptions, 'security' | 'clusterNode'>> &
  Pick<KafkaBrokerOptions, 'security' | 'clusterNode'> {
  return {
    security: options.security,
    clusterNode: options.clusterNode,
    dir: resolve(options.dir),
    libDir: options.libDir ?? join(repoRoot(), '.local', 'kafka', 'lib'),
    heapMb: options.heapMb ?? 1024,
    startTimeoutMs: options.startTimeoutMs ?? 90_000,
  };
}

function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
