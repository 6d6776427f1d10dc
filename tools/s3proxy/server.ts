/**
 * The launcher behind tools/s3proxy/s3proxy.sh: starts or stops the S3Proxy kept in a directory
 * (see S3Proxy). `start` prints its S3_ENDPOINT and the credentials drawn for this start
 * (S3_ACCESS_KEY, S3_SECRET_KEY) as NAME=value lines, and leaves it running after it exits.
 */
import { S3Proxy } from '@pay/devstack';

async function main(command: string | undefined, dir: string | undefined): Promise<void> {
  if (!dir || !['start', 'stop'].includes(command ?? '')) throw new Error('usage: server.js start|stop <dir>');
  if (command === 'start') {
    const { env } = await S3Proxy.start({ dir });
    console.log(
      Object.entries(env)
        .map(([name, value]) => `${name}=${value}`)
        .join('\n'),
    );
    return;
  }
  const server = S3Proxy.attach({ dir });
  if (!server) throw new Error(`no S3Proxy was started in ${dir}`);
  await server.stop();
}

main(process.argv[2], process.argv[3]).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
