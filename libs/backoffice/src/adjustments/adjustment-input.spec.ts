import { BackofficeError } from '@pay/contracts';
import { checkAdjustment } from './adjustment-input';

const refusal = (input: Parameters<typeof checkAdjustment>[0]) => {
  try {
    checkAdjustment(input);
  } catch (err) {
    if (err instanceof BackofficeError) return { field: err.field, message: err.message };
    throw err;
  }
  throw new Error('accepted');
};

describe('checkAdjustment: the lines as the ledger will book them', () => {
  it('turns signed Rupiah into signed minor units as text, the merchant named', () => {
    expect(
      checkAdjustment({
        merchantId: 7,
        postings: [
          { account: 'expense:adjustments', amount: 1500.5 },
          { account: ' merchant:7:available ', amount: '-1500.50' },
        ],
        reason: '  goodwill  ',
      }),
    ).toEqual({
      merchantId: 7,
      reason: 'goodwill',
      postings: [
        { account: 'expense:adjustments', amount: '150050' },
        { account: 'merchant:7:available', amount: '-150050' },
      ],
    });
  });

  it.each([
    [{ postings: [{ account: 'suspense', amount: 1 }] }, 'postings', /2 to 20 lines/],
    [
      {
        postings: [
          { account: 'suspense', amount: 1 },
          { account: 'expense:adjustments', amount: -2 },
        ],
      },
      'postings',
      /sum to -1/,
    ],
    [
      {
        postings: [
          { account: 'cash', amount: 1 },
          { account: 'suspense', amount: -1 },
        ],
      },
      'postings[0].account',
      /not an account of the chart/,
    ],
    [
      {
        postings: [
          { account: 'suspense', amount: 1 },
          { account: 'suspense', amount: -1 },
        ],
      },
      'postings[1].account',
      /twice/,
    ],
    [
      {
        postings: [
          { account: 'suspense', amount: '1e3' },
          { account: 'expense:adjustments', amount: -1000 },
        ],
      },
      'postings[0].amount',
      /Rupiah/,
    ],
    [
      {
        postings: [
          { account: 'suspense', amount: '-0' },
          { account: 'expense:adjustments', amount: 0 },
        ],
      },
      'postings[0].amount',
      /zero/,
    ],
    [
      {
        postings: [
          { account: 'merchant:7:available', amount: 1 },
          { account: 'suspense', amount: -1 },
        ],
      },
      'postings[0].account',
      /name the merchant/,
    ],
    [
      {
        merchantId: 7,
        postings: [
          { account: 'merchant:7:pending', amount: 1 },
          { account: 'suspense', amount: -1 },
        ],
      },
      'postings[0].account',
      /pending/,
    ],
    [
      {
        merchantId: 7,
        postings: [
          { account: 'merchant:8:available', amount: 1 },
          { account: 'merchant:7:available', amount: -1 },
        ],
      },
      'postings[0].account',
      /only merchant:7:available/,
    ],
    [
      {
        merchantId: 7,
        postings: [
          { account: 'suspense', amount: 1 },
          { account: 'expense:adjustments', amount: -1 },
        ],
      },
      'postings',
      /add a line for merchant:7:available/,
    ],
    [
      {
        merchantId: 0,
        postings: [
          { account: 'suspense', amount: 1 },
          { account: 'expense:adjustments', amount: -1 },
        ],
      },
      'merchantId',
      /positive integer/,
    ],
  ])('refuses %j (%s)', (input, field, message) => {
    expect(refusal({ reason: 'why', ...input })).toEqual({ field, message: expect.stringMatching(message) });
  });

  it('wants a reason of at most 500 characters', () => {
    const postings = [
      { account: 'suspense', amount: 1 },
      { account: 'expense:adjustments', amount: -1 },
    ];
    expect(refusal({ postings, reason: ' ' }).field).toBe('reason');
    expect(refusal({ postings, reason: 'x'.repeat(501) }).field).toBe('reason');
  });
});
