// Saved import codes (migrations/20261123010000_import_mappings.ts), always through the tenant scope: another
// tenant's code is simply not found.
import type { TenantScope } from '../../db/scope.js';
import type { ImportTyp } from './mapping.js';

export interface ImportCode {
  id: number;
  typ: ImportTyp;
  name: string;
  code: string;
  version: number;
  updatedAt: string;
}

const fromRow = (r: Record<string, unknown>): ImportCode => ({
  id: Number(r.id),
  typ: r.typ as ImportTyp,
  name: String(r.name),
  code: String(r.code),
  version: Number(r.version),
  updatedAt: r.updated_at instanceof Date ? r.updated_at.toISOString() : String(r.updated_at),
});

/** Was this error the unique index on (mandant, typ, name)? */
export const isNameTaken = (err: unknown) => (err as { code?: string })?.code === '23505';

export const importCodeRepo = {
  async list(scope: TenantScope, typen: readonly ImportTyp[]): Promise<ImportCode[]> {
    if (!typen.length) return [];
    const rows = await scope.table('import_mappings').whereIn('typ', typen as ImportTyp[]).orderBy([{ column: 'typ' }, { column: 'name' }, { column: 'id' }]);
    return rows.map(fromRow);
  },

  async get(scope: TenantScope, id: number, lock = false): Promise<ImportCode | null> {
    const query = scope.table('import_mappings').where({ id });
    const row = await (lock ? query.forUpdate() : query).first();
    return row ? fromRow(row) : null;
  },

  async byName(scope: TenantScope, typ: ImportTyp, name: string): Promise<ImportCode | null> {
    const row = await scope.table('import_mappings').where({ typ, name }).first();
    return row ? fromRow(row) : null;
  },

  async create(scope: TenantScope, data: { typ: ImportTyp; name: string; code: string }, benutzerId: number): Promise<ImportCode> {
    const [row] = await scope.insert('import_mappings', { ...data, version: 1, updated_by: benutzerId }).returning('*');
    return fromRow(row);
  },

  /** Saves name and code as the next version; the caller checked the version on the locked row. */
  async update(scope: TenantScope, id: number, data: { name: string; code: string }, benutzerId: number): Promise<ImportCode> {
    const [row] = await scope
      .table('import_mappings')
      .where({ id })
      .update({ ...data, version: scope.knex.raw('version + 1'), updated_at: scope.knex.fn.now(), updated_by: benutzerId })
      .returning('*');
    return fromRow(row);
  },

  async remove(scope: TenantScope, id: number): Promise<void> {
    await scope.table('import_mappings').where({ id }).delete();
  },
};
