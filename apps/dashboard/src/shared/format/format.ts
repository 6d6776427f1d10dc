// Money and time as the merchant reads them: Rupiah, Asia/Jakarta.
// Whole Rupiah show no decimals (ICU versions differ on IDR's default digits); a fee's fraction shows to the sen.
const rupiah = new Intl.NumberFormat('id-ID', {
  style: 'currency',
  currency: 'IDR',
  minimumFractionDigits: 0,
  maximumFractionDigits: 2,
});

export const TIME_ZONE = 'Asia/Jakarta';

/** Amounts arrive as Rupiah numbers (or numeric strings); anything else shows as a dash. */
export function formatRupiah(amount: number | string | null | undefined): string {
  if (amount === null || amount === undefined || amount === '') return '–';
  const n = typeof amount === 'number' ? amount : Number(amount);
  return Number.isFinite(n) ? rupiah.format(n) : '–';
}

function toDate(value: string | Date): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  // The merchant API's Jakarta times read "2026-11-25 14:03:00" (no zone): they are already local.
  const jakartaLocal = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(value)
    ? `${value.replace(' ', 'T')}+07:00`
    : value;
  const d = new Date(jakartaLocal);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** A date and time in Asia/Jakarta, e.g. "25/11/2026, 14.03.00" (id) or "11/25/2026, 14:03:00" (en). */
export function formatDateTime(value: string | Date | null | undefined, locale = 'en'): string {
  if (!value) return '–';
  const d = toDate(value);
  if (!d) return String(value);
  // The zone said, as Indonesians write it: every time here is Jakarta's (WIB, UTC+7).
  return `${new Intl.DateTimeFormat(locale === 'id' ? 'id-ID' : 'en-GB', {
    timeZone: TIME_ZONE,
    dateStyle: 'medium',
    timeStyle: 'medium',
  }).format(d)} WIB`;
}

/** Today's date in Jakarta as YYYY-MM-DD (the form date inputs and the APIs use). */
export function jakartaToday(now: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

/** "2026-11-25" -> "25 Nov" for chart axes. */
export function formatShortDay(day: string, locale = 'en'): string {
  const d = toDate(`${day}T12:00:00+07:00`);
  return d
    ? new Intl.DateTimeFormat(locale === 'id' ? 'id-ID' : 'en-GB', {
        timeZone: TIME_ZONE,
        day: 'numeric',
        month: 'short',
      }).format(d)
    : day;
}
