import { join } from 'node:path';
import { intGlobalSetup, repoRoot } from '@pay/testing';
import { S3Proxy, S3PROXY_VERSION } from './s3/s3-proxy';

/**
 * The integration set-up (a fresh database and key prefix), then one S3Proxy for the whole run:
 * a JVM takes seconds to start, so the suites share it rather than start one each.
 */
export default async function globalSetup(): Promise<void> {
  await intGlobalSetup();
  if (process.env.E2E_BASE_URL) return;
  const root = repoRoot();
  // Beside the services' logs, so its log is there when a suite fails.
  const dir = join(root, 'tmp', 'e2e-logs', `${process.env.TEST_REDIS_PREFIX}s3proxy`);
  const started = Date.now();
  const s3 = await S3Proxy.start({ dir });
  process.env.TEST_S3PROXY_DIR = dir;
  console.log(
    `\nS3Proxy ${S3PROXY_VERSION} on ${s3.endpoint} (started in ${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
}
