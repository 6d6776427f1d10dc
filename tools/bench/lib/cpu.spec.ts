import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backendsMsByRole, coresAllow, cpuMsOf, cpuPerUnit, jitCompilerMsOf } from './cpu';

describe('bench CPU accounting', () => {
  it('says what the cores allow at the measured cost and with the services free, against the target', () => {
    // 2 cores, 5 ms a transfer in all, 3.2 of them Postgres and the load; pgbench -N 5,500, target 0.15x.
    expect(coresAllow(5, 3.2, 825, 5_500, 2)).toEqual({
      cpuMsAll: 5,
      atThisCostPerSecond: 400,
      postgresAndLoadMs: 3.2,
      servicesFreePerSecond: 625,
      servicesFreeRatioToPgbench: '0.114',
      targetPerSecond: 825,
      targetBudgetMs: 2.42,
    });
  });

  it('leaves the load generator and the part already inside the broker out of the total', () => {
    const before = { gateway: 100, postgres: 200, kafkaBroker: 1_000, kafkaBrokerJit: 500, loadGenerator: 50 };
    const after = { gateway: 300, postgres: 600, kafkaBroker: 2_000, kafkaBrokerJit: 900, loadGenerator: 250 };
    expect(cpuPerUnit(before, after, 100)).toEqual({
      gateway: 2,
      postgres: 4,
      kafkaBroker: 10,
      kafkaBrokerJit: 4,
      loadGenerator: 2,
      totalWithoutLoadGenerator: 16,
    });
  });

  it("splits the database's backend CPU by role: a new backend counts whole, an unlisted one as unnamed", () => {
    const before = new Map([
      [101, 50],
      [102, 10],
      [103, 5],
    ]);
    const after = new Map([
      [101, 80],
      [102, 12],
      [103, 9],
      [104, 7], // connected during the step
      [105, 1], // never listed with a role
    ]);
    const roles = new Map([
      [101, 'ledger'],
      [102, 'listen'],
      [103, 'ledger'],
      [104, 'gateway'],
    ]);
    expect(backendsMsByRole(before, after, roles)).toEqual({ ledger: 34, listen: 2, gateway: 7, unnamed: 1 });
  });

  it('finds no JIT compiler threads in a Node process', () => {
    expect(jitCompilerMsOf(process.pid)).toBe(0);
    expect(jitCompilerMsOf(2 ** 22 + 1)).toBe(0); // no such process
  });

  it("counts a JVM's compiler threads, within the process's own CPU", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jit-'));
    // A single-file program: java compiles it in memory, then runs hot code until killed.
    writeFileSync(
      join(dir, 'Spin.java'),
      'public class Spin { public static void main(String[] a) { long x = 0; for (;;) { for (int i = 0; i < 1_000_000; i++) x += i % 7; if (x == 42) System.out.println(x); } } }',
    );
    const jvm = spawn('java', ['-Xmx64m', join(dir, 'Spin.java')], { stdio: 'ignore' });
    try {
      let jit = 0;
      for (let i = 0; i < 150 && jit === 0; i++) {
        await new Promise((r) => setTimeout(r, 100));
        jit = jitCompilerMsOf(jvm.pid as number);
      }
      expect(jit).toBeGreaterThan(0);
      expect(jit).toBeLessThanOrEqual(cpuMsOf(jvm.pid as number));
    } finally {
      jvm.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
