// Inputs of the audit log viewer, validated at the edge. The API refuses a bad value with a 400 naming the field;
// the page parses field by field, so one bad filter shows as a field error and the others still apply.
import { z } from 'zod';

/** The contract's cap on `pageSize`: larger values are cut down to it, not refused. */
export const MAX_PAGE_SIZE = 500;

/** The tenant filter's value for entries without a tenant (failed logins). No tenant id can look like this. */
export const NO_MANDANT = '-';

/** Forms send empty fields as ''; an empty filter is no filter. */
const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optional = <S extends z.ZodType>(schema: S) => z.preprocess(blankToUndefined, schema.optional());

const positiveInt = (max: number) => z.string().regex(/^\d{1,9}$/).transform(Number).pipe(z.number().int().min(1).max(max));

/** A calendar day as the date field sends it (YYYY-MM-DD); zod checks that the day exists. */
const day = z.iso.date();
// No control characters: PostgreSQL refuses NUL in text, and no login contains one.
const benutzer = z.string().trim().max(100).regex(/^[^\u0000-\u001f\u007f]*$/);
const mandant = z.union([z.literal(NO_MANDANT), z.string().trim().toUpperCase().regex(/^[A-Z0-9][A-Z0-9_-]{0,31}$/)]);
/** Kinds are dotted machine names (auth.login.failed, admin.…); one that is well-formed but unknown finds nothing. */
const kind = z.string().trim().max(64).regex(/^[a-z0-9][a-z0-9_.-]*$/i);

export const FILTER_FIELDS = {
  from: optional(day),
  to: optional(day),
  benutzer: optional(benutzer),
  mandant: optional(mandant),
  kind: optional(kind),
} as const;

export type FilterField = keyof typeof FILTER_FIELDS;

export interface LogFilter {
  from?: string;
  to?: string;
  benutzer?: string;
  mandant?: string;
  kind?: string;
}

const toNotBeforeFrom = (f: LogFilter) => !f.from || !f.to || f.from <= f.to;

/** GET /api/logmeldungen: every parameter checked, unknown ones refused (a typo should not silently match all). */
export const LogListQuery = z
  .object({
    ...FILTER_FIELDS,
    page: z.preprocess(blankToUndefined, positiveInt(1_000_000).default(1)),
    pageSize: z.preprocess(blankToUndefined, positiveInt(999_999_999).transform((n) => Math.min(n, MAX_PAGE_SIZE)).optional()),
    // The contract's sort parameter; this log sorts by time only.
    sort: optional(z.enum(['at:desc', 'at:asc'])),
  })
  .strict()
  .refine(toNotBeforeFrom, { path: ['to'], message: 'to before from' });

export type LogListQuery = z.infer<typeof LogListQuery>;

/** A log entry's id (bigint): digits only, so `/logmeldungen/abc` is a 404, never a database error. */
export const LogId = z.string().regex(/^[1-9]\d{0,17}$/).transform(Number);

export interface LenientFilter {
  filter: LogFilter;
  page: number;
  /** Fields whose value was refused (and therefore not applied), with the i18n key of the reason. */
  errors: { field: FilterField; key: string }[];
}

const ERROR_KEYS: Record<FilterField, string> = {
  from: 'logmeldungen:errors.date',
  to: 'logmeldungen:errors.date',
  benutzer: 'logmeldungen:errors.benutzer',
  mandant: 'logmeldungen:errors.mandant',
  kind: 'logmeldungen:errors.kind',
};

/**
 * The page's filters from the URL, field by field: a refused value is left out and reported, so the page can
 * show it next to its field and still list with the rest. A bad page number falls back to the first page.
 */
export function parseFilterLenient(query: Record<string, unknown>): LenientFilter {
  const filter: LogFilter = {};
  const errors: LenientFilter['errors'] = [];
  for (const field of Object.keys(FILTER_FIELDS) as FilterField[]) {
    const parsed = FILTER_FIELDS[field].safeParse(query[field]);
    if (!parsed.success) errors.push({ field, key: ERROR_KEYS[field] });
    else if (parsed.data !== undefined) filter[field] = parsed.data as string;
  }
  if (!toNotBeforeFrom(filter)) {
    errors.push({ field: 'to', key: 'logmeldungen:errors.toBeforeFrom' });
    delete filter.to;
  }
  const page = positiveInt(1_000_000).safeParse(query.page);
  return { filter, page: page.success ? page.data : 1, errors };
}
