import { FORMULA_TRIGGERS, IGNORED_BEFORE_FORMULA } from './formula-neutraliser';

/** Every code point but NUL (which PostgreSQL text cannot hold) and the surrogates, with `pick`. */
function codePoints(pick: (char: string) => boolean): number[] {
  const found: number[] = [];
  for (let cp = 1; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    if (pick(String.fromCodePoint(cp))) found.push(cp);
  }
  return found;
}

const expand = (ranges: readonly (readonly [number, number])[]) =>
  ranges.flatMap(([from, to]) => Array.from({ length: to - from + 1 }, (_, i) => from + i));

/** The neutraliser's character lists, written out for PostgreSQL, are the Unicode sets they stand for (Node's Unicode). */
describe('the formula neutraliser character sets', () => {
  it('ignores before a trigger exactly the controls, white space, format and default-ignorable characters, and the double quote', () => {
    const invisible = /[\p{Cc}\p{Cf}\p{White_Space}\p{Default_Ignorable_Code_Point}"]/u;
    expect(expand(IGNORED_BEFORE_FORMULA)).toEqual(codePoints((c) => invisible.test(c)));
  });

  it('takes as a trigger = + - @ |, tab, CR, and every character whose compatibility form is one of = + - @ |', () => {
    const triggers = codePoints((c) => ['=', '+', '-', '@', '|'].includes(c.normalize('NFKC')));
    expect([...FORMULA_TRIGGERS].sort((a, b) => a - b)).toEqual([0x09, 0x0d, ...triggers].sort((a, b) => a - b));
    // The fullwidth forms the white-box test got through with.
    expect(FORMULA_TRIGGERS).toEqual(expect.arrayContaining([0xff1d, 0xff0b, 0xff0d, 0xff20]));
  });
});
