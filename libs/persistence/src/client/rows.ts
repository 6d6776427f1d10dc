/**
 * Plain pg names a row's fields as the table's columns (snake_case); the models, Prisma's
 * generated types with their @map names, use camelCase. `SELECT *` and `RETURNING *` rows
 * become models through `fromRow`, values untouched (int8 as bigint, timestamptz as Date:
 * see createPgPool), so pg and Prisma hand the callers the same objects.
 */
const camelNames = new Map<string, string>();

function camelCase(column: string): string {
  let name = camelNames.get(column);
  if (name === undefined) {
    name = column.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
    camelNames.set(column, name);
  }
  return name;
}

export function fromRow<T>(row: Record<string, unknown>): T {
  const model: Record<string, unknown> = {};
  for (const column of Object.keys(row)) model[camelCase(column)] = row[column];
  return model as T;
}
