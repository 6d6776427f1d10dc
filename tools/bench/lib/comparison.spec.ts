import { pickRun, sideBySide } from './comparison';
import type { BenchRun } from './results';

const run = (commit: string, rps: number, extra: Partial<BenchRun> = {}): BenchRun => ({
  suite: 'balance',
  time: '2026-11-28T10:00:00.000Z',
  seconds: 60,
  commit,
  dirty: false,
  args: [],
  env: {},
  host: {
    hostname: 'h',
    cores: 2,
    availableParallelism: 2,
    cpu: 'cpu',
    memoryGb: 8,
    node: 'v24',
    os: 'Linux',
    loadAverage: 1,
    pgbenchTps: 5000,
  },
  numbers: { 'through the bus': { commandsPerSecond: rps * 2, met: 'yes' } },
  tables: {
    'CPU ms per transfer': [{ gateway: rps / 500, postgres: 0.1 }],
    'transfer steps': [
      { step: 'inquiry + transfer', concurrency: 4, acceptedPerSecond: rps },
      { step: 'inquiry + transfer', concurrency: 8, acceptedPerSecond: rps + 100 },
    ],
  },
  ...extra,
});

describe('comparing two runs', () => {
  const runs = [run('aaa111', 100), run('bbb222', 200), run('ccc333', 300)];

  it('picks a run by its number, from the end, or by the start of its commit', () => {
    expect([pickRun(runs, '1'), pickRun(runs, '-1'), pickRun(runs, '-2'), pickRun(runs, 'bbb')]).toEqual([0, 2, 1, 1]);
    expect(() => pickRun(runs, '4')).toThrow('no run 4: there are 3');
    expect(() => pickRun(runs, 'fff')).toThrow('no run on a commit starting with fff');
  });

  it('prints every figure of both with B/A, naming a table row by its first columns', () => {
    const lines = sideBySide(runs[0], runs[1]).split('\n');
    const line = (label: string) =>
      lines
        .find((l) => l.trimStart().startsWith(label))
        ?.trim()
        .split(/\s{2,}/);
    expect(line('pgbenchTps')).toEqual(['pgbenchTps', '5000', '5000', '1.00']);
    expect(line('commandsPerSecond')).toEqual(['commandsPerSecond', '200', '400', '2.00']);
    expect(line('met')).toEqual(['met', 'yes', 'yes']);
    expect(line('inquiry + transfer, concurrency 8 › acceptedPerSecond')).toEqual([
      'inquiry + transfer, concurrency 8 › acceptedPerSecond',
      '200',
      '300',
      '1.50',
    ]);
    expect(lines).toContain('transfer steps');
    expect(line('gateway')).toEqual(['gateway', '0.2', '0.4', '2.00']);
  });

  it('shows a figure only one run has against a dash', () => {
    const b = run('ddd444', 100, { numbers: { other: { n: 1 } } });
    const lines = sideBySide(runs[0], b).split('\n');
    expect(
      lines
        .find((l) => l.includes('commandsPerSecond'))
        ?.trim()
        .split(/\s{2,}/),
    ).toEqual(['commandsPerSecond', '200', '–']);
    expect(
      lines
        .find((l) => l.trim().startsWith('n '))
        ?.trim()
        .split(/\s{2,}/),
    ).toEqual(['n', '–', '1']);
  });
});
