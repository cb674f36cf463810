// SQL of the audit log viewer. Every query starts from `visibleLog()`, so no read can skip the visibility rule.
//
// Why not the tenant scope (src/db/scope.ts) like other features: the audit log is not tenant-owned data of the
// current tenant. Support is a staff role; it sees the entries of EVERY tenant the support user is a member of,
// plus the entries without a tenant (failed logins, SSO failures and the other sign-in events, which happen
// before a tenant is chosen). Entries of tenants the user does not belong to stay invisible.
import type { Knex } from 'knex';
import { NO_MANDANT, type LogFilter } from './schema.js';

export interface Visibility {
  /** The tenants whose entries may be read (the support user's own, active tenants). */
  mandanten: readonly string[];
}

export interface LogRow {
  id: number | string;
  at: Date | string;
  mandant: string | null;
  benutzer_id: number | null;
  benutzer_login: string | null;
  kind: string;
  entity: string | null;
  entity_id: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
}

const COLUMNS = [
  'a.id', 'a.at', 'a.mandant', 'a.benutzer_id', 'b.login as benutzer_login', 'a.kind', 'a.entity', 'a.entity_id',
  'a.before', 'a.after', 'a.ip',
];

function visibleLog(knex: Knex, vis: Visibility): Knex.QueryBuilder {
  // Entries without a tenant (sign-in events) are visible only when they name no user, or a user who
  // belongs to one of the viewer's tenants: a DEMO support user never sees a NORD-only user's sign-ins.
  return knex({ a: 'audit_log' })
    .leftJoin({ b: 'benutzer' }, 'b.id', 'a.benutzer_id')
    .where((w) =>
      w.whereIn('a.mandant', [...vis.mandanten]).orWhere((n) =>
        n.whereNull('a.mandant').andWhere((u) =>
          u.whereNull('a.benutzer_id').orWhereExists((e) =>
            e.from({ m: 'benutzer_mandanten' }).whereRaw('m.benutzer_id = a.benutzer_id').whereIn('m.mandant', [...vis.mandanten]),
          ),
        ),
      ),
    );
}

/** LIKE pattern for "contains", with the user's own %, _ and \ taken literally. */
const contains = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

function applyFilter(q: Knex.QueryBuilder, filter: LogFilter, timezone: string): Knex.QueryBuilder {
  // Days are the user's days: from 00:00 of `from` to the end of `to` in the user's time zone.
  if (filter.from) q.whereRaw('a.at >= (?::date)::timestamp at time zone ?', [filter.from, timezone]);
  if (filter.to) q.whereRaw('a.at < ((?::date) + 1)::timestamp at time zone ?', [filter.to, timezone]);
  if (filter.mandant === NO_MANDANT) q.whereNull('a.mandant');
  else if (filter.mandant) q.where('a.mandant', filter.mandant);
  if (filter.kind) q.where('a.kind', filter.kind);
  if (filter.benutzer) {
    const pattern = contains(filter.benutzer);
    // The acting user by login or e-mail; for a failed login (no user yet) the login name that was tried.
    q.where((w) =>
      w
        .where('b.login', 'ilike', pattern)
        .orWhere('b.email', 'ilike', pattern)
        .orWhere((f) => f.whereNull('a.benutzer_id').where('a.entity', 'benutzer').where('a.entity_id', 'ilike', pattern)),
    );
  }
  return q;
}

export async function listLog(
  knex: Knex,
  vis: Visibility,
  filter: LogFilter,
  opts: { timezone: string; page: number; pageSize: number; dir: 'asc' | 'desc' },
): Promise<{ rows: LogRow[]; total: number }> {
  const base = applyFilter(visibleLog(knex, vis), filter, opts.timezone);
  const counted = await base.clone().count<{ n: string | number }>({ n: '*' }).first();
  const rows = await base
    .clone()
    .select(COLUMNS)
    .orderBy([{ column: 'a.at', order: opts.dir }, { column: 'a.id', order: opts.dir }])
    .limit(opts.pageSize)
    .offset((opts.page - 1) * opts.pageSize);
  return { rows, total: Number(counted?.n ?? 0) };
}

export async function findLog(knex: Knex, vis: Visibility, id: number): Promise<LogRow | undefined> {
  return visibleLog(knex, vis).where('a.id', id).first(COLUMNS);
}

/** The kinds that occur in the visible entries, for the filter's select. */
export async function distinctKinds(knex: Knex, vis: Visibility): Promise<string[]> {
  const rows = await visibleLog(knex, vis).distinct('a.kind').orderBy('a.kind');
  return rows.map((r: { kind: string }) => r.kind);
}

export async function mandantNames(knex: Knex, mandanten: readonly string[]): Promise<{ mandant: string; name: string }[]> {
  if (!mandanten.length) return [];
  return knex('mandanten').whereIn('mandant', [...mandanten]).orderBy('mandant').select('mandant', 'name');
}
