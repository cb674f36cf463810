// Standorte (locations): nr, name, address, code (licence plate), plant number (Anlage), quota-obligated.
// A user whose right covers some locations sees and changes only those.
import { z } from 'zod';
import type { TenantScope } from '../../db/scope.js';
import { VersionedStore, type Meta } from '../../db/versioned.js';
import { ADDRESS_COLUMNS, addressFields, checkbox, optionalText, requiredText } from '../../records/fields.js';
import { addressFormFields } from '../stammdaten/address.js';
import type { ListDefinition } from '../../records/list/engine.js';
import { referencedByMovementData } from '../bewegungsdaten/references.js';
import type { EntityConfig } from '../../records/entity.js';
import { statusAction } from '../../records/actions.js';

export const StandortSchema = z.object({
  name: requiredText(200),
  ...addressFields(),
  code: optionalText(20),
  anlage: optionalText(50),
  quota: checkbox(),
});
export type Standort = z.infer<typeof StandortSchema>;

export const standortStore = new VersionedStore<Standort>({
  table: 'standorte',
  fields: { name: 'name', ...ADDRESS_COLUMNS, code: 'code', anlage: 'anlage', quota: 'quota' },
});

const list: ListDefinition<Standort & Meta> = {
  id: 'standorte',
  columns: [
    { key: 'nr', label: 'records:fields.nr', sql: 's.nr', href: (r, lang) => `/${lang}/stammdaten/standorte/${encodeURIComponent(r.nr)}` },
    { key: 'name', label: 'standorte:fields.name', sql: 'lower(s.name)' },
    { key: 'plz', label: 'standorte:fields.plz', sql: 's.plz' },
    { key: 'stadt', label: 'standorte:fields.stadt', sql: 'lower(s.stadt)' },
    { key: 'strasse', label: 'standorte:fields.strasse', csvOnly: true },
    { key: 'hausNr', label: 'standorte:fields.hausNr', csvOnly: true },
    { key: 'land', label: 'standorte:fields.land', csvOnly: true },
    { key: 'code', label: 'standorte:fields.code', sql: 's.code' },
    { key: 'anlage', label: 'standorte:fields.anlage', sql: 's.anlage' },
    { key: 'quota', label: 'standorte:fields.quota', sql: 's.quota', kind: 'boolean' },
    { key: 'status', label: 'records:fields.status', sql: 's.status', badge: (r) => ({ label: `records:status.${r.status}`, variant: r.status === 'aktiv' ? 'success' : 'neutral' }) },
  ],
  filters: [
    { key: 'stadt', label: 'standorte:fields.stadt', kind: 'text', sql: 's.stadt' },
    { key: 'quota', label: 'standorte:fields.quota', kind: 'boolean', sql: 's.quota' },
    { key: 'status', label: 'records:fields.status', kind: 'select', sql: 's.status', options: [{ value: 'aktiv', label: 'records:status.aktiv' }, { value: 'inaktiv', label: 'records:status.inaktiv' }] },
  ],
  search: ['s.nr', 's.name', 's.stadt', 's.code', 's.anlage'],
  defaultSort: { key: 'nr', dir: 'asc' },
  tieBreaker: 's.nr',
  query: (scope) => scope.atStandorte(scope.table('standorte', 's').select('s.*'), 's.nr'),
  toRow: (row) => standortStore.fromRow(row),
};

async function referenced(scope: TenantScope, nr: string): Promise<boolean> {
  // Roles, users' locations, partner rules and movement data refer to a location.
  for (const [table, column] of [['rollen', 'standort_nr'], ['benutzer_standorte', 'standort_nr'], ['tauschpartner_regeln', 'standort_nr']]) {
    if (await scope.table(table).where(column, nr).first(column)) return true;
  }
  return referencedByMovementData(scope, 'standortNr', nr);
}

export const standortConfig: EntityConfig<Standort> = {
  resource: 'standorte',
  path: 'stammdaten/standorte',
  area: 'standorte',
  ns: 'standorte',
  store: standortStore,
  schema: StandortSchema,
  list,
  form: [
    { name: 'name', label: 'standorte:fields.name', kind: 'text', required: true, maxLength: 200 },
    { name: 'code', label: 'standorte:fields.code', kind: 'text', maxLength: 20, hint: 'standorte:hints.code' },
    ...addressFormFields('standorte'),
    { name: 'anlage', label: 'standorte:fields.anlage', kind: 'text', maxLength: 50, hint: 'standorte:hints.anlage' },
    { name: 'quota', label: 'standorte:fields.quota', kind: 'checkbox' },
  ],
  standortOf: (r) => r.nr,
  removable: { referenced },
  actions: [statusAction()],
};
