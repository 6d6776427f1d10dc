/**
 * The launcher behind tools/kafka/kafka.sh: starts, stops or restarts the one-node Kafka
 * broker kept in a directory (see KafkaBroker). `start` prints the bootstrap address
 * (KAFKA_BROKERS) on stdout and leaves the broker running after it exits. `start DIR --secure`
 * adds a SASL_SSL listener (SCRAM-SHA-512 user `payments`) and a mutual-TLS one, with a CA made
 * in DIR/pki, and prints the settings that reach them on stderr.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createTestPki, KafkaBroker, type KafkaBrokerSecurity } from '@pay/devstack';

const SCRAM_USER = 'payments';
const SCRAM_PASSWORD = 'payments-local-secret';

async function security(dir: string): Promise<KafkaBrokerSecurity> {
  const pki = await createTestPki(join(dir, 'pki'), SCRAM_USER);
  return {
    caFile: pki.caFile,
    certFile: pki.serverCertFile,
    keyFile: pki.serverKeyFile,
    scramUsers: { [SCRAM_USER]: SCRAM_PASSWORD },
  };
}

function describeSecure(broker: KafkaBroker, dir: string): string {
  const pki = join(dir, 'pki');
  return [
    '# SASL_SSL (SCRAM-SHA-512):',
    `KAFKA_BROKERS=${broker.saslSslBrokers} KAFKA_SSL=true KAFKA_SSL_CA_FILE=${pki}/ca.pem KAFKA_SASL_MECHANISM=scram-sha-512 KAFKA_SASL_USERNAME=${SCRAM_USER} KAFKA_SASL_PASSWORD=${SCRAM_PASSWORD}`,
    '# mutual TLS:',
    `KAFKA_BROKERS=${broker.mtlsBrokers} KAFKA_SSL=true KAFKA_SSL_CA_FILE=${pki}/ca.pem KAFKA_SSL_CERT_FILE=${pki}/client.pem KAFKA_SSL_KEY_FILE=${pki}/client.key`,
  ].join('\n');
}

async function main(command: string | undefined, dir: string | undefined, flag: string | undefined): Promise<void> {
  if (
    !dir ||
    !['start', 'stop', 'restart'].includes(command ?? '') ||
    (flag !== undefined && !(command === 'start' && flag === '--secure'))
  ) {
    throw new Error('usage: broker.js start <dir> [--secure] | stop <dir> | restart <dir>');
  }
  if (command === 'start') {
    // A directory started before keeps its config, certificates included (they are made once).
    const fresh = !existsSync(join(dir, 'server.properties'));
    const broker = await KafkaBroker.start({
      dir,
      security: flag === '--secure' && fresh ? await security(dir) : undefined,
    });
    console.log(broker.brokers);
    if (flag === '--secure') console.error(describeSecure(broker, dir));
    return;
  }
  const broker = KafkaBroker.attach({ dir });
  if (!broker) throw new Error(`no broker was started in ${dir}`);
  if (command === 'stop') return broker.stop();
  await broker.restart();
  console.log(broker.brokers);
}

main(process.argv[2], process.argv[3], process.argv[4]).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
