import { disbursementCallbackBody, type DisbursementCallbackFacts } from './disbursement-callback';

const facts: DisbursementCallbackFacts = {
  disbursementId: '0b6e4f8e-3d1c-4a55-9a57-2f0d3c8e9b11',
  merchantId: 42,
  merchantName: 'Toko "Kopi", Jaya',
  merchantTrxId: 'INV-77',
  platformTrxId: 'DSB20261122AAAABBBBCCCC',
  bankCode: 'BCA',
  accountNo: '1234567890',
  accountName: 'BUDI SANTOSO',
  amount: 10_000_000n,
  feeFixed: 250_000n,
  status: 'success',
  successAt: new Date('2026-11-22T12:31:05.000Z'),
  failureReason: null,
  occurredAt: new Date('2026-11-22T12:31:05.100Z'),
};

describe('disbursementCallbackBody', () => {
  it('a success: the fee charged, the total, success_at in Jakarta time, no failureReason', () => {
    expect(JSON.parse(disbursementCallbackBody(facts))).toEqual({
      id: `disbursement.${facts.disbursementId}.success`,
      type: 'disbursement.succeeded',
      createdAt: '2026-11-22T12:31:05.100Z',
      data: {
        idMerchant: 42,
        merchantName: 'Toko "Kopi", Jaya',
        merchantTrxId: 'INV-77',
        platformTrxId: 'DSB20261122AAAABBBBCCCC',
        accountNo: '1234567890',
        accountName: 'BUDI SANTOSO',
        bankCode: 'BCA',
        amount: 100000,
        fee: { amount: 2500, percentage: 0, fixed: 2500 },
        totalAmount: 102500,
        status: 'success',
        success_at: '2026-11-22 19:31:05',
      },
    });
  });

  it('a failure: no fee charged (fixed still shown), total = amount, success_at null, the reason', () => {
    const body = JSON.parse(
      disbursementCallbackBody({
        ...facts,
        status: 'failed',
        successAt: null,
        failureReason: 'Rejected by the beneficiary bank',
      }),
    );
    expect(body).toMatchObject({ id: `disbursement.${facts.disbursementId}.failed`, type: 'disbursement.failed' });
    expect(body.data).toMatchObject({
      status: 'failed',
      fee: { amount: 0, percentage: 0, fixed: 2500 },
      totalAmount: 100000,
      success_at: null,
      failureReason: 'Rejected by the beneficiary bank',
    });
  });

  it('a reversal: the success it was (success_at stays), the fee given back, when and why it was reversed', () => {
    const body = JSON.parse(
      disbursementCallbackBody({
        ...facts,
        status: 'reversed',
        reversedAt: new Date('2026-11-25T03:02:11.000Z'),
        reversalReason: 'Returned by the beneficiary bank: account closed',
      }),
    );
    expect(body).toMatchObject({ id: `disbursement.${facts.disbursementId}.reversed`, type: 'disbursement.reversed' });
    expect(body.data).toMatchObject({
      status: 'reversed',
      fee: { amount: 0, percentage: 0, fixed: 2500 },
      totalAmount: 100000,
      success_at: '2026-11-22 19:31:05',
      reversed_at: '2026-11-25 10:02:11',
      reversalReason: 'Returned by the beneficiary bank: account closed',
    });
    expect(body.data).not.toHaveProperty('failureReason');
  });
});
