import { classifyFault, databaseInputRefusal, isMisconfiguration, PermanentError, TransientError } from './fault';

const withCode = (code: string, message = 'boom'): Error => Object.assign(new Error(message), { code });
/** The shape Prisma 7 throws for a driver adapter failure (seen from @prisma/adapter-pg 7.10). */
const prismaAdapterError = (cause: object): Error =>
  Object.assign(new Error('Raw query failed.'), {
    name: 'PrismaClientKnownRequestError',
    code: 'P2010',
    meta: { driverAdapterError: { name: 'DriverAdapterError', cause } },
  });

describe('classifyFault', () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    [
      'an administrator terminating the connection (57P01)',
      withCode('57P01', 'terminating connection due to administrator command'),
    ],
    ['a serialization failure', withCode('40001')],
    ['a deadlock', withCode('40P01')],
    ['a lock timeout', withCode('55P03')],
    ['a statement timeout', withCode('57014')],
    ['the server starting up', withCode('57P03')],
    ['too many connections (class 53)', withCode('53300')],
    ['a connection exception (class 08)', withCode('08006')],
    ['a read-only server during failover', withCode('25006')],
    ['node-postgres losing the socket', new Error('Connection terminated unexpectedly')],
    ['node-postgres pool connect timeout', new Error('timeout exceeded when trying to connect')],
    ['Prisma: server unreachable', withCode('P1001')],
    ['Prisma: pool timeout', withCode('P2024')],
    ['Prisma adapter: connection closed', Object.assign(new Error('x'), { cause: { kind: 'ConnectionClosed' } })],
    ['ioredis: closed connection', new Error('Connection is closed.')],
    [
      'ioredis: retries per request exhausted',
      new Error(
        'Reached the max retries per request limit (which is 20). Refer to "maxRetriesPerRequest" option for details.',
      ),
    ],
    ['Redis loading its data set', new Error('LOADING Redis is loading the dataset in memory')],
    ['Redis at its memory limit', new Error("OOM command not allowed when used memory > 'maxmemory'.")],
    [
      'Redis busy running a script',
      new Error('BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.'),
    ],
    [
      'Redis unable to persist',
      new Error('MISCONF Redis is configured to save RDB snapshots, but it is currently not able to persist on disk.'),
    ],
    ['kafkajs: retriable error', Object.assign(new Error('The coordinator is not available'), { retriable: true })],
    [
      'kafkajs: connection error by name',
      Object.assign(new Error('Connection error'), { name: 'KafkaJSConnectionError' }),
    ],
    ['AWS SDK: 503 from S3', Object.assign(new Error('Service Unavailable'), { $metadata: { httpStatusCode: 503 } })],
    ['our own TransientError', new TransientError('rail busy')],
    ['a wrapped transient cause', new Error('outer', { cause: withCode('ECONNRESET') })],
    [
      'Prisma 7 raw query: database not reachable (P2010 with the adapter error in meta)',
      prismaAdapterError({ kind: 'DatabaseNotReachable', host: '127.0.0.1', port: 5432 }),
    ],
    [
      'Prisma 7: connection terminated by an administrator',
      prismaAdapterError({
        kind: 'postgres',
        code: '57P01',
        message: 'terminating connection due to administrator command',
      }),
    ],
    ['ioredis: command timeout', new Error('Command timed out')],
  ])('%s is transient', (_label, error) => {
    expect(classifyFault(error)).toBe('transient');
  });

  it.each([
    [
      'unparseable JSON',
      (() => {
        try {
          JSON.parse('{');
        } catch (e) {
          return e;
        }
      })(),
    ],
    ['an invalid message', Object.assign(new Error('invalid message: amount'), { name: 'InvalidMessageError' })],
    ['our own PermanentError', new PermanentError('unknown contract version 9')],
  ])('%s is permanent', (_label, error) => {
    expect(classifyFault(error)).toBe('permanent');
  });

  it.each([
    ['a TypeError (a bug)', new TypeError("Cannot read properties of undefined (reading 'x')")],
    ['a unique violation (may be a lost race; not known to be transient)', withCode('23505')],
    ['an undefined table', withCode('42P01')],
    ['a string', 'oops'],
    ['undefined', undefined],
  ])('%s is unknown', (_label, error) => {
    expect(classifyFault(error)).toBe('unknown');
  });

  it('a permanent flag beats a transient cause', () => {
    expect(classifyFault(new PermanentError('bad', { cause: withCode('ECONNRESET') }))).toBe('permanent');
  });

  it('survives a cause cycle', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    expect(classifyFault(a)).toBe('unknown');
  });
});

describe('isMisconfiguration', () => {
  it.each([
    ['a refused password (28P01)', withCode('28P01', 'password authentication failed for user "pay"')],
    [
      'an unknown role (28000), through Prisma 7',
      prismaAdapterError({ kind: 'DatabaseAccessDenied', originalCode: '28000' }),
    ],
    [
      'a database that does not exist, through Prisma 7',
      prismaAdapterError({ kind: 'DatabaseDoesNotExist', originalCode: '3D000' }),
    ],
    ['Redis refusing the password', new Error('WRONGPASS invalid username-password pair or user is disabled.')],
    ['a malformed URL', withCode('ERR_INVALID_URL', 'Invalid URL')],
  ])('%s: start-up gives up', (_label, error) => {
    expect(isMisconfiguration(error)).toBe(true);
  });

  it.each([
    ['a refused connection', withCode('ECONNREFUSED')],
    ['Prisma 7: database not reachable', prismaAdapterError({ kind: 'DatabaseNotReachable' })],
    ['the server starting up', withCode('57P03')],
    ['a bug', new TypeError('x is undefined')],
  ])('%s: start-up waits', (_label, error) => {
    expect(isMisconfiguration(error)).toBe(false);
  });
});

describe('databaseInputRefusal', () => {
  it.each([
    ['Prisma: a unique key taken (P2002)', withCode('P2002'), 'conflict'],
    ['pg: a unique key taken (23505)', withCode('23505'), 'conflict'],
    [
      'Prisma adapter: a unique key taken in raw SQL',
      prismaAdapterError({ kind: 'postgres', code: '23505', originalCode: '23505' }),
      'conflict',
    ],
    [
      'Prisma adapter: NUL in text (seen as P2039 with 22021)',
      Object.assign(prismaAdapterError({ kind: 'postgres', code: '22021', originalCode: '22021' }), { code: 'P2039' }),
      'invalid_text',
    ],
    ['pg: a character the encoding lacks (22P05)', withCode('22P05'), 'invalid_text'],
    ['a statement timeout', withCode('57014'), null],
    ['a plain bug', new TypeError('x is undefined'), null],
  ])('%s', (_name, error, expected) => {
    expect(databaseInputRefusal(error)).toBe(expected);
  });
});
