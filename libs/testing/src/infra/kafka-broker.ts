import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Kafka, logLevel } from 'kafkajs';
import { Topic } from '@pay/contracts';
import { createTopicsAndWait, deadLetterTopic } from '@pay/bus';
import { freePort, repoRoot } from '../stack/local-stack';

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
}

/** What a running broker leaves in its directory, so another process (test.sh's trap) can stop it. */
interface BrokerState {
  pid: number;
  port: number;
  controllerPort: number;
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
    private readonly opts: Required<KafkaBrokerOptions>,
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

  /** Stops and starts the node again on the same data directory and ports, after `downMs` away (a broker outage). */
  async restart(downMs = 0): Promise<void> {
    await this.stop();
    await sleep(downMs);
    await this.launch();
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
    if (previous?.isOurs()) throw new Error(`a Kafka broker already runs on ${dir} (pid ${previous.pid}): bash tools/kafka/kafka.sh stop ${dir}`);
    if (!existsSync(this.configFile)) await this.configure();
    const { port, controllerPort } = JSON.parse(readFileSync(join(dir, 'ports.json'), 'utf8')) as Omit<BrokerState, 'pid'>;
    const out = openSync(join(dir, 'logs', 'stdout.log'), 'a');
    const child = spawn('java', [...this.jvmArgs(), 'kafka.Kafka', this.configFile], { detached: true, stdio: ['ignore', out, out] });
    child.unref();
    if (child.pid === undefined) throw new Error('could not start java (is a JDK on PATH?)');
    this.state = { pid: child.pid, port, controllerPort };
    writeFileSync(join(dir, 'broker.json'), JSON.stringify(this.state));
    try {
      await this.waitUntilAnswering(() => child.exitCode !== null || child.signalCode !== null);
      await this.createTopics();
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
    const { dir } = this.opts;
    const port = await freePort();
    const controllerPort = await freePort();
    writeFileSync(join(dir, 'ports.json'), JSON.stringify({ port, controllerPort }));
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
        'node.id=1',
        `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
        `listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
        `advertised.listeners=PLAINTEXT://127.0.0.1:${port}`,
        'controller.listener.names=CONTROLLER',
        'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
        'inter.broker.listener.name=PLAINTEXT',
        `log.dirs=${join(dir, 'data')}`,
        // As in compose: a typo in a topic name must fail, not create a 1-partition topic.
        'auto.create.topics.enable=false',
        `num.partitions=${KAFKA_PARTITIONS}`,
        // One node: internal topics cannot be replicated.
        'offsets.topic.replication.factor=1',
        'transaction.state.log.replication.factor=1',
        'transaction.state.log.min.isr=1',
        'group.initial.rebalance.delay.ms=0',
        // Fewer than the default 50: the first consumer group of a run waits for all of them.
        `offsets.topic.num.partitions=${KAFKA_PARTITIONS}`,
        // A small shared machine.
        'num.network.threads=2',
        'num.io.threads=4',
        '',
      ].join('\n'),
    );
    const clusterId = Buffer.from(randomUUID().replace(/-/g, ''), 'hex').toString('base64url');
    await run('java', ['-Xmx256m', ...this.jvmArgs().slice(2), 'kafka.tools.StorageTool', 'format', '-t', clusterId, '-c', this.configFile], {
      timeout: 60_000,
    }).catch((err: Error & { stdout?: string; stderr?: string }) => {
      throw new Error(`formatting the Kafka storage in ${dir} failed: ${err.message}\n${err.stdout ?? ''}${err.stderr ?? ''}`);
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
      if (exited()) throw new Error(`the Kafka broker exited during start-up; see ${this.logFile}:\n${tail(this.logFile)}`);
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
        throw new Error(`the Kafka broker did not answer within ${this.opts.startTimeoutMs} ms; see ${this.logFile}:\n${tail(this.logFile)}`);
      }
      await sleep(250);
    }
  }

  /** kafka-init's `kafka-topics.sh --create --if-not-exists` for every topic and its .dlq. */
  private async createTopics(): Promise<void> {
    const admin = this.admin();
    try {
      await admin.connect();
      const existing = new Set(await admin.listTopics());
      const missing = KAFKA_TOPICS.filter((t) => !existing.has(t));
      await createTopicsAndWait(
        admin,
        missing.map((topic) => ({ topic, numPartitions: KAFKA_PARTITIONS, replicationFactor: 1 })),
      );
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

function withDefaults(options: KafkaBrokerOptions): Required<KafkaBrokerOptions> {
  return {
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
