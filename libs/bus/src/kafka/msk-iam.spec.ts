import { mskIamTokenProvider } from './msk-iam';

/**
 * The token is what MSK checks: a base64url presigned `kafka-cluster:Connect` request for the
 * region, signed with the credentials the AWS SDK finds (here the AWS_* environment). Signing is
 * local, so this runs without AWS.
 */
describe('mskIamTokenProvider', () => {
  const saved = { ...process.env };
  beforeAll(() => {
    process.env.AWS_ACCESS_KEY_ID = 'AKIAIOSFODNN7EXAMPLE';
    process.env.AWS_SECRET_ACCESS_KEY = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
    delete process.env.AWS_PROFILE;
    delete process.env.AWS_SESSION_TOKEN;
  });
  afterAll(() => {
    process.env = saved;
  });

  it('signs a kafka-cluster:Connect request for the region with the credentials found', async () => {
    const { value } = await mskIamTokenProvider('ap-southeast-3')();
    const url = new URL(Buffer.from(value, 'base64url').toString('utf8'));
    expect(url.hostname).toBe('kafka.ap-southeast-3.amazonaws.com');
    expect(url.searchParams.get('Action')).toBe('kafka-cluster:Connect');
    expect(url.searchParams.get('X-Amz-Credential')).toMatch(
      /^AKIAIOSFODNN7EXAMPLE\/\d{8}\/ap-southeast-3\/kafka-cluster\/aws4_request$/,
    );
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
  });
});
