import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateMerchantDocument, OPENAPI_FILE, serializeDocument } from './generate-document';

describe('docs/openapi.json', () => {
  it('is what the code generates (no database needed to build it)', async () => {
    const generated = serializeDocument(await generateMerchantDocument());
    const committed = readFileSync(join(__dirname, '..', '..', '..', '..', OPENAPI_FILE), 'utf8');
    if (committed !== generated) {
      throw new Error(`${OPENAPI_FILE} differs from what the controllers generate. Regenerate and commit it: npm run build && npm run openapi:export`);
    }
  });

  it('declares every merchant operation with a token, a typed 200 and its error statuses', async () => {
    const document = await generateMerchantDocument();
    const operations = Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));
    expect(operations.map((o) => o.op.operationId).sort()).toEqual(['accountInquiry', 'disbursementInquiry', 'exportRecon', 'generateQris', 'getBalance', 'listBalanceMovements', 'listDisbursements', 'listPayins', 'payinInquiry', 'sandboxPay', 'transfer']);
    for (const { op } of operations) {
      expect(op.security).toEqual([{ token: [] }]);
      expect(op.responses['200'].content['application/json'].schema.properties.data.$ref).toMatch(/^#\/components\/schemas\//);
      for (const status of ['400', '401', '403', '413', '415', '429', '500', '503']) expect(op.responses[status]).toBeDefined();
    }
    expect(document.paths['/api/v1/disbursement/transfer'].post?.callbacks).toHaveProperty('disbursementFinal');
    expect(document.paths['/api/v1/payin/qris/generate'].post?.callbacks).toHaveProperty('payinFinal');
    expect(Object.keys(document.paths).some((p) => p.startsWith('/ops') || p.startsWith('/internal'))).toBe(false);
  });
});
