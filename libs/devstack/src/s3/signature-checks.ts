import { Readable } from 'node:stream';
import { ObjectStore, storageConfigSchema } from '@pay/platform';
import type { S3Server } from './s3-server';

/** The status of each request, and what the file holds after the unsigned writes. */
export interface SignatureCheckResults {
  signedLink: number;
  unsignedGet: number;
  signatureRemoved: number;
  signatureEdited: number;
  expiryEdited: number;
  expired: number;
  queryRemoved: number;
  bucketListing: number;
  bucketListingV2: number;
  rootListing: number;
  unsignedPut: number;
  putWithGetLink: number;
  unsignedDelete: number;
  /** The file, read through a fresh signed link after the unsigned PUT and DELETE */
  fileAfterwards: string;
}

/** What a store that enforces signatures answers (S3, MinIO with a private bucket). */
export const SIGNATURES_ENFORCED: SignatureCheckResults = {
  signedLink: 200,
  unsignedGet: 403,
  signatureRemoved: 403,
  signatureEdited: 403,
  expiryEdited: 403,
  expired: 403,
  queryRemoved: 403,
  bucketListing: 403,
  bucketListingV2: 403,
  rootListing: 403,
  unsignedPut: 403,
  putWithGetLink: 403,
  unsignedDelete: 403,
  fileAfterwards: 'merchantTrxId,amount\nORDER-1,50000\n',
};

const edited = (link: string, edit: (u: URL) => void): string => {
  const url = new URL(link);
  edit(url);
  return url.toString();
};

/**
 * What an S3 server does with the requests a hostile merchant makes from a recon download link:
 * the link as given, unsigned, with its signature or expiry edited, once expired, without its
 * query string, listing the bucket, and writing or deleting the file without a signature. The
 * file goes up signed with the server's credentials (as the workers put it) into `bucket`.
 */
export async function checkSignatures(s3: S3Server, bucket = 'signature-checks'): Promise<SignatureCheckResults> {
  const storage = (ttlSeconds: number) =>
    storageConfigSchema.parse({ ...s3.env, RECON_BUCKET: bucket, RECON_URL_TTL_SECONDS: String(ttlSeconds) });
  const store = new ObjectStore(storage(3600), 30_000);
  const shortLived = new ObjectStore(storage(1), 30_000);
  const key = 'recon/1/2026-01-02.csv';
  await store.ensureBucket();
  await store.putStream(key, Readable.from([SIGNATURES_ENFORCED.fileAfterwards]), 'text/csv');

  const status = async (url: string, init?: RequestInit) => (await fetch(url, init)).status;
  const link = await store.presignGet(key, 'recon.csv');
  const expiring = await shortLived.presignGet(key, 'recon.csv');
  const object = `${s3.endpoint}/${bucket}/${key}`;
  const signature = new URL(link).searchParams.get('X-Amz-Signature') ?? '';
  const results: Omit<SignatureCheckResults, 'expired' | 'fileAfterwards'> = {
    signedLink: await status(link),
    unsignedGet: await status(object),
    signatureRemoved: await status(edited(link, (u) => u.searchParams.delete('X-Amz-Signature'))),
    signatureEdited: await status(
      edited(link, (u) =>
        u.searchParams.set('X-Amz-Signature', `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`),
      ),
    ),
    expiryEdited: await status(edited(link, (u) => u.searchParams.set('X-Amz-Expires', '604800'))),
    queryRemoved: await status(edited(link, (u) => (u.search = ''))),
    bucketListing: await status(`${s3.endpoint}/${bucket}`),
    bucketListingV2: await status(`${s3.endpoint}/${bucket}?list-type=2`),
    rootListing: await status(`${s3.endpoint}/`),
    unsignedPut: await status(object, { method: 'PUT', body: 'merchantTrxId,amount\nFORGED,1\n' }),
    putWithGetLink: await status(link, { method: 'PUT', body: 'merchantTrxId,amount\nFORGED,2\n' }),
    unsignedDelete: await status(object, { method: 'DELETE' }),
  };
  // Signed at a whole second and valid for one: refused from two seconds on.
  await new Promise((resolve) => setTimeout(resolve, 2_100));
  const expired = await status(expiring);
  const fresh = await fetch(await store.presignGet(key, 'recon.csv'));
  return { ...results, expired, fileAfterwards: fresh.ok ? await fresh.text() : `(${fresh.status})` };
}
