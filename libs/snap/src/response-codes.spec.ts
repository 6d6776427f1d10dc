import { classify, parseResponseCode, RESPONSE_CASES, type ResponseCode, transactionState } from './response-codes';

const parsed = (code: string): ResponseCode => {
  const p = parseResponseCode(code);
  if (!p) throw new Error(`${code} does not parse`);
  return p;
};

describe('SNAP response codes', () => {
  it('splits a code into HTTP status, service and case', () => {
    expect(parseResponseCode('4041811')).toEqual({ code: '4041811', http: 404, service: '18', case: '11' });
    expect(parseResponseCode('2007300')).toEqual({ code: '2007300', http: 200, service: '73', case: '00' });
  });

  it.each([null, undefined, 4041811, '404181', '40418111', 'abcdefg', '9041811', ''])('refuses %p', (code) => {
    expect(parseResponseCode(code)).toBeNull();
  });

  it('classifies every case the reference lists, for any service', () => {
    for (const service of ['15', '16', '17', '18', '36', '47', '51', '78']) {
      for (const [key, { class: expected }] of Object.entries(RESPONSE_CASES)) {
        const [http, kase] = key.split('-');
        const code = parseResponseCode(`${http}${service}${kase}`);
        expect(code && classify(code)).toEqual(expected);
      }
    }
    expect(Object.keys(RESPONSE_CASES)).toHaveLength(32);
  });

  it.each([
    ['2001800', 'success'],
    ['2021800', 'in_progress'],
    ['4011801', 'auth_token'],
    ['4011803', 'auth_token'],
    ['4011800', 'auth_fatal'],
    ['4031814', 'final_failure'],
    ['4041801', 'not_found'],
    ['4041818', 'inconsistent'],
    ['4091800', 'external_id_conflict'],
    ['4091801', 'duplicate_success'],
    ['4291800', 'retry_later'],
    ['5001800', 'unknown'],
    ['5041800', 'unknown'],
    ['4031899', 'unknown'],
    ['4181800', 'unknown'],
  ])('%s is %s', (code, kind) => {
    expect(classify(parsed(code)).kind).toBe(kind);
  });

  it('names the reason of a final failure', () => {
    expect(classify(parsed('4031814'))).toEqual({ kind: 'final_failure', reason: 'insufficient_funds' });
    expect(classify(parsed('4041611'))).toEqual({ kind: 'final_failure', reason: 'invalid_account' });
    expect(classify(parsed('4031818'))).toEqual({ kind: 'final_failure', reason: 'inactive_account' });
  });

  it('reads latestTransactionStatus', () => {
    expect(['00', '01', '02', '03', '04', '05', '06', '07', '08', '09', '10', 0].map(transactionState)).toEqual([
      'success',
      'pending',
      'pending',
      'pending',
      'refunded',
      'cancelled',
      'failed',
      'not_found',
      'expired',
      'failed',
      'unknown',
      'unknown',
    ]);
  });
});
