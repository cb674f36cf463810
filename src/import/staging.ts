// The imports' staging tables (migrations/20261121060000_import_staging.ts): a parsed file waits here between
// preview and commit. `entity` says which import staged it (a master-data resource, or the movement import's
// type). Everything goes through the tenant scope; a staged import is only ever found by its owner.
import type { TenantScope } from '../db/scope.js';
import type { Counts, StagedRow, Summary } from './schema.js';

const TTL = "interval '1 hour'";

export interface Staging {
  id: string;
  benutzerId: number;
  entity: string;
  filename: string | null;
  /** The fields the file sets (compared with and written to existing records). */
  fields: string[];
  summary: Summary;
  result: Counts | null;
  createdAt: Date;
  committedAt: Date | null;
}

const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;

function fromRow(r: Record<string, unknown>): Staging {
  return {
    id: String(r.id),
    benutzerId: Number(r.benutzer_id),
    entity: String(r.entity),
    filename: (r.filename as string) ?? null,
    fields: json<string[]>(r.fields),
    summary: json<Summary>(r.summary),
    result: r.result == null ? null : json<Counts>(r.result),
    createdAt: new Date(r.created_at as string),
    committedAt: r.committed_at ? new Date(r.committed_at as string) : null,
  };
}

export const stagingRepo = {
  /** Imports left for more than an hour are gone (their rows go with them: foreign key on delete cascade). */
  async purgeExpired(scope: TenantScope): Promise<void> {
    await scope.table('import_staging').whereRaw(`created_at < now() - ${TTL}`).delete();
  },

  async begin(scope: TenantScope, s: { id: string; benutzerId: number; entity: string; filename: string | null; fields: string[] }): Promise<void> {
    await scope.insert('import_staging', {
      id: s.id, benutzer_id: s.benutzerId, entity: s.entity, filename: s.filename, fields: JSON.stringify(s.fields), summary: JSON.stringify({}),
    });
  },

  async addChunk(scope: TenantScope, id: string, chunk: number, rows: StagedRow[]): Promise<void> {
    await scope.insert('import_staging_rows', { id, chunk, rows: JSON.stringify(rows) });
  },

  async finish(scope: TenantScope, id: string, summary: Summary): Promise<void> {
    await scope.table('import_staging').where({ id }).update({ summary: JSON.stringify(summary) });
  },

  async dropRows(scope: TenantScope, id: string): Promise<void> {
    await scope.table('import_staging_rows').where({ id }).delete();
  },

  async discard(scope: TenantScope, id: string): Promise<void> {
    await scope.table('import_staging').where({ id }).delete();
  },

  /** The user's own import if it is complete and not expired; `lock` holds it for the commit's transaction. */
  async find(scope: TenantScope, id: string, benutzerId: number, lock = false): Promise<Staging | null> {
    const query = scope.table('import_staging').where({ id, benutzer_id: benutzerId }).whereRaw(`created_at >= now() - ${TTL}`);
    const row = await (lock ? query.forUpdate() : query).first();
    if (!row) return null;
    const staging = fromRow(row);
    return staging.summary.counts ? staging : null;
  },

  async chunk(scope: TenantScope, id: string, chunk: number): Promise<StagedRow[]> {
    const row = await scope.table('import_staging_rows').where({ id, chunk }).first('rows');
    return row ? json<StagedRow[]>(row.rows) : [];
  },

  async markCommitted(scope: TenantScope, id: string, result: Counts): Promise<void> {
    await scope.table('import_staging').where({ id }).update({ result: JSON.stringify(result), committed_at: scope.knex.fn.now() });
    await scope.table('import_staging_rows').where({ id }).delete();
  },
};
