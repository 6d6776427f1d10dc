import { BackofficeError } from '@pay/contracts';
import type { Pool } from 'pg';
import { ReconciliationDesk } from './reconciliation-desk';

/** A pool no refused input may reach: every refusal below comes before the database. */
const untouchedPool = new Proxy(
  {},
  {
    get: (_t, name) => {
      throw new Error(`the database was used (${String(name)})`);
    },
  },
) as Pool;
const desk = new ReconciliationDesk(untouchedPool, () => new Date('2026-11-29T03:00:00Z'));
const by = 'operator:1';

async function refusal(work: Promise<unknown>): Promise<{ code: string; field?: string; message: string }> {
  try {
    await work;
  } catch (err) {
    if (err instanceof BackofficeError) return { code: err.code, field: err.field, message: err.message };
    throw err;
  }
  throw new Error('accepted');
}

const REPORT_HEADER = 'rrn,reference_no,transaction_date,settlement_date,batch_id,gross,mdr,net';

describe('ReconciliationDesk: what it refuses before the database', () => {
  it.each([
    ['not a day', { date: '03-12-2026' }, 'date', /YYYY-MM-DD/],
    ['an impossible day', { date: '2026-02-30' }, 'date', /not a real date/],
    ['a day after today in Jakarta', { date: '2026-11-30' }, 'date', /in the future/],
    ['an acquirer not named as the books name one', { date: '2026-11-28', acquirer: 'QRIS ' }, 'acquirer', /acquirer/],
    ['a rail not named as the books name one', { date: '2026-11-28', rail: "snap'" }, 'rail', /rail/],
    ['a lag beyond a week', { date: '2026-11-28', settlementLagDays: 8 }, 'settlementLagDays', /0 to 7/],
    ['a lag not whole', { date: '2026-11-28', settlementLagDays: 1.5 }, 'settlementLagDays', /0 to 7/],
  ])('a run of %s', async (_what, input, field, message) => {
    expect(await refusal(desk.run(input, by))).toEqual({
      code: 'INVALID_INPUT',
      field,
      message: expect.stringMatching(message),
    });
  });

  it('a file of another kind, an empty one, or one with bad lines: refused whole, every bad line named, under the field it came in', async () => {
    const day = { date: '2026-11-28' };
    expect(await refusal(desk.ingestCsv({ ...day, kind: 'ledger', csv: 'x' }, by))).toMatchObject({ field: 'kind' });
    expect(await refusal(desk.ingestCsv({ ...day, kind: 'report', csv: ' \n ' }, by))).toMatchObject({ field: 'csv' });
    expect(await refusal(desk.ingestCsv({ ...day, kind: 'report', lines: [''] }, by))).toMatchObject({
      field: 'lines',
    });
    const bad = await refusal(
      desk.ingestCsv(
        {
          ...day,
          kind: 'report',
          lines: [
            REPORT_HEADER,
            '612345678901,,2026-11-28,2026-11-29,STL-1,150000.00,1050.00,148950.00',
            '612345678902,,2026-11-28,2026-11-29,STL-1,1e5,0,1e5',
            ',,2026-11-28,someday,,1.00,0.00,1.00',
          ],
        },
        by,
      ),
    );
    expect(bad).toEqual({
      code: 'INVALID_INPUT',
      field: 'lines',
      message: 'the file was not stored, 2 problem(s): line 3: gross, net; line 4: rrn, batch_id, settlement_date',
    });
    const header = await refusal(desk.ingestCsv({ ...day, kind: 'statement', csv: 'when,what\n1,2' }, by));
    expect(header).toMatchObject({
      field: 'csv',
      message: expect.stringContaining('the header lacks transaction_date'),
    });
  });

  it('names at most 50 bad lines, then how many more', async () => {
    const lines = [REPORT_HEADER, ...Array.from({ length: 53 }, () => 'x,,,,,,,')];
    const { message } = await refusal(desk.ingestCsv({ date: '2026-11-28', kind: 'report', lines }, by));
    expect(message).toMatch(/^the file was not stored, 53 problem\(s\): line 2: /);
    expect(message).toMatch(/line 51: [^;]+; and 3 more$/);
  });

  it('an owner or a note: trimmed, required, bounded; an id that is no uuid is not found', async () => {
    const id = '5b0e7c1a-4f2d-4e8b-9d61-0c7a3b2e1f90';
    expect(await refusal(desk.assign(id, '   '))).toMatchObject({ code: 'INVALID_INPUT', field: 'owner' });
    expect(await refusal(desk.assign(id, 'x'.repeat(201)))).toMatchObject({
      field: 'owner',
      message: expect.stringMatching(/200/),
    });
    expect(await refusal(desk.resolve(id, '\t ', by))).toMatchObject({ code: 'INVALID_INPUT', field: 'note' });
    expect(await refusal(desk.resolve(id, ` ${'x'.repeat(501)} `, by))).toMatchObject({
      field: 'note',
      message: expect.stringMatching(/500/),
    });
    expect(await refusal(desk.resolve('not-an-id', 'done', by))).toEqual({
      code: 'RECON_NOT_FOUND',
      field: undefined,
      message: 'Reconciliation break not found',
    });
    expect(await refusal(desk.report('7'))).toMatchObject({
      code: 'RECON_NOT_FOUND',
      message: 'Reconciliation run not found',
    });
  });

  it('a list between two days the wrong way round', async () => {
    expect(await refusal(desk.list({ from: '2026-11-20', to: '2026-11-01' }))).toMatchObject({ field: 'from' });
    expect(await refusal(desk.list({ to: 'yesterday' }))).toMatchObject({ field: 'to' });
  });
});
