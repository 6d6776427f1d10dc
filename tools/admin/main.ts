import { requireNodeVersion } from '@pay/platform';
import { runAdmin } from './admin';

requireNodeVersion('admin');
runAdmin(process.argv.slice(2), {
  env: process.env,
  out: (line) => process.stdout.write(line + '\n'),
  err: (line) => process.stderr.write(line + '\n'),
}).then((code) => process.exit(code));
