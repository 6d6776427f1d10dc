import { signatureHeader } from '@pay/domain';
import { CallbackSignatureError } from './errors';
import { constructCallbackEvent, verifyCallbackSignature } from './webhooks';

// The client's verifier against the platform's own signer: a merchant verifying with the
// published package accepts exactly what the workers send.
describe('callback signature verifier', () => {
  const body = JSON.stringify({ event: 'disbursement.completed', data: { platformTrxId: 'D1', status: 'success' } });
  const now = 1_795_865_465;

  it('accepts what the platform signs, with the raw body as a string or as bytes', () => {
    const header = signatureHeader(['whsec_a'], now, body);
    expect(verifyCallbackSignature(body, header, 'whsec_a', { nowSec: now })).toBe(true);
    expect(verifyCallbackSignature(Buffer.from(body), header, 'whsec_a', { nowSec: now + 299 })).toBe(true);
    expect(
      constructCallbackEvent<{ data: { status: string } }>(body, header, 'whsec_a', { nowSec: now }).data.status,
    ).toBe('success');
  });

  it('takes the header as node:http types it (string | string[] | undefined): one value verifies, a repeated header does not', () => {
    const header = signatureHeader(['whsec_a'], now, body);
    const headers: import('node:http').IncomingHttpHeaders = { 'x-callback-signature': header };
    expect(verifyCallbackSignature(body, headers['x-callback-signature'], 'whsec_a', { nowSec: now })).toBe(true);
    expect(verifyCallbackSignature(body, [header], 'whsec_a', { nowSec: now })).toBe(true);
    expect(verifyCallbackSignature(body, [header, header], 'whsec_a', { nowSec: now })).toBe(false);
    expect(verifyCallbackSignature(body, undefined, 'whsec_a', { nowSec: now })).toBe(false);
  });

  it('accepts either secret during a rotation', () => {
    const header = signatureHeader(['whsec_new', 'whsec_old'], now, body);
    expect(verifyCallbackSignature(body, header, 'whsec_old', { nowSec: now })).toBe(true);
    expect(verifyCallbackSignature(body, header, 'whsec_new', { nowSec: now })).toBe(true);
  });

  it('refuses a wrong secret, an altered body, a stale or future timestamp and malformed headers', () => {
    const header = signatureHeader(['whsec_a'], now, body);
    expect(verifyCallbackSignature(body, header, 'whsec_b', { nowSec: now })).toBe(false);
    expect(verifyCallbackSignature(body.replace('success', 'failed'), header, 'whsec_a', { nowSec: now })).toBe(false);
    expect(verifyCallbackSignature(body, header, 'whsec_a', { nowSec: now + 301 })).toBe(false);
    expect(verifyCallbackSignature(body, header, 'whsec_a', { nowSec: now - 301 })).toBe(false);
    expect(verifyCallbackSignature(body, header, 'whsec_a', { nowSec: now + 3_600, toleranceSec: 7_200 })).toBe(true);
    for (const bad of [
      undefined,
      null,
      '',
      'v1=abc',
      `t=${now}`,
      `t=${now},v1=zz${'0'.repeat(62)}`,
      `t=x,${header.split(',')[1]}`,
      header.replace(/v1=.{4}/, 'v1='),
    ]) {
      expect(verifyCallbackSignature(body, bad, 'whsec_a', { nowSec: now })).toBe(false);
    }
    expect(verifyCallbackSignature(body, header, '', { nowSec: now })).toBe(false);
    expect(() => constructCallbackEvent(body, header, 'whsec_b', { nowSec: now })).toThrow(CallbackSignatureError);
  });
});
