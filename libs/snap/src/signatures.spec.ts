import { generateKeyPairSync } from 'node:crypto';
import {
  asymmetricSignature,
  bodyDigest,
  minifyJson,
  symmetricSignature,
  tokenSignature,
  verifyAsymmetricSignature,
  verifySymmetricSignature,
} from './signatures';
import { DEMO_PRIVATE_KEY, DEMO_PUBLIC_KEY } from './testing/demo-key';

// The SNAP reference's worked examples and the answers providers published for the same key.
describe('SNAP signatures: known answers', () => {
  const SECRET = 'myclientsecret';
  const TOKEN = 'gp9HjjEj813Y9JGoqwOeOPWbnt4CUpvIJbU1mMU4a11MNDZ7Sg5u9a';

  it('worked example 1: the access-token signature', () => {
    expect(tokenSignature(DEMO_PRIVATE_KEY, 'G1234325-SNAP', '2024-08-01T10:15:30+07:00')).toBe(
      'dFhiW8BWjOHI2WcUk5yPUCVR0aqMKf7Q7UKl/Ll95iqB8cnP3nW8ProHArH3wygTe0mYRO/BQ/cmPrv0zEFVSaOC1usQjuMkr2Hr' +
        'J8WU679sHpm1xf5Lhlyb6/HAINdUqINdw70aOjbYhLnhdjXM4L5vlgVmutjWjc8nmBajg7rjhrAc+XSmrP2F5r6U0dshQd8lDV2shwoE' +
        'UX2YRNXQgJ7Xga4GrkPMOdbtNxMQBb0sV22zj28wc2YYo+hZUvn4J49WZEzkbWkrYJWRORI1VUjB4DEr84SoxqYt7+Svy7vT0GdhpGmo' +
        'x+o9tTVhmc0b3MUYxTE++53V4d6hKWSv/w==',
    );
  });

  it("Qoin's and Midtrans' published access-token signatures", () => {
    const qoin = tokenSignature(DEMO_PRIVATE_KEY, 'G1234325-SNAP', '2023-07-31T07:10:00+07:00');
    expect(qoin.startsWith('iv5YorKVVFOFS59l')).toBe(true);
    // The reference abbreviates Qoin's value as `iv5YorKVVFOFS59l…Q0d/ZPVNBtQ==`; the full signature ends
    // `…UqEo1d/ZPVNBtQ==`: the three characters before `d/` are a slip of the abbreviation (RSA PKCS#1 v1.5
    // is deterministic: 16 leading and 11 trailing characters cannot match by chance).
    expect(qoin.endsWith('d/ZPVNBtQ==')).toBe(true);
    expect(tokenSignature(DEMO_PRIVATE_KEY, 'G1234325-SNAP', '2024-03-01T08:27:49.024Z')).toBe(
      'WzW49tYIgKIBmBi/gVBHGLAkhEaZlXM11zcZxAiyHji6TLPjPbwLu3Z45it25AIeG0XDItcdTSkds47zFEMh6IP0PXPIP1+Ey4RmX/o2fuYRF/xBHvfvKnMmANMTS1axsXBSW3EHqYpbVrkCcqNnB3u+wu63us9WIhRZaWgxgQ2PJLaiVHIwgu9u7jxkWX7Bg4rerZH3RKdQfIJAAJsSN13efR7VdSAyzU7QaKjgislxrLqmesYNJkbD03XLjHdo6YWuzAVV7xdZRpLiGkIAkW7luXTBZYBO+4oENZAPQYzrLeN1qRY1Sr7BgLONCA2QA26BB6SYW4R7qofS9+RyOQ==',
    );
  });

  const transferBody =
    '{"partnerReferenceNo":"PO-20240801-000123","amount":{"value":"150000.00","currency":"IDR"},"beneficiaryAccountName":"BUDI SANTOSO","beneficiaryAccountNo":"1234567890","beneficiaryBankCode":"014","sourceAccountNo":"8881234567","transactionDate":"2024-08-01T10:16:00+07:00","additionalInfo":{}}';

  it('worked example 2: an interbank transfer (292 bytes, HMAC-SHA512)', () => {
    expect(Buffer.byteLength(transferBody)).toBe(292);
    expect(bodyDigest(transferBody)).toBe('ca256c910487aa4be80f64ec511acb0f059b7afb2032dd145b28a66f1b662d95');
    const req = {
      method: 'POST',
      path: '/v1.0/transfer-interbank',
      body: transferBody,
      timestamp: '2024-08-01T10:16:00+07:00',
    };
    const signature = symmetricSignature(req, TOKEN, SECRET);
    expect(signature).toBe('r0ffjD4Jv+BbrXwxhJ+BE9QZ6IEA244KUY3B8Cu/lEAqIeFwDgg1fYghWiiDNjvljq1xkiX+XWxayMc1r/TAEQ==');
    expect(verifySymmetricSignature(req, TOKEN, signature, SECRET)).toBe(true);
    expect(verifySymmetricSignature({ ...req, timestamp: '2024-08-01T10:16:01+07:00' }, TOKEN, signature, SECRET)).toBe(
      false,
    );
  });

  it('the pitfall: stripping the spaces inside strings changes the hash', () => {
    const stripped = transferBody.replace('BUDI SANTOSO', 'BUDISANTOSO');
    expect(bodyDigest(stripped).startsWith('8b9c3db3')).toBe(true);
    expect(bodyDigest(stripped).endsWith('f99b')).toBe(true);
    expect(minifyJson(JSON.stringify(JSON.parse(transferBody), null, 2))).toBe(transferBody);
  });

  it('an empty body hashes the empty string', () => {
    expect(bodyDigest('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(bodyDigest(Buffer.alloc(0))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it("Midtrans' published symmetric signature (QR generate, pretty body minified)", () => {
    const pretty = `{
  "partnerReferenceNo": "2020102900000000000001",
  "amount": {
    "value": "12345678.00",
    "currency": "IDR"
  },
  "feeAmount": {
    "value": "12345678.00",
    "currency": "IDR"
  },
  "merchantId": "00007100010926",
  "terminalId": "213141251124",
  "validityPeriod": "2009-07-03T12:08:56-07:00"
}`;
    const req = {
      method: 'POST',
      path: '/v1.0/qr/qr-mpm-generate',
      body: minifyJson(pretty),
      timestamp: '2024-03-05T10:37:16.196Z',
    };
    expect(symmetricSignature(req, 'myaccesstoken', SECRET)).toBe(
      'wmzT7yjg1SxxCsxNsFgCR9SYXiZGGbceF6fV8xe97sAMHxZ+7OEBMIBmvb6Sj6GcksGp3iv77DiomgSbcST3XQ==',
    );
  });

  it('worked example 3: a QRIS notification signed with RSA, verified with the public key', () => {
    const body =
      '{"originalReferenceNo":"QR20240801000001","originalPartnerReferenceNo":"INV-20240801-77","latestTransactionStatus":"00","transactionStatusDesc":"Success","amount":{"value":"25000.00","currency":"IDR"},"additionalInfo":{}}';
    expect(bodyDigest(body)).toBe('e14e8d160b51a18c883b262828d500fe301ee29c41d2813f1fc554652a3f039a');
    const req = { method: 'POST', path: '/v1.0/qr/qr-mpm-notify', body, timestamp: '2024-08-01T10:20:05+07:00' };
    const signature = asymmetricSignature(req, DEMO_PRIVATE_KEY);
    expect(signature).toBe(
      'epu44XJP8yPjJAT4//HWNsi9d9WXBASQGPT1kK3dI2hUHLTIG4SAxsFA/lStMzl9BQexRXaNZm7GxMwL6tfcKb84gaFai09k' +
        'M81DwkzYYlBkXj0XJdmr1RC8bUy/leJVeJigzPuUmsKCTVwJLpDPP+NHruP0XADqdpdu8KBX+neJsLDvQxnuSJgU6xc5RUOlpzgI12km5MTc' +
        'eUdJtYLqK06Uhx3lyH6XzIrz+Qjzf5CtuzKdXRtPuuUefCoz5iSG/SCnw6YjjHvRsv/DoZiPoHjlR0+pT2DoUlFc/aKegdEbLYVU3+Avs1R0' +
        'GX3sjpat8BX+/cgQtwFBy48HbARYzg==',
    );
    expect(verifyAsymmetricSignature(req, signature, DEMO_PUBLIC_KEY)).toBe(true);
    expect(
      verifyAsymmetricSignature({ ...req, body: body.replace('25000', '26000') }, signature, DEMO_PUBLIC_KEY),
    ).toBe(false);
  });

  it("Midtrans' published notification verifies against the demo public key", () => {
    const req = {
      method: 'POST',
      path: '/v1.0/debit/notify',
      body: '{"originalPartnerReferenceNo":"GP24043015193402809","originalReferenceNo":"A120240430081940S9vu8gSjaRID","merchantId":"G099333790","amount":{"value":"102800.00","currency":"IDR"},"latestTransactionStatus":"00","transactionStatusDesc":"SUCCESS","additionalInfo":{"refundHistory":[]}}',
      timestamp: '2024-05-02T14:43:08+07:00',
    };
    const signature =
      'RoJnP2tH/YiOhHM/lMVBMSAuzRmS8VrWdIy04Qqyb56daV7oWFMFoMMzqnjQ+q0MIUalYgU094GWQnCx2c29xb1kkqHhv2+iJ9xl6NjGmFGYqyvcKvUDAV83Y1Mw9JnsEcjcupdGw9/MRv/mm2GMrQ+BCZGfc4a46JDyPZbcY294vDGqs5rFBN6iYer5ro4cAQGo9hET2G82Y+j50vCyO/79GFE4vB1rvtu6PK2Bxi+vTYV8k7P7PS8tOPWM2O+kjiVWjwvLR99Botou+a8sxlQqZaihfWMKcByzV+Lgkr9cptpjys+1NIRWT1ad/sJBSLHyldzC3q2oRn5z5oZmyg==';
    expect(verifyAsymmetricSignature(req, signature, DEMO_PUBLIC_KEY)).toBe(true);
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' });
    expect(verifyAsymmetricSignature(req, signature, other.toString())).toBe(false);
    expect(verifyAsymmetricSignature(req, 'not base64 at all', DEMO_PUBLIC_KEY)).toBe(false);
  });

  it('worked example 4: a transfer status inquiry', () => {
    const body =
      '{"originalPartnerReferenceNo":"PO-20240801-000123","originalExternalId":"20240801101600000000000000000123","serviceCode":"18","transactionDate":"2024-08-01T10:16:00+07:00","additionalInfo":{}}';
    expect(bodyDigest(body)).toBe('a19418853ad4b9f87de59e54226efa6339359b794c943c53e9b6166944130c16');
    const req = { method: 'POST', path: '/v1.0/transfer/status', body, timestamp: '2024-08-01T10:17:00+07:00' };
    expect(symmetricSignature(req, TOKEN, SECRET)).toBe(
      'BhGJsE0Y+UGp50FhtDXZCsPDPFIuTjed6xWmH7wAogwYCmGCMvHpsENn9kdG+byxxjGlrNQC7JZITvG1kFt+mg==',
    );
  });
});

describe('minifyJson', () => {
  it('drops whitespace between tokens only', () => {
    expect(minifyJson('{ "a" : "x y\\" z" ,\n\t"b": [ 1 , null ] }')).toBe('{"a":"x y\\" z","b":[1,null]}');
    expect(minifyJson('{"n": 1.50E+3}')).toBe('{"n":1.50E+3}');
  });
});
