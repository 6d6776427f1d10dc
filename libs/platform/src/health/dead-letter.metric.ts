import { Counter, type Registry } from 'prom-client';

/**
 * `bus_dead_letters_total{topic,group,fault}`: every record this process moved to a dead-letter
 * topic. Any increase deserves a page (see the README's dead-letter runbook); the matching log line
 * is `bus record DEAD-LETTERED`. Returns the listener the bus transport calls.
 */
export function deadLetterMetric(
  registry: Registry,
): (notice: { topic: string; group: string; fault: string }) => void {
  const counter = new Counter({
    name: 'bus_dead_letters_total',
    help: 'Records moved to <topic>.dlq by this process, by original topic, consumer group and fault (permanent | unknown)',
    labelNames: ['topic', 'group', 'fault'],
    registers: [registry],
  });
  return ({ topic, group, fault }) => counter.inc({ topic, group, fault });
}
