import { ERROR_HTTP_STATUS, ErrorCode } from '@pay/contracts';
import { readMarkdown } from './markdown';

const guide = readMarkdown('docs/merchant-api.md').text;

describe('the merchant API guide', () => {
  it('documents every error code of the API with its HTTP status, once', () => {
    const rows = [...guide.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])]);
    const expected = Object.values(ErrorCode).map((code) => [code, ERROR_HTTP_STATUS[code]]);
    expect(rows.sort()).toEqual(expected.sort());
  });
});
