import { loadConfig } from '@pay/platform';
import { adminConfigSchema } from './admin.config';

describe('admin CLI configuration', () => {
  it('needs nothing to start (--help), and takes only `true` as allowing loopback callbacks', () => {
    expect(loadConfig(adminConfigSchema, {})).toEqual({
      database: { url: undefined },
      webhooks: { allowLoopback: false, allowPrivateHosts: [] },
      links: { dashboard: 'http://localhost:3000/dashboard', console: 'http://localhost:3001/console' },
    });
    expect(loadConfig(adminConfigSchema, { WEBHOOK_ALLOW_LOOPBACK: 'true' }).webhooks.allowLoopback).toBe(true);
    expect(loadConfig(adminConfigSchema, { WEBHOOK_ALLOW_LOOPBACK: '1' }).webhooks.allowLoopback).toBe(false);
    expect(loadConfig(adminConfigSchema, { DASHBOARD_PUBLIC_URL: '' }).links.dashboard).toBe(
      'http://localhost:3000/dashboard',
    );
  });
});
