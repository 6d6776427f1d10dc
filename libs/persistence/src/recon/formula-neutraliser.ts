/**
 * Spreadsheet formula injection in the recon CSV (OWASP CSV injection guidance, decision 0016):
 * a cell a spreadsheet reads as a formula (=HYPERLINK(...) leaking data, =cmd|... running a
 * command) is made text by a single quote at the cell's start.
 *
 * Where a cell starts: at the start of a value (COPY quotes a value holding a comma, quote or line
 * break, so no comma starts a cell), and, when the file is opened where `;` is the list separator
 * (Excel with an Indonesian locale), after every `;` and every line break in it: there a quoted
 * value is not a quoted cell, so `a;=1` and `a<LF>=1` each put `=1` at the start of a cell.
 *
 * What makes it a formula: a trigger after any characters a spreadsheet may drop or not show.
 */

/** Code points (ranges) of the characters a cell's text may start with ahead of its formula. */
export const IGNORED_BEFORE_FORMULA: readonly (readonly [number, number])[] = [
  // Controls (tab, CR, LF among them) and the ASCII space
  [0x01, 0x20],
  // A double quote: a cell opened as `"=1"` (a quoted cell in the `;` reading) is the formula =1
  [0x22, 0x22],
  // Controls, NBSP
  [0x7f, 0xa0],
  // The rest of Unicode's White_Space, format characters (Cf) and Default_Ignorable_Code_Point:
  // zero-width spaces and joiners, bidi marks, BOM, fillers, variation selectors, tags
  [0xad, 0xad],
  [0x34f, 0x34f],
  [0x600, 0x605],
  [0x61c, 0x61c],
  [0x6dd, 0x6dd],
  [0x70f, 0x70f],
  [0x890, 0x891],
  [0x8e2, 0x8e2],
  [0x115f, 0x1160],
  [0x1680, 0x1680],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x2000, 0x200f],
  [0x2028, 0x202f],
  [0x205f, 0x206f],
  [0x3000, 0x3000],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff0, 0xfffb],
  [0x110bd, 0x110bd],
  [0x110cd, 0x110cd],
  [0x13430, 0x1343f],
  [0x1bca0, 0x1bca3],
  [0x1d173, 0x1d17a],
  [0xe0000, 0xe0fff],
];

/**
 * What a formula starts with: = + - @ (OWASP), | (DDE: =cmd|...), tab and CR (OWASP), and every
 * character whose compatibility form (NFKC) is one of = + - @ |: fullwidth ＝ ＋ － ＠ ｜, small
 * and super/subscript forms.
 */
export const FORMULA_TRIGGERS: readonly number[] = [
  0x3d, 0x2b, 0x2d, 0x40, 0x7c, 0x09, 0x0d, 0x207a, 0x207c, 0x208a, 0x208c, 0xfb29, 0xfe62, 0xfe63, 0xfe66, 0xfe6b,
  0xff0b, 0xff0d, 0xff1d, 0xff20, 0xff5c,
];

/** A code point as a PostgreSQL regular expression escape (\uXXXX or \UXXXXXXXX). */
function escape(cp: number): string {
  return cp > 0xffff ? `\\U${cp.toString(16).padStart(8, '0')}` : `\\u${cp.toString(16).padStart(4, '0')}`;
}

const IGNORED = IGNORED_BEFORE_FORMULA.map(([from, to]) =>
  from === to ? escape(from) : `${escape(from)}-${escape(to)}`,
).join('');
const TRIGGER = FORMULA_TRIGGERS.map(escape).join('');

/**
 * Every cell start (the value's start, or just after a `;`, CR or LF) that the ignored characters
 * and a trigger follow: a zero-width match, where the quote goes.
 */
const FORMULA_CELL_START = `(?:^|(?<=[;\\r\\n]))(?=[${IGNORED}]*[${TRIGGER}])`;

/** ASCII digits and letters: a value starting with one starts no formula. */
const ALNUM = [
  ...Array.from({ length: 10 }, (_, i) => 0x30 + i),
  ...Array.from({ length: 26 }, (_, i) => 0x41 + i),
  ...Array.from({ length: 26 }, (_, i) => 0x61 + i),
].join(', ');

/**
 * A free-text column (one a merchant, payer or acquirer fills in) as a SQL expression that puts a
 * single quote at every cell start that begins a formula (spreadsheets show such a cell as text).
 * A value that is just a number (-5, +62812) is no formula and stays as it is, as do the
 * platform's own columns (ids it generates, status, amounts, times), which never go through here.
 *
 * Nearly every value starts with a letter or digit and holds no `;` or line break: that test (one
 * hashed lookup of an integer, three substring searches) spares them the regular expressions,
 * which on every value of five columns were a quarter of the export's time (decision 0019).
 */
export function neutraliseFormulas(col: string): string {
  const plain = `ascii(${col}) IN (${ALNUM}) AND strpos(${col}, ';') + strpos(${col}, chr(10)) + strpos(${col}, chr(13)) = 0`;
  return `CASE WHEN ${plain} THEN ${col} WHEN ${col} ~ '^[-+]?[0-9]+(\\.[0-9]+)?$' THEN ${col}
    ELSE regexp_replace(${col}, '${FORMULA_CELL_START}', '''', 'g') END`;
}

const FORMULA_CELL_START_JS = new RegExp(
  `(?:^|(?<=[;\\r\\n]))(?=[${IGNORED_BEFORE_FORMULA.map(([from, to]) => (from === to ? jsEscape(from) : `${jsEscape(from)}-${jsEscape(to)}`)).join('')}]*[${FORMULA_TRIGGERS.map(jsEscape).join('')}])`,
  'gu',
);
const PLAIN_NUMBER = /^[-+]?[0-9]+(\.[0-9]+)?$/;

function jsEscape(cp: number): string {
  return `\\u{${cp.toString(16)}}`;
}

/**
 * neutraliseFormulas for a value already in hand (a CSV the gateway writes itself, such as the
 * dashboard's list downloads): the same rule, the same characters, the same result as the SQL.
 */
export function neutraliseFormulaText(value: string): string {
  if (PLAIN_NUMBER.test(value)) return value;
  return value.replace(FORMULA_CELL_START_JS, "'");
}
