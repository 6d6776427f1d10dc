import { Account, accountKind, accountName, naturalBalance } from './chart';
import {
  acquirerSettledPostings,
  entry,
  payinRecordedPostings,
  payoutDebitedPostings,
  payoutRefundedPostings,
  UnbalancedEntryError,
} from './postings';

describe('the chart of accounts', () => {
  it('knows the kind of each account it names, and nothing else', () => {
    expect(accountKind(Account.merchantAvailable(7))).toBe('liability');
    expect(accountKind(Account.acquirerReceivable('qris'))).toBe('asset');
    expect(accountKind(Account.bankCash('bri-snap'))).toBe('asset');
    expect(accountKind(Account.payoutsInTransit('bri-snap'))).toBe('liability');
    expect(accountKind(Account.feeRevenuePayout)).toBe('revenue');
    expect(accountKind(Account.railFees('bri-snap'))).toBe('expense');
    expect(accountKind(Account.suspense)).toBe('suspense');
    for (const code of [
      'merchant:0:available',
      'merchant:7:savings',
      'bank:BRI:cash',
      'cash',
      'revenue:fees:other',
      '',
    ])
      expect(accountKind(code)).toBeNull();
  });

  it('spells rail and acquirer names as account codes', () => {
    expect(accountName('BRI SNAP (sandbox)')).toBe('bri-snap-sandbox');
    expect(accountName('***')).toBe('unnamed');
  });

  it('reads liabilities and revenue credit-normal', () => {
    expect(naturalBalance(Account.merchantAvailable(1), -500n)).toBe(500n);
    expect(naturalBalance(Account.acquirerReceivable('qris'), 500n)).toBe(500n);
  });
});

describe('journal entries', () => {
  it('sum to zero, one line per account, no zero lines', () => {
    expect(payinRecordedPostings({ merchantId: 3, amount: 10_000n, fee: 0n, sandbox: false })).toEqual([
      { account: 'acquirer:qris:receivable', amount: 10_000n },
      { account: 'merchant:3:pending', amount: -10_000n },
    ]);
    expect(
      entry([
        { account: 'suspense', amount: 5n },
        { account: 'suspense', amount: -5n },
        { account: 'expense:adjustments', amount: 0n },
      ]),
    ).toEqual([]);
  });

  it('are refused when they do not balance or name an account outside the chart', () => {
    expect(() => entry([{ account: 'suspense', amount: 1n }])).toThrow(UnbalancedEntryError);
    expect(() => entry([{ account: 'petty:cash', amount: 0n }])).toThrow('petty:cash is not an account of the chart');
  });

  it('settle an acquirer batch: the receivable credited gross less the refunds it netted, the net to cash', () => {
    const p = { acquirer: 'qris', rail: 'snap', gross: 10_000n, mdr: 70n };
    expect(acquirerSettledPostings({ ...p, net: 9_930n })).toEqual(
      entry([
        { account: 'bank:snap:cash', amount: 9_930n },
        { account: 'expense:mdr:qris', amount: 70n },
        { account: 'acquirer:qris:receivable', amount: -10_000n },
      ]),
    );
    expect(acquirerSettledPostings({ ...p, net: 7_430n, refunds: 2_500n })).toEqual(
      entry([
        { account: 'bank:snap:cash', amount: 7_430n },
        { account: 'expense:mdr:qris', amount: 70n },
        { account: 'acquirer:qris:receivable', amount: -7_500n },
      ]),
    );
    expect(() => acquirerSettledPostings({ ...p, net: 9_930n, refunds: 1n })).toThrow(
      'gross 10000 is not mdr 70 + net 9930 + refunds 1',
    );
  });

  it("undo a payout's debit from where it stands", () => {
    const debit = payoutDebitedPostings({ merchantId: 9, amount: 1000n, fee: 25n });
    const refund = payoutRefundedPostings({ merchantId: 9, amount: 1000n, fee: 25n });
    expect(
      [...debit, ...refund].reduce((m, p) => m.set(p.account, (m.get(p.account) ?? 0n) + p.amount), new Map()),
    ).toEqual(
      new Map([
        ['merchant:9:available', 0n],
        ['payouts:payable', 0n],
        ['revenue:fees:payout', 0n],
      ]),
    );
    expect(payoutRefundedPostings({ merchantId: 9, amount: 1000n, fee: 25n, inTransitRail: 'bri' })).toContainEqual({
      account: 'rail:bri:in_transit',
      amount: 1000n,
    });
  });
});
