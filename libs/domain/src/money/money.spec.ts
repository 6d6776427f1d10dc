import { formatAmount, formatAmountString, InvalidAmountError, parseAmount } from './money';

describe('money', () => {
  it.each([
    [50000, 5000000n],
    ['50000', 5000000n],
    [1234.5, 123450n],
    [0.01, 1n],
    [0.1, 10n],
    ['0', 0n],
    [99999999.99, 9999999999n],
  ])('parses %p into %p minor units', (input, minor) => {
    expect(parseAmount(input)).toBe(minor);
  });

  it.each([[-1], [1.234], [Number.NaN], [Infinity], [1e21], ['1e5'], ['12,50'], [''], ['007']])(
    'refuses %p',
    (input) => {
      expect(() => parseAmount(input)).toThrow(InvalidAmountError);
    },
  );

  it.each([
    [4950000n, 49500, '49500'],
    [123450n, 1234.5, '1234.5'],
    [1n, 0.01, '0.01'],
    [0n, 0, '0'],
    [-250000n, -2500, '-2500'],
  ])('formats %p as %p', (minor, num, text) => {
    expect(formatAmount(minor)).toBe(num);
    expect(formatAmountString(minor)).toBe(text);
  });
});
