import { sql } from './sql';

describe('sql tag', () => {
  it('turns every interpolated value into a numbered bind parameter, in order', () => {
    const id = 7;
    const name = "O'Brien; DROP TABLE merchants";
    expect(sql`SELECT * FROM merchants WHERE id = ${id} AND name = ${name}`).toEqual({
      text: 'SELECT * FROM merchants WHERE id = $1 AND name = $2',
      values: [7, name],
    });
  });

  it('leaves a query without values as it is', () => {
    expect(sql`SELECT 1`).toEqual({ text: 'SELECT 1', values: [] });
  });

  it('keeps bigint, Date, arrays and null as values for the driver to encode', () => {
    const at = new Date('2026-11-22T00:00:00Z');
    const q = sql`UPDATE t SET a = ${10n ** 18n}, b = ${at}, c = ${['x', 'y']}::text[], d = ${null}`;
    expect(q.text).toBe('UPDATE t SET a = $1, b = $2, c = $3::text[], d = $4');
    expect(q.values).toEqual([10n ** 18n, at, ['x', 'y'], null]);
  });
});
