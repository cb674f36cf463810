// The audit log viewer's rules: who sees which entries, paging, and the shape of an entry. The HTML page and
// the JSON API call these same functions.
import type { Knex } from 'knex';
import { DEFAULT_SETTINGS, type CurrentUser } from '../../auth/current-user.js';
import { TIMEZONES } from '../account/schema.js';
import { diffEntries, redactSecrets, type FieldChange } from './diff.js';
import { distinctKinds, findLog, listLog, mandantNames, type LogRow, type Visibility } from './repo.js';
import { MAX_PAGE_SIZE, NO_MANDANT, type LogFilter } from './schema.js';

export interface Viewer extends Visibility {
  /** The user's time zone: the days of the date filter are the user's days. */
  timezone: string;
  itemsPerPage: number;
}

/**
 * Support is a staff role, not a role inside one tenant: a support user sees the entries of every tenant they
 * are a member of (not only the one currently chosen), plus the entries without a tenant (failed logins and
 * the other sign-in events). See repo.ts for how the query enforces it.
 */
export function viewerOf(user: CurrentUser): Viewer {
  const timezone = (TIMEZONES as readonly string[]).includes(user.settings.timezone) ? user.settings.timezone : DEFAULT_SETTINGS.timezone;
  const perPage = Number(user.settings.itemsPerPage);
  return {
    mandanten: user.mandanten.map((m) => m.mandant),
    timezone,
    itemsPerPage: Number.isInteger(perPage) && perPage >= 1 ? Math.min(perPage, MAX_PAGE_SIZE) : DEFAULT_SETTINGS.itemsPerPage,
  };
}

/** May the viewer filter by this tenant? Only by one of their own, or by "no tenant". */
export function mandantAllowed(viewer: Viewer, mandant: string | undefined): boolean {
  return mandant === undefined || mandant === NO_MANDANT || viewer.mandanten.includes(mandant);
}

export interface LogEntry {
  id: number;
  /** ISO 8601, UTC. */
  at: string;
  mandant: string | null;
  benutzerId: number | null;
  /** Login of the acting user; null when there was none (failed login, SSO failure). */
  benutzer: string | null;
  kind: string;
  entity: string | null;
  entityId: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
}

function toEntry(row: LogRow): LogEntry {
  return {
    id: Number(row.id),
    at: new Date(row.at).toISOString(),
    mandant: row.mandant,
    benutzerId: row.benutzer_id == null ? null : Number(row.benutzer_id),
    benutzer: row.benutzer_login,
    kind: row.kind,
    entity: row.entity,
    entityId: row.entity_id,
    before: redactSecrets(row.before),
    after: redactSecrets(row.after),
    ip: row.ip,
  };
}

export interface LogPage {
  data: LogEntry[];
  total: number;
  page: number;
  pageSize: number;
}

/**
 * One page of entries, newest first unless asked otherwise. `clampPage`: a page beyond the last shows the last
 * page (for the HTML list, where a stale link should still show something); the API answers what was asked.
 */
export async function listLogmeldungen(
  knex: Knex,
  viewer: Viewer,
  filter: LogFilter,
  opts: { page: number; pageSize?: number; dir?: 'asc' | 'desc'; clampPage?: boolean },
): Promise<LogPage> {
  const pageSize = Math.min(opts.pageSize ?? viewer.itemsPerPage, MAX_PAGE_SIZE);
  const query = { timezone: viewer.timezone, pageSize, dir: opts.dir ?? 'desc' } as const;
  let page = opts.page;
  let result = await listLog(knex, viewer, filter, { ...query, page });
  const lastPage = Math.max(1, Math.ceil(result.total / pageSize));
  if (opts.clampPage && page > lastPage) {
    page = lastPage;
    result = await listLog(knex, viewer, filter, { ...query, page });
  }
  return { data: result.rows.map(toEntry), total: result.total, page, pageSize };
}

export async function getLogmeldung(knex: Knex, viewer: Viewer, id: number): Promise<(LogEntry & { changes: FieldChange[] }) | null> {
  const row = await findLog(knex, viewer, id);
  if (!row) return null;
  const entry = toEntry(row);
  return { ...entry, changes: diffEntries(row.before, row.after) };
}

/** What the filter form offers: the kinds that occur and the viewer's tenants. */
export async function filterOptions(knex: Knex, viewer: Viewer) {
  const [kinds, mandanten] = await Promise.all([distinctKinds(knex, viewer), mandantNames(knex, viewer.mandanten)]);
  return { kinds, mandanten };
}
