import { sql, sqlText } from './sql';

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

  it('splices a sql`` into another as SQL, numbering its parameters on; constant text as it is; other objects stay values', () => {
    const cte = (id: number, token: string | null) =>
      sql`auth AS (SELECT * FROM m WHERE id = ${id} AND (${token}::uuid IS NULL OR t = ${token}))`;
    const q = sql`WITH ${cte(7, 'tok')}, x AS (SELECT ${'a'}) SELECT CASE ${sqlText("WHEN true THEN 'y'")} END, ${{ text: 'not sql', values: [] }}`;
    expect(q.text).toBe(
      "WITH auth AS (SELECT * FROM m WHERE id = $1 AND ($2::uuid IS NULL OR t = $3)), x AS (SELECT $4) SELECT CASE WHEN true THEN 'y' END, $5",
    );
    expect(q.values).toEqual([7, 'tok', 'tok', 'a', { text: 'not sql', values: [] }]);
    expect(sql`SELECT ${1}, ${sql`${2}, ${sql`${3}`}`}`).toEqual({ text: 'SELECT $1, $2, $3', values: [1, 2, 3] });
  });
});
