import Redis, { type RedisOptions } from 'ioredis';

const SENTINEL_SCHEME = /^(rediss?)\+sentinel:\/\/(.*)$/;

/** A Redis URL that names Sentinels, not a server: the primary is whichever they name. */
export function isSentinelUrl(redisUrl: string): boolean {
  return SENTINEL_SCHEME.test(redisUrl);
}

/**
 * ioredis's options for a `redis+sentinel://` URL (`rediss+sentinel://` for TLS to the servers):
 *
 *   redis+sentinel://[[user]:password@]host:port[,host:port…]/<primary name>[/<db>]
 *
 * ioredis asks the Sentinels, in turn, which server is the primary of that name, connects to it,
 * and on a failover (the old primary's clients are disconnected by Sentinel) asks again and
 * connects to the new one. The credentials are the servers' and, when given, the Sentinels' too.
 * Throws a message naming what is wrong (a setting check calls it).
 */
export function sentinelOptions(redisUrl: string): RedisOptions {
  const match = SENTINEL_SCHEME.exec(redisUrl);
  if (!match) throw new Error('is not a redis+sentinel:// URL');
  const [, scheme, rest] = match;
  const at = rest.lastIndexOf('@', rest.indexOf('/') === -1 ? rest.length : rest.indexOf('/'));
  const credentials = at === -1 ? undefined : rest.slice(0, at);
  const [hostList = '', name = '', db = '0', ...extra] = rest.slice(at + 1).split('/');
  const sentinels = hostList.split(',').map((hostPort) => {
    const found = /^([^:\s]+):(\d{1,5})$/.exec(hostPort);
    if (!found || Number(found[2]) > 65535) throw new Error(`names the Sentinel "${hostPort}"; each must be host:port`);
    return { host: found[1], port: Number(found[2]) };
  });
  if (!/^[\w.-]+$/.test(name))
    throw new Error(
      'must name the primary after the Sentinels: redis+sentinel://host:26379[,host:26379]/<primary name>[/<db>]',
    );
  if (!/^\d+$/.test(db) || extra.length > 0)
    throw new Error('must end with the primary name and, optionally, a database number');
  const [username, password] = credentials === undefined ? [undefined, undefined] : splitCredentials(credentials);
  return {
    sentinels,
    name,
    db: Number(db),
    ...(username ? { username, sentinelUsername: username } : {}),
    ...(password ? { password, sentinelPassword: password } : {}),
    ...(scheme === 'rediss' ? { tls: {}, enableTLSForSentinelMode: true } : {}),
  };
}

function splitCredentials(credentials: string): [string | undefined, string | undefined] {
  const colon = credentials.indexOf(':');
  const user = colon === -1 ? credentials : credentials.slice(0, colon);
  const password = colon === -1 ? undefined : credentials.slice(colon + 1);
  return [user ? decodeURIComponent(user) : undefined, password ? decodeURIComponent(password) : undefined];
}

/**
 * A connection to REDIS_URL with `options`: a server's URL (`redis://`, `rediss://`) as ioredis
 * takes it, or the primary that Sentinels name (`redis+sentinel://`, sentinelOptions). Every
 * connection the services make goes through here, so each follows a Sentinel failover.
 */
export function createRedis(redisUrl: string, options: RedisOptions = {}): Redis {
  return isSentinelUrl(redisUrl)
    ? new Redis({ ...options, ...sentinelOptions(redisUrl) })
    : new Redis(redisUrl, options);
}
