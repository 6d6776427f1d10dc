import { busConsumerMetrics, deadLetterMetric } from '@pay/platform';
import type { Registry } from 'prom-client';
import type { BusConfig } from './config/bus-config.schema';
import type { BusLogger } from './logging/bus-logger.interface';
import { createTransport } from './transport.factory';
import type { BusTransport } from './transport/bus-transport.interface';

/**
 * The transport a service consumes and publishes with, observed: dead letters, consumer
 * rebalances, crashes and lag as metrics in the service's registry; `onFailure` when consuming
 * stops for good (the service fails readiness and exits).
 */
export function createServiceTransport(
  config: BusConfig,
  deps: { logger: BusLogger; registry: Registry; onFailure: (error: Error) => void },
): BusTransport {
  const consumerMetrics = busConsumerMetrics(deps.registry);
  const transport = createTransport(config, {
    logger: deps.logger,
    onDeadLetter: deadLetterMetric(deps.registry),
    onFailure: deps.onFailure,
    onRebalance: consumerMetrics.onRebalance,
    onCrash: consumerMetrics.onCrash,
  });
  consumerMetrics.measureLag(async () => (await transport.consumerLag?.()) ?? []);
  return transport;
}
