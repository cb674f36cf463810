// The audit log viewer's rules: who sees which entries and the shape of an entry. The HTML page and the JSON
// API call these same functions; the list itself is logList (list.ts), read through logListSource(viewer).
import type { Knex } from 'knex';
import { DEFAULT_SETTINGS, type CurrentUser } from '../../auth/current-user.js';
import { TIMEZONES } from '../account/schema.js';
import { diffEntries, type FieldChange } from './diff.js';
import { logListSource, type LogListSource } from './list.js';
import { distinctKinds, entityLog, findLog, toEntry, type LogEntry } from './repo.js';

export type { LogEntry } from './repo.js';

export type Viewer = LogListSource['viewer'];

/**
 * Support is a staff role, not a role inside one tenant: a support user sees the entries of every tenant they
 * are a member of (not only the one currently chosen), plus the entries without a tenant (failed logins and
 * the other sign-in events). See repo.ts for how the query enforces it.
 */
export function viewerOf(user: CurrentUser): Viewer {
  const timezone = (TIMEZONES as readonly string[]).includes(user.settings.timezone) ? user.settings.timezone : DEFAULT_SETTINGS.timezone;
  return { mandanten: user.mandanten.map((m) => m.mandant), timezone };
}

/** Where the viewer's audit log list reads (logList). */
export function logSource(knex: Knex, viewer: Viewer): LogListSource {
  return logListSource(knex, viewer);
}

export async function getLogmeldung(knex: Knex, viewer: Viewer, id: number): Promise<(LogEntry & { changes: FieldChange[] }) | null> {
  const row = await findLog(knex, viewer, id);
  if (!row) return null;
  const entry = toEntry(row);
  return { ...entry, changes: diffEntries(row.before, row.after) };
}

/** The kinds the filter form offers: those that occur in the entries the viewer sees. */
export function kindOptions(knex: Knex, viewer: Viewer): Promise<string[]> {
  return distinctKinds(knex, viewer);
}

/** The history of one kind of platform record (its audit entries with their field changes), newest first. */
export async function historyOfEntity(knex: Knex, entity: string, limit: number): Promise<(LogEntry & { changes: FieldChange[] })[]> {
  return (await entityLog(knex, entity, limit)).map((row) => ({ ...toEntry(row), changes: diffEntries(row.before, row.after) }));
}
