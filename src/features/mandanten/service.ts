// Tenant management (system administrators only): list, create, edit, activate/deactivate, the tenant's users.
// An inactive tenant drops out of every user's tenant list at once (src/auth/current-user.ts), so it can no
// longer be chosen; its data stays.
import type { Knex } from 'knex';
import { audit } from '../../db/audit.js';
import { HttpError } from '../../http/errors.js';
import { platformSource, type ListDefinition, type ListSource } from '../../records/list/engine.js';
import { isSystemAdmin } from '../../permissions/index.js';
import type { RequestActor } from '../../http/tenant.js';
import type { MandantInput } from './schema.js';

export interface MandantRow {
  mandant: string;
  name: string;
  email: string | null;
  strasse: string | null;
  hausNr: string | null;
  plz: string | null;
  stadt: string | null;
  land: string | null;
  status: 'active' | 'inactive';
  zertifizierungsnummer: string | null;
  benutzer: number;
}

const notFound = () => new HttpError(404, 'NOT_FOUND', 'errors.mandantNotFound');

function toRow(r: Record<string, unknown>): MandantRow {
  return {
    mandant: r.mandant as string, name: r.name as string, email: r.email as string | null, strasse: r.strasse as string | null,
    hausNr: r.haus_nr as string | null, plz: r.plz as string | null, stadt: r.stadt as string | null, land: r.land as string | null,
    status: r.status as MandantRow['status'], zertifizierungsnummer: r.zertifizierungsnummer as string | null, benutzer: Number(r.benutzer ?? 0),
  };
}

/** Every tenant with its number of users. */
function tenants(knex: Knex) {
  return knex('mandanten as m').select('m.*', knex.raw('(select count(*) from benutzer_mandanten bm where bm.mandant = m.mandant) as benutzer'));
}

/** The tenant list (tenant management page and /api/mandanten), system administrators only (MandantenService.listSource). */
export const mandantList: ListDefinition<MandantRow, ListSource> = {
  id: 'mandanten',
  columns: [
    { key: 'mandant', label: 'mandanten:fields.mandant', sql: 'm.mandant', notNull: true },
    { key: 'name', label: 'mandanten:fields.name', sql: 'm.name' },
    { key: 'stadt', label: 'mandanten:fields.stadt', sql: 'm.stadt' },
    { key: 'zertifizierungsnummer', label: 'mandanten:fields.zertifizierungsnummer', sql: 'm.zertifizierungsnummer' },
    { key: 'benutzer', label: 'mandanten:fields.benutzer', kind: 'number' },
    { key: 'status', label: 'mandanten:fields.status', sql: 'm.status' },
  ],
  filters: [],
  search: ['m.mandant', 'm.name', 'm.stadt', 'm.zertifizierungsnummer'],
  defaultSort: { key: 'mandant', dir: 'asc' },
  tieBreaker: 'm.mandant',
  query: (source) => tenants(source.knex),
  countAll: true,
  toRow,
};

const columns = (input: MandantInput) => ({
  name: input.name, email: input.email, strasse: input.strasse, haus_nr: input.hausNr, plz: input.plz, stadt: input.stadt,
  land: input.land, zertifizierungsnummer: input.zertifizierungsnummer,
});

export class MandantenService {
  constructor(private readonly knex: Knex) {}

  private requireSystemAdmin(a: RequestActor) {
    if (!isSystemAdmin(a.principal)) throw new HttpError(403, 'FORBIDDEN', 'errors.forbidden');
  }

  private query() {
    return tenants(this.knex);
  }

  /** Where the tenant list reads (mandantList): all tenants, for system administrators only. */
  listSource(a: RequestActor): ListSource {
    this.requireSystemAdmin(a);
    return platformSource(this.knex);
  }

  async get(a: RequestActor, mandant: string): Promise<MandantRow> {
    this.requireSystemAdmin(a);
    const row = await this.query().where('m.mandant', mandant).first();
    if (!row) throw notFound();
    return toRow(row);
  }

  async create(a: RequestActor, input: MandantInput & { mandant: string }): Promise<MandantRow> {
    this.requireSystemAdmin(a);
    if (await this.knex('mandanten').where({ mandant: input.mandant }).first('mandant')) {
      throw new HttpError(400, 'VALIDATION', 'errors.badRequest', [{ field: 'mandant', message: 'mandanten:errors.idTaken' }]);
    }
    await this.knex.transaction(async (trx) => {
      await trx('mandanten').insert({ mandant: input.mandant, status: 'active', ...columns(input) });
      // The creating system administrator becomes a member, so they can work in the new tenant at once.
      await trx('benutzer_mandanten').insert({ mandant: input.mandant, benutzer_id: a.user.id, admin_kz: false });
    });
    const created = await this.get(a, input.mandant);
    await audit(this.knex, { kind: 'admin.mandant.create', mandant: input.mandant, benutzerId: a.user.id, entity: 'mandant', entityId: input.mandant, after: created, ip: a.ip });
    return created;
  }

  async update(a: RequestActor, mandant: string, input: MandantInput): Promise<MandantRow> {
    const before = await this.get(a, mandant);
    await this.knex('mandanten').where({ mandant }).update({ ...columns(input), updated_at: this.knex.fn.now() });
    const after = await this.get(a, mandant);
    await audit(this.knex, { kind: 'admin.mandant.update', mandant, benutzerId: a.user.id, entity: 'mandant', entityId: mandant, before, after, ip: a.ip });
    return after;
  }

  async setStatus(a: RequestActor, mandant: string, status: 'active' | 'inactive'): Promise<MandantRow> {
    const before = await this.get(a, mandant);
    if (status === 'inactive' && mandant === a.mandant) throw new HttpError(409, 'CONFLICT', 'mandanten:errors.deactivateCurrent');
    await this.knex('mandanten').where({ mandant }).update({ status, updated_at: this.knex.fn.now() });
    await audit(this.knex, { kind: `admin.mandant.${status === 'active' ? 'activate' : 'deactivate'}`, mandant, benutzerId: a.user.id, entity: 'mandant', entityId: mandant, before: { status: before.status }, after: { status }, ip: a.ip });
    return { ...before, status };
  }

  async users(a: RequestActor, mandant: string) {
    await this.get(a, mandant);
    return this.knex('benutzer_mandanten as bm')
      .join('benutzer as b', 'b.id', 'bm.benutzer_id')
      .where('bm.mandant', mandant)
      .orderBy('b.login')
      .select('b.id', 'b.login', 'b.vorname', 'b.nachname', 'b.email', 'b.status', 'b.admin_kz as adminKz', 'bm.admin_kz as tenantAdminKz');
  }
}
