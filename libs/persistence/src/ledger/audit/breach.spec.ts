import { describeBreach } from './breach';

describe('describeBreach', () => {
  it('is one line naming the row, its merchant, the fact, and what was expected and found', () => {
    expect(
      describeBreach({
        check: 'payout.refund_missing',
        table: 'disbursements',
        id: '0b8c6c1e-9d3f-4e0a-a1d2-5c3b7f9e2a10',
        merchantId: 7,
        expected: '1 payout.refunded event of available +10250000 (disbursement failed)',
        found: 'none',
      }),
    ).toBe(
      'disbursements 0b8c6c1e-9d3f-4e0a-a1d2-5c3b7f9e2a10 (merchant 7) payout.refund_missing: expected 1 payout.refunded event of available +10250000 (disbursement failed); found none',
    );
    expect(
      describeBreach({
        check: 'event.orphan',
        table: 'ledger_events',
        id: '42',
        merchantId: null,
        expected: 'pay-in x',
        found: 'no such pay-in',
      }),
    ).toBe('ledger_events 42 event.orphan: expected pay-in x; found no such pay-in');
  });
});
