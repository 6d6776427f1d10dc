import { z } from 'zod';
import { positiveInt } from '../config/config';
import { configSection } from '../config/setting-meta';
import { MINIO_DEFAULT_CREDENTIAL } from './storage-credentials';

const credential = (what: string) =>
  z
    .string()
    .min(1)
    .optional()
    .meta({
      description: `S3 ${what}`,
      defaultText: `\`${MINIO_DEFAULT_CREDENTIAL}\` (MinIO's default), only on loopback outside production`,
      requiredWhen: 'with NODE_ENV=production, or when the service listens beyond loopback',
      production:
        "refuses a published credential (MinIO's `minioadmin`, S3Proxy's or s3rver's defaults, a value committed in this repository), as a service beyond loopback does",
    });

export const storageEnvShape = configSection('storage', {
  S3_ENDPOINT: z.string().url('must be a URL like http://minio:9000').default('http://127.0.0.1:9000').meta({
    description:
      'S3 API of MinIO (or any S3). Every upload part carries its Content-MD5, covered by the SigV4 signature, and the store refuses a part damaged on the way; bodies are not signed by their SHA-256 (UNSIGNED-PAYLOAD, on http as on https). Use https for a store outside the cluster network (decision 0009)',
  }),
  S3_PUBLIC_ENDPOINT: z.string().url('must be a URL like https://files.example.com').optional().meta({
    description:
      'The endpoint merchants download from, when it differs from S3_ENDPOINT (presigned URLs sign the host)',
    defaultText: '`S3_ENDPOINT`',
  }),
  S3_REGION: z.string().min(1).default('us-east-1').meta({ description: 'S3 region' }),
  S3_ACCESS_KEY: credential('access key'),
  S3_SECRET_KEY: credential('secret key'),
  RECON_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid bucket name')
    .default('recon')
    .meta({ description: 'Bucket of the recon files; created at start-up if missing', typeText: 'S3 bucket name' }),
  RECON_URL_TTL_SECONDS: positiveInt()
    .max(604_800)
    .default(3600)
    .meta({ description: 'Lifetime of a presigned recon download URL (S3 allows at most 7 days)' }),
});

export interface StorageConfig {
  endpoint: string;
  /** Where merchants download from (presigned URLs sign this host); absent: `endpoint` */
  publicEndpoint?: string;
  region: string;
  accessKey: string;
  secretKey: string;
  /** The recon files' bucket */
  bucket: string;
  /** Lifetime of a presigned download URL */
  urlTtlSeconds: number;
}

export function storageSection(env: z.output<z.ZodObject<typeof storageEnvShape>>): StorageConfig {
  return {
    endpoint: env.S3_ENDPOINT,
    publicEndpoint: env.S3_PUBLIC_ENDPOINT,
    region: env.S3_REGION,
    // Absent only on loopback outside production (refusePublishedStorageCredentials).
    accessKey: env.S3_ACCESS_KEY ?? MINIO_DEFAULT_CREDENTIAL,
    secretKey: env.S3_SECRET_KEY ?? MINIO_DEFAULT_CREDENTIAL,
    bucket: env.RECON_BUCKET,
    urlTtlSeconds: env.RECON_URL_TTL_SECONDS,
  };
}

/** The storage settings alone, parsed into their section (tests and tools that talk to a store). */
export const storageConfigSchema = z.object(storageEnvShape).transform(storageSection);
