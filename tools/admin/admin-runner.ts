import { runAdmin } from './admin';

/** The admin CLI run in-process for a test: its exit code and what it printed (out and err, each joined). */
export function adminRunner(env: Record<string, string | undefined> = { DATABASE_URL: process.env.DATABASE_URL }) {
  return async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdmin(argv, { env, out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
}
