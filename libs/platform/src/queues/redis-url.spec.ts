import { z } from 'zod';
import { loadConfig, redisUrl } from '../config/config';
import { isSentinelUrl, sentinelOptions } from './redis-url';

describe('REDIS_URL naming Sentinels', () => {
  it('gives ioredis the Sentinels, the primary name, the database and the credentials', () => {
    expect(sentinelOptions('redis+sentinel://:s%40cret@sentinel-0:26379,sentinel-1.redis:26380/mymaster/2')).toEqual({
      sentinels: [
        { host: 'sentinel-0', port: 26379 },
        { host: 'sentinel-1.redis', port: 26380 },
      ],
      name: 'mymaster',
      db: 2,
      password: 's@cret',
      sentinelPassword: 's@cret',
    });
    expect(sentinelOptions('rediss+sentinel://app:pw@10.0.0.5:26379/payments')).toEqual({
      sentinels: [{ host: '10.0.0.5', port: 26379 }],
      name: 'payments',
      db: 0,
      username: 'app',
      sentinelUsername: 'app',
      password: 'pw',
      sentinelPassword: 'pw',
      tls: {},
      enableTLSForSentinelMode: true,
    });
  });

  it('tells a Sentinel URL from a server URL', () => {
    expect(isSentinelUrl('redis+sentinel://s:26379/m')).toBe(true);
    expect(isSentinelUrl('rediss+sentinel://s:26379/m')).toBe(true);
    expect(isSentinelUrl('redis://127.0.0.1:6379/0')).toBe(false);
  });

  it('refuses a malformed one at start-up, naming what is wrong', () => {
    const schema = z.object({ REDIS_URL: redisUrl() });
    const problem = (url: string) => {
      try {
        loadConfig(schema, { REDIS_URL: url });
        return 'accepted';
      } catch (err) {
        return (err as Error).message;
      }
    };
    expect(problem('redis+sentinel://s-0:26379,s-1:26379/mymaster')).toBe('accepted');
    expect(problem('redis://127.0.0.1:6379/0')).toBe('accepted');
    expect(problem('redis+sentinel://s-0:26379')).toMatch(/REDIS_URL: must name the primary after the Sentinels/);
    expect(problem('redis+sentinel://s-0,s-1:26379/mymaster')).toMatch(
      /REDIS_URL: names the Sentinel "s-0"; each must be host:port/,
    );
    expect(problem('redis+sentinel://s-0:26379/mymaster/x')).toMatch(
      /REDIS_URL: must end with the primary name and, optionally, a database number/,
    );
    expect(problem('sentinel://s-0:26379/mymaster')).toMatch(/REDIS_URL: must be a Redis URL/);
  });
});
