import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { repoRoot } from '@pay/testing';
import { KAFKA_PARTITIONS, KAFKA_TOPICS, KAFKA_VERSION } from './kafka-broker';

interface ComposeService {
  image: string;
  environment: Record<string, string>;
}

// The broker of the tests must be the broker of production's compose stack, with the same topics.
describe('KafkaBroker matches docker-compose.yml', () => {
  const root = repoRoot();
  const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8')) as {
    services: Record<string, ComposeService>;
  };
  const init = compose.services['kafka-init'];

  it('creates the topics of kafka-init, each with its .dlq, with the same partition count', () => {
    const expected = init.environment.TOPICS.split(/\s+/).flatMap((t) => [t, `${t}.dlq`]);
    expect([...KAFKA_TOPICS].sort()).toEqual(expected.sort());
    expect(KAFKA_PARTITIONS).toBe(Number(init.environment.PARTITIONS));
  });

  it('runs the Kafka version of the compose image, which tools/kafka/pom.xml fetches', () => {
    // Its default: the official image (KAFKA_IMAGE names the stand-in where no registry is reachable).
    expect(compose.services.kafka.image).toBe(`\${KAFKA_IMAGE:-apache/kafka:${KAFKA_VERSION}}`);
    expect(readFileSync(join(root, 'tools', 'kafka', 'pom.xml'), 'utf8')).toContain(
      `<kafka.version>${KAFKA_VERSION}</kafka.version>`,
    );
  });
});
