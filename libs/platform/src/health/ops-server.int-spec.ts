import type { AddressInfo } from 'node:net';
import { Gauge } from 'prom-client';
import { z } from 'zod';
import { loadConfig } from '../config/config';
import { opsEnvShape } from '../config/service.config';
import { createMetricsRegistry, startOpsServer } from './readiness';

describe('ops server bind address (OPS_HOST)', () => {
  it('binds loopback unless told otherwise: the default of OPS_HOST and of startOpsServer', async () => {
    expect(loadConfig(z.object({ OPS_HOST: opsEnvShape(9100).OPS_HOST }), {}).OPS_HOST).toBe('127.0.0.1');
    const server = await startOpsServer({ port: 0, checks: [], registry: createMetricsRegistry('test') });
    try {
      expect((server.address() as AddressInfo).address).toBe('127.0.0.1');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('ops server /metrics', () => {
  it('answers a scrape whose collector throws with a 500 naming the failure, at once, and the next good scrape with 200', async () => {
    const registry = createMetricsRegistry('test');
    let failing = true;
    new Gauge({
      name: 'spec_from_the_database',
      help: 'a gauge read from a database that is away',
      registers: [registry],
      collect() {
        if (failing) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
        this.set(7);
      },
    });
    const server = await startOpsServer({ port: 0, checks: [], registry });
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
      const failed = await fetch(url, { signal: AbortSignal.timeout(2000) });
      expect(failed.status).toBe(500);
      expect(await failed.text()).toBe('metrics collection failed: connect ECONNREFUSED 127.0.0.1:5432\n');
      failing = false;
      const ok = await fetch(url, { signal: AbortSignal.timeout(2000) });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain('spec_from_the_database{service="test"} 7');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
