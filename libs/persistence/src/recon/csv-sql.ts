/**
 * The SQL expressions every day file formats its columns with (docs/decisions/0009), shared by the
 * merchants' day files and the books' files so that an amount or a time reads the same in each.
 */

// COPY takes no bind parameters: every value in the day files' statements is a number or an ISO
// timestamp we produced. Whole Rupiah (nearly every amount) print as integers; the rest as an exact
// numeric times 0.01 without trailing zeros. Numeric arithmetic on five columns of every row was
// the dearest part of the query (docs/decisions/0019); the text is the same either way.
export const decimal = (col: string, unit: number) =>
  `CASE WHEN (${col}) % ${unit} = 0 THEN ((${col}) / ${unit})::text ELSE trim_scale((${col}) * ${1 / unit})::text END`;
/** Sen as Rupiah with at most two decimals (as @pay/domain's formatAmountString). */
export const rupiah = (col: string) => decimal(col, 100);
// Jakarta wall-clock time to the second, printed by the timestamp type itself under DateStyle
// ISO (RECON_COPY_SETTINGS) as YYYY-MM-DD HH:MM:SS: to_char's formatting was 0.3 s of Postgres
// CPU per million rows (docs/decisions/0009). Asia/Jakarta is UTC+7 all year (as in @pay/domain's
// jakarta-time), so the offset is a fixed interval: the zone's name made Postgres look the zone
// up and resolve its rules on every value, 0.4 s per million rows (docs/decisions/0009).
export const wib = (col: string) => `date_trunc('second', ${col} AT TIME ZONE INTERVAL '+07:00')`;
