import { generateAuthToken } from 'aws-msk-iam-sasl-signer-js';

/**
 * OAUTHBEARER tokens for AWS MSK IAM, from AWS's own signer (aws-msk-iam-sasl-signer-js): a
 * presigned `kafka-cluster:Connect` request, signed with the credentials the AWS SDK finds (IRSA
 * web identity in Kubernetes, an instance role, or the AWS_* environment). kafkajs asks for a token
 * on every authentication, so expiring credentials are picked up without a restart.
 */
export function mskIamTokenProvider(region: string): () => Promise<{ value: string }> {
  return async () => ({ value: (await generateAuthToken({ region })).token });
}
