import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { intGlobalTeardown } from '@pay/testing';
import { S3Proxy } from './s3/s3-proxy';

export default async function globalTeardown(): Promise<void> {
  const dir = process.env.TEST_S3PROXY_DIR;
  if (dir) {
    await S3Proxy.attach({ dir })?.stop();
    // Its log stays with the services' logs; the objects go.
    rmSync(join(dir, 'data'), { recursive: true, force: true });
  }
  await intGlobalTeardown();
}
