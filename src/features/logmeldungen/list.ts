// The audit log as a list of the list engine (src/records/list/engine.ts): what the page and GET /api/logmeldungen filter,
// sort and page by. Its source carries the viewer: every query starts from visibleLog() (repo.ts), so no read
// can skip the visibility rule, and the days of the date filter are the viewer's days.
import type { Knex } from 'knex';
import { platformSource, type ListDefinition, type ListSource } from '../../records/list/engine.js';
import { COLUMNS, mandantNames, toEntry, visibleLog, type LogEntry, type LogRow, type Visibility } from './repo.js';
import { NO_MANDANT } from './schema.js';

export interface LogListSource extends ListSource {
  viewer: Visibility & {
    /** The user's time zone: the days of the date filter are the user's days. */
    timezone: string;
  };
}

export const logListSource = (knex: Knex, viewer: LogListSource['viewer']): LogListSource => ({ ...platformSource(knex), viewer });

/** LIKE pattern for "contains", with the user's own %, _ and \ taken literally. */
const contains = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

/** Kinds are dotted machine names (auth.login.failed, admin.…); one that is well-formed but unknown finds nothing. */
const KIND = /^[a-z0-9][a-z0-9_.-]*$/i;

export const logList: ListDefinition<LogEntry, LogListSource> = {
  id: 'logmeldungen',
  columns: [
    { key: 'at', label: 'logmeldungen:columns.at', sql: 'a.at', notNull: true, kind: 'datetime' },
    { key: 'kind', label: 'logmeldungen:columns.kind' },
    { key: 'benutzer', label: 'logmeldungen:columns.benutzer' },
    { key: 'mandant', label: 'logmeldungen:columns.mandant' },
    { key: 'entity', label: 'logmeldungen:columns.entity' },
    { key: 'ip', label: 'logmeldungen:columns.ip' },
  ],
  // In the order the page's links name them.
  filters: [
    // Days are the user's days: from 00:00 of `from` to the end of `to` in the user's time zone.
    {
      key: 'from', label: 'logmeldungen:filter.from', kind: 'dateFrom', sql: 'a.at',
      where: (qb, day, { viewer }) => qb.whereRaw('a.at >= (?::date)::timestamp at time zone ?', [day, viewer.timezone]),
    },
    {
      key: 'to', label: 'logmeldungen:filter.to', kind: 'dateTo', sql: 'a.at',
      where: (qb, day, { viewer }) => qb.whereRaw('a.at < ((?::date) + 1)::timestamp at time zone ?', [day, viewer.timezone]),
    },
    // The acting user by login or e-mail; for a failed login (no user yet) the login name that was tried.
    {
      key: 'benutzer', label: 'logmeldungen:filter.benutzer', kind: 'text', sql: 'b.login', maxLength: 100,
      where: (qb, text) =>
        qb.where((w) =>
          w
            .where('b.login', 'ilike', contains(text))
            .orWhere('b.email', 'ilike', contains(text))
            .orWhere((f) => f.whereNull('a.benutzer_id').where('a.entity', 'benutzer').where('a.entity_id', 'ilike', contains(text))),
        ),
    },
    // One of the viewer's tenants (choices), or "without tenant".
    {
      key: 'mandant', label: 'logmeldungen:filter.mandant', kind: 'select', sql: 'a.mandant', options: [],
      normalise: (value) => value.toUpperCase(), message: 'logmeldungen:errors.mandant',
      where: (qb, mandant) => (mandant === NO_MANDANT ? qb.whereNull('a.mandant') : qb.where('a.mandant', mandant)),
    },
    {
      key: 'kind', label: 'logmeldungen:filter.kind', kind: 'text', sql: 'a.kind', maxLength: 64, pattern: KIND,
      message: 'logmeldungen:errors.kind', where: (qb, kind) => qb.where('a.kind', kind),
    },
  ],
  search: [],
  defaultSort: { key: 'at', dir: 'desc' },
  tieBreaker: 'a.id',
  query: ({ knex, viewer }) => visibleLog(knex, viewer).select(COLUMNS),
  countAll: true,
  toRow: (row) => toEntry(row as unknown as LogRow),
  choices: async ({ knex, viewer }) => ({
    mandant: [
      ...(await mandantNames(knex, viewer.mandanten)).map((m) => ({ value: m.mandant, label: m.name, raw: true })),
      { value: NO_MANDANT, label: 'logmeldungen:filter.noMandant' },
    ],
  }),
};
