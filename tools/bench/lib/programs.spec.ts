import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { findProgram, SEEDS, SUITES, usage } from './programs';

const bench = join(__dirname, '..');

describe('npm run bench', () => {
  it('knows every suite in suites/, and each one it knows is there', () => {
    const files = readdirSync(join(bench, 'suites'))
      .filter((f) => f.endsWith('.bench.ts'))
      .map((f) => f.slice(0, -'.bench.ts'.length))
      .sort();
    expect(SUITES.map((s) => s.name).sort()).toEqual(files);
  });

  it('finds each seed program it lists', () => {
    for (const seed of SEEDS) expect(existsSync(join(bench, `${seed.file}.ts`))).toBe(true);
  });

  it('lists every program with its arguments, and knows no other name', () => {
    for (const p of [...SUITES, ...SEEDS]) expect(usage()).toContain(`${p.name}  `);
    expect(findProgram('ledger')?.file).toBe('suites/ledger.bench');
    expect(findProgram('bench:ledger')).toBeUndefined();
  });
});
