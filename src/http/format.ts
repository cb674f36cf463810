// Dates and numbers as the signed-in user wants them (settings: date format, timezone; language for numbers).
// Every page and export formats through here.
import type { UserSettings } from '../auth/current-user.js';

export interface Formatter {
  /** What the output depends on besides the values (language, date format, time zone), as one string. */
  readonly variant?: string;
  date(value: Date | string | number | null | undefined): string;
  dateTime(value: Date | string | number | null | undefined): string;
  number(value: number | string | null | undefined, fractionDigits?: number): string;
}

type Parts = Record<'year' | 'month' | 'day' | 'hour' | 'minute', string>;

// Building an Intl formatter costs far more than using one (tens of microseconds: felt in a CSV export of
// 100,000 rows and on every page), and they hold no state: one per time zone, and per language and digits.
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const numberFormats = new Map<string, Intl.NumberFormat>();

/** Calendar day and time of an instant in a time zone (also for spreadsheet cells, which have no zone). */
/**
 * The parts of a moment in a time zone, remembered per zone and minute (the parts go no finer): a page asks for
 * the same days again and again (a list's dates, today's date with every session), and formatToParts is costly.
 * The parts are shared: read them, never change them.
 */
export function partsIn(timeZone: string, date: Date): Parts {
  const ms = date.getTime();
  if (Number.isNaN(ms)) return partsOf(timeZone, date);
  const key = `${timeZone}|${Math.floor(ms / 60_000)}`;
  let parts = remembered.get(key);
  if (!parts) {
    if (remembered.size >= REMEMBER_AT_MOST) remembered.clear();
    remembered.set(key, (parts = Object.freeze(partsOf(timeZone, date))));
  }
  return parts;
}

const REMEMBER_AT_MOST = 5000;
const remembered = new Map<string, Parts>();

function partsOf(timeZone: string, date: Date): Parts {
  let format = dateFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
    });
    dateFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(date);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute') };
}

export function formatter(settings: Pick<UserSettings, 'dateFormat' | 'timezone'>, lang: string): Formatter {
  const toDate = (v: Date | string | number) => (v instanceof Date ? v : new Date(v));
  const date = (value: Date | string | number | null | undefined) => {
    if (value == null || value === '') return '';
    // A calendar day ("2025-12-31", a DATE column) is the same day in every time zone; an instant is shown in
    // the user's zone.
    const day = typeof value === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
    const d = toDate(value);
    if (!day && Number.isNaN(d.getTime())) return '';
    const p = day ? { year: day[1], month: day[2], day: day[3] } : partsIn(settings.timezone, d);
    switch (settings.dateFormat) {
      case 'yyyy-MM-dd':
        return `${p.year}-${p.month}-${p.day}`;
      case 'MM/dd/yyyy':
        return `${p.month}/${p.day}/${p.year}`;
      default:
        return `${p.day}.${p.month}.${p.year}`;
    }
  };
  const locale = lang === 'en' ? 'en-GB' : 'de-DE';
  return {
    variant: JSON.stringify([lang, settings.dateFormat, settings.timezone]),
    date,
    dateTime(value) {
      const day = date(value);
      if (!day) return '';
      const p = partsIn(settings.timezone, toDate(value!));
      return `${day} ${p.hour}:${p.minute}`;
    },
    number(value, fractionDigits = 0) {
      if (value == null || value === '') return '';
      const n = typeof value === 'number' ? value : Number(value);
      if (!Number.isFinite(n)) return '';
      const key = `${locale}|${fractionDigits}`;
      let f = numberFormats.get(key);
      if (!f) {
        f = new Intl.NumberFormat(locale, { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits });
        numberFormats.set(key, f);
      }
      return f.format(n);
    },
  };
}
