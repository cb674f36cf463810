// The audit log: authentication failures and every administrative change (who, when, which tenant, before/after).
import type { Knex } from 'knex';

export interface AuditEntry {
  kind: string;
  mandant?: string | null;
  benutzerId?: number | null;
  entity?: string;
  entityId?: string | number;
  before?: unknown;
  after?: unknown;
  ip?: string;
}

const toRow = (e: AuditEntry) => ({
  kind: e.kind,
  mandant: e.mandant ?? null,
  benutzer_id: e.benutzerId ?? null,
  entity: e.entity ?? null,
  entity_id: e.entityId == null ? null : String(e.entityId),
  before: e.before === undefined ? null : JSON.stringify(e.before),
  after: e.after === undefined ? null : JSON.stringify(e.after),
  ip: e.ip ?? null,
});

export async function audit(knex: Knex, e: AuditEntry): Promise<void> {
  await knex('audit_log').insert(toRow(e));
}

/** Many entries in one statement (an import's records). */
export async function auditMany(knex: Knex, entries: AuditEntry[]): Promise<void> {
  if (entries.length) await knex('audit_log').insert(entries.map(toRow));
}
