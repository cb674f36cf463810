// SQL of the audit log viewer. Every query starts from `visibleLog()`, so no read can skip the visibility rule.
//
// Why not the tenant scope (src/db/scope.ts) like other features: the audit log is not tenant-owned data of the
// current tenant. Support is a staff role; it sees the entries of EVERY tenant the support user is a member of,
// plus the entries without a tenant (failed logins, SSO failures and the other sign-in events, which happen
// before a tenant is chosen). Entries of tenants the user does not belong to stay invisible.
import type { Knex } from 'knex';
import { redactSecrets } from './diff.js';

export interface Visibility {
  /** The tenants whose entries may be read (the support user's own, active tenants). */
  mandanten: readonly string[];
}

export interface LogEntry {
  id: number;
  /** ISO 8601, UTC. */
  at: string;
  mandant: string | null;
  benutzerId: number | null;
  /** Login of the acting user; null when there was none (failed login, SSO failure). */
  benutzer: string | null;
  /** The name of the API key the user's system acted with, or null (src/features/api-keys). */
  apiKey: string | null;
  kind: string;
  entity: string | null;
  entityId: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
}

export interface LogRow {
  id: number | string;
  at: Date | string;
  mandant: string | null;
  benutzer_id: number | null;
  benutzer_login: string | null;
  api_key_name: string | null;
  kind: string;
  entity: string | null;
  entity_id: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
}

export const COLUMNS = [
  'a.id', 'a.at', 'a.mandant', 'a.benutzer_id', 'b.login as benutzer_login', 'a.api_key_name', 'a.kind', 'a.entity', 'a.entity_id',
  'a.before', 'a.after', 'a.ip',
];

export function visibleLog(knex: Knex, vis: Visibility): Knex.QueryBuilder {
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

/** An entry as the page and the API show it: secrets in before/after redacted. */
export function toEntry(row: LogRow): LogEntry {
  return {
    id: Number(row.id),
    at: new Date(row.at).toISOString(),
    mandant: row.mandant,
    benutzerId: row.benutzer_id == null ? null : Number(row.benutzer_id),
    benutzer: row.benutzer_login,
    apiKey: row.api_key_name ?? null,
    kind: row.kind,
    entity: row.entity,
    entityId: row.entity_id,
    before: redactSecrets(row.before),
    after: redactSecrets(row.after),
    ip: row.ip,
  };
}

/**
 * The entries about one kind of platform record (e.g. the legal values), newest first, for the history section
 * of the page that manages them. Not limited by tenant: such records belong to no tenant, and only that page's
 * users (system administrators) see it.
 */
export async function entityLog(knex: Knex, entity: string, limit: number): Promise<LogRow[]> {
  return knex({ a: 'audit_log' })
    .leftJoin({ b: 'benutzer' }, 'b.id', 'a.benutzer_id')
    .where('a.entity', entity)
    .orderBy('a.id', 'desc')
    .limit(limit)
    .select(COLUMNS);
}
