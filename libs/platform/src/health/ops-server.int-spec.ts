import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { commonEnv, loadConfig } from '../config/config';
import { createMetricsRegistry, startOpsServer } from './readiness';

describe('ops server bind address (OPS_HOST)', () => {
  it('binds loopback unless told otherwise: the default of OPS_HOST and of startOpsServer', async () => {
    expect(loadConfig(z.object({ OPS_HOST: commonEnv.OPS_HOST }), {}).OPS_HOST).toBe('127.0.0.1');
    const server = await startOpsServer({ port: 0, checks: [], registry: createMetricsRegistry('test') });
    try {
      expect((server.address() as AddressInfo).address).toBe('127.0.0.1');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
