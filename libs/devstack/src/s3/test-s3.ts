import { S3Proxy } from './s3-proxy';

/**
 * The S3 server of an end-to-end run: the S3Proxy the e2e global set-up started once for the run
 * (TEST_S3PROXY_DIR), shared by the suites' stacks, which leave it running when they stop.
 */
export function testS3(): S3Proxy {
  const dir = process.env.TEST_S3PROXY_DIR;
  if (!dir)
    throw new Error(
      'TEST_S3PROXY_DIR is not set: run the suite with jest.e2e.config.js, whose global set-up starts S3Proxy',
    );
  const s3 = S3Proxy.attach({ dir });
  if (!s3) throw new Error(`no S3Proxy was started in ${dir}`);
  return s3;
}
