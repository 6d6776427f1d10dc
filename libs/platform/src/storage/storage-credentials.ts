import type { z } from 'zod';
import { isLoopbackHost } from '../config/bind-host';

/** MinIO's built-in root user and password: what a service on loopback outside production signs with unless told. */
export const MINIO_DEFAULT_CREDENTIAL = 'minioadmin';

/**
 * Object-store credentials anyone can read: the stores' documented defaults and every value this
 * repository has committed (compose and its env files, .env.example, deploy/, the local stores'
 * former constants). Whoever knows the pair reads every merchant's recon files and replaces them,
 * and a presigned link the gateway hands out then serves the replacement. A value removed from
 * the files stays listed: it remains in the repository's history. storage-credentials.spec.ts
 * checks the files against this list.
 */
export const PUBLISHED_STORAGE_CREDENTIALS: readonly string[] = [
  // MinIO's default root user and password
  MINIO_DEFAULT_CREDENTIAL,
  // S3Proxy's documented identity and credential (its image and sample configuration)
  'local-identity',
  'local-credential',
  // s3rver's built-in access key and secret
  'S3RVER',
  // The example key pair of AWS's documentation
  'AKIAIOSFODNN7EXAMPLE',
  'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  // This repository: compose's former MinIO password, the end-to-end S3Proxy's former identity, deploy/'s placeholder
  'minioadmin-local',
  'local-s3proxy',
  'local-s3proxy-secret-key',
  'REPLACE_ME',
];

export function isPublishedStorageCredential(value: string): boolean {
  return PUBLISHED_STORAGE_CREDENTIALS.includes(value.trim());
}

interface CredentialSettings {
  NODE_ENV: string;
  S3_ACCESS_KEY?: string;
  S3_SECRET_KEY?: string;
}

/**
 * The object store's credentials of a service other machines can reach (`listeners`: its bind
 * settings by name, any of them not loopback), or of any service with NODE_ENV=production, must
 * be set and must not be published ones. On loopback outside production (the local runner,
 * tests) MinIO's default still applies when none is given. Every service that reads the storage
 * settings calls this from its schema.
 */
export function refusePublishedStorageCredentials(
  env: CredentialSettings,
  listeners: Record<string, string>,
  ctx: z.RefinementCtx,
): void {
  const exposed = Object.entries(listeners)
    .filter(([, host]) => !isLoopbackHost(host))
    .map(([name, host]) => `${name}=${host}`);
  if (env.NODE_ENV !== 'production' && exposed.length === 0) return;
  const why =
    env.NODE_ENV === 'production'
      ? 'NODE_ENV=production'
      : `the service listens beyond loopback (${exposed.join(', ')})`;
  for (const name of ['S3_ACCESS_KEY', 'S3_SECRET_KEY'] as const) {
    const value = env[name];
    if (value === undefined)
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: `is required when ${why}: the object store's own credentials`,
      });
    else if (isPublishedStorageCredential(value))
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: `must not be a published credential (a store's default such as MinIO's minioadmin, or a value committed in this repository) when ${why}: anyone could read and replace the recon files; give the object store's own credentials`,
      });
  }
}
