import { parseChaosArgs } from './chaos-args';

describe('parseChaosArgs', () => {
  it('defaults to the full run: 10,000 transfers, 2,000 pay-ins, 20 kills, 3 PostgreSQL outages of 30-120 s, 1 failover, 1 Redis and 1 S3 restart', () => {
    const a = parseChaosArgs([]);
    expect(a).toMatchObject({
      transfers: 10_000,
      payins: 2_000,
      merchants: 50,
      reconExports: 20,
      concurrency: 12,
      appendfsync: 'everysec',
      transport: 'redis-streams',
    });
    expect(a.faults).toEqual({
      kills: 20,
      pgOutages: 3,
      pgOutageSeconds: [30, 120],
      pgTerminates: 10,
      pgFailovers: 1,
      redisRestarts: 1,
      redisFailovers: 0,
      s3Restarts: 1,
      s3OutageSeconds: [5, 15],
      killServices: ['gateway', 'ledger', 'payout', 'workers'],
      brokerRestarts: 0,
      brokerOutageSeconds: [30, 60],
      rebalances: 2,
      rebalanceSeconds: [10, 20],
    });
  });

  it('with Redis failovers runs Redis behind Sentinel, with no restarts of a single server', () => {
    expect(parseChaosArgs(['--redis-failovers', '2']).faults).toMatchObject({ redisFailovers: 2, redisRestarts: 0 });
    expect(() => parseChaosArgs(['--redis-failovers', '1', '--redis-restarts', '1'])).toThrow(
      /with --redis-failovers Redis runs behind Sentinel/,
    );
  });

  it('runs Kafka as a cluster of N nodes only on Kafka, one node by default', () => {
    expect(parseChaosArgs(['--bus', 'kafka']).kafkaNodes).toBe(1);
    expect(parseChaosArgs(['--bus', 'kafka', '--kafka-nodes', '3']).kafkaNodes).toBe(3);
    expect(() => parseChaosArgs(['--kafka-nodes', '3'])).toThrow(/--kafka-nodes needs --bus kafka/);
    expect(() => parseChaosArgs(['--bus', 'kafka', '--kafka-nodes', '0'])).toThrow(/1 to 5/);
  });

  it('on Kafka restarts the broker twice for 30-60 s unless told otherwise', () => {
    expect(parseChaosArgs(['--bus', 'kafka']).faults).toMatchObject({
      brokerRestarts: 2,
      brokerOutageSeconds: [30, 60],
    });
    const a = parseChaosArgs([
      '10000',
      '2000',
      '10',
      '--bus=kafka',
      '--broker-restarts',
      '1',
      '--broker-outage-seconds',
      '10-15',
      '--rebalances',
      '3',
      '--kill-services',
      'ledger,payout,workers',
    ]);
    expect(a.transport).toBe('kafka');
    expect(a.faults).toMatchObject({
      kills: 10,
      brokerRestarts: 1,
      brokerOutageSeconds: [10, 15],
      rebalances: 3,
      killServices: ['ledger', 'payout', 'workers'],
    });
  });

  it('takes the positional counts and the fault flags, with or without =', () => {
    const a = parseChaosArgs([
      '500',
      '100',
      '4',
      '10',
      '42',
      '--pg-outages',
      '1',
      '--pg-outage-seconds=10-15',
      '--redis-restarts',
      '2',
      '--s3-restarts',
      '0',
      '--pg-terminate',
      '3',
      '--pg-failovers',
      '2',
      '--redis-appendfsync',
      'always',
    ]);
    expect(a).toMatchObject({ transfers: 500, payins: 100, merchants: 10, seed: 42, appendfsync: 'always' });
    expect(a.faults).toMatchObject({
      kills: 4,
      pgOutages: 1,
      pgOutageSeconds: [10, 15],
      redisRestarts: 2,
      s3Restarts: 0,
      pgTerminates: 3,
      pgFailovers: 2,
    });
  });

  it.each([
    [['--pg-outage'], /--pg-outage needs a value/],
    [['--pg-outages', 'x'], /--pg-outages must be a whole number/],
    [['--pg-outage-seconds', '120-30'], /not a range/],
    [['--redis-restart', '1'], /unknown flag --redis-restart/],
    [['--redis-appendfsync', 'no'], /everysec or always/],
    [['-5'], /argument 1 must be a whole number/],
    [['--bus', 'nats'], /redis-streams or kafka/],
    [['--broker-restarts', '1'], /needs --bus kafka/],
    [['--kill-services', 'ledger,postgres'], /unknown service postgres/],
  ])('refuses %j with a message naming the problem', (argv, message) => {
    expect(() => parseChaosArgs(argv)).toThrow(message);
  });
});
