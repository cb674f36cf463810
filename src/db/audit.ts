// The audit log: authentication failures and every administrative change (who, when, which tenant, before/after).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Knex } from 'knex';

/** The API key a request authenticated with (src/features/api-keys/auth.ts). */
export interface AuditKey {
  id: number;
  name: string;
}

/**
 * The API key behind the code that runs now, set once for a key's request where it is authenticated. Every
 * audit entry written while it is set names the key (api_key_id, api_key_name), whichever service writes it:
 * the one place that knows a key acted, instead of threading the key through the seventy call sites that
 * build entries from an actor (docs/decisions.md "API keys, idempotency and bulk writes").
 */
export const auditKey = new AsyncLocalStorage<AuditKey>();

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
  ...keyColumns(),
});

function keyColumns() {
  const key = auditKey.getStore();
  return key ? { api_key_id: key.id, api_key_name: key.name } : {};
}

export async function audit(knex: Knex, e: AuditEntry): Promise<void> {
  await knex('audit_log').insert(toRow(e));
}

/** Many entries in one statement (an import's records). */
export async function auditMany(knex: Knex, entries: AuditEntry[]): Promise<void> {
  if (entries.length) await knex('audit_log').insert(entries.map(toRow));
}
