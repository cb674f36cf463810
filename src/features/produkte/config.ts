// Produkte: number, name, bio content, lower calorific value (LCV) with its unit, description, product group,
// product type and comment. Products are not bound to a location. An empty LCV takes the reference value of
// the product group in the chosen unit (RED II Annex III, src/domain/fuels.ts); a stored LCV more than 10 %
// away from it earns a warning on the detail page.
import { z } from 'zod';
import type { TenantScope } from '../../db/scope.js';
import { VersionedStore, type Meta } from '../../db/versioned.js';
import {
  LCV_EINHEITEN, PRODUKTGRUPPEN, REFERENZWERTE, isLcvEinheit, isProduktgruppe, lcvAbweichung, lcvAusserhalbToleranz, referenzLcv,
} from '../../domain/fuels.js';
import { choice, decimal, optionalText, requiredText } from '../../records/fields.js';
import type { ListDefinition } from '../../records/list/engine.js';
import { referencedByMovementData } from '../bewegungsdaten/references.js';
import type { EntityConfig } from '../../records/entity.js';
import { statusAction } from '../../records/actions.js';

const ProduktFields = z.object({
  name: requiredText(200),
  produktgruppe: choice(PRODUKTGRUPPEN),
  produkttyp: optionalText(100),
  biogehalt: decimal({ min: 0, max: 100, scale: 4, required: true }),
  // Greater than 0: the smallest positive value at the column's scale of 4.
  lcv: decimal({ min: 0.0001, max: 1000, scale: 4 }),
  lcvEinheit: choice(LCV_EINHEITEN),
  beschreibung: optionalText(2000),
  kommentar: optionalText(2000),
});
export type Produkt = z.infer<typeof ProduktFields>;

/** Form and API input; an empty LCV becomes the group's reference value in the chosen unit. */
export const ProduktSchema = ProduktFields.transform((p) => ({
  ...p,
  lcv: p.lcv ?? String(referenzLcv(p.produktgruppe, p.lcvEinheit)),
}));

export const produktStore = new VersionedStore<Produkt>({
  table: 'produkte',
  fields: {
    name: 'name', produktgruppe: 'produktgruppe', produkttyp: 'produkttyp', biogehalt: 'biogehalt', lcv: 'lcv', lcvEinheit: 'lcv_einheit',
    beschreibung: 'beschreibung', kommentar: 'kommentar',
  },
});

const gruppenOptions = PRODUKTGRUPPEN.map((g) => ({ value: g, label: `produkte:gruppen.${g}` }));

const list: ListDefinition<Produkt & Meta> = {
  id: 'produkte',
  columns: [
    { key: 'nr', label: 'records:fields.nr', sql: 'p.nr', notNull: true, href: (r, lang) => `/${lang}/stammdaten/produkte/${encodeURIComponent(r.nr)}` },
    { key: 'name', label: 'produkte:fields.name', sql: 'lower(p.name)', notNull: true },
    { key: 'produktgruppe', label: 'produkte:fields.produktgruppe', sql: 'p.produktgruppe', notNull: true, badge: (r) => ({ label: `produkte:gruppen.${r.produktgruppe}`, variant: 'info' }) },
    // Left out of the page table so it fits beside the sidebar; filter and CSV keep it.
    { key: 'produkttyp', label: 'produkte:fields.produkttyp', sql: 'lower(p.produkttyp)', csvOnly: true },
    { key: 'biogehalt', label: 'produkte:fields.biogehaltProzent', sql: 'p.biogehalt', kind: 'number', digits: 2 },
    { key: 'lcv', label: 'produkte:fields.lcv', sql: 'p.lcv', kind: 'number', digits: 2 },
    { key: 'lcvEinheit', label: 'produkte:fields.einheit', sql: 'p.lcv_einheit' },
    { key: 'beschreibung', label: 'produkte:fields.beschreibung', csvOnly: true },
    { key: 'kommentar', label: 'produkte:fields.kommentar', csvOnly: true },
    { key: 'status', label: 'records:fields.status', sql: 'p.status', badge: (r) => ({ label: `records:status.${r.status}`, variant: r.status === 'aktiv' ? 'success' : 'neutral' }) },
  ],
  filters: [
    { key: 'produktgruppe', label: 'produkte:fields.produktgruppe', kind: 'select', sql: 'p.produktgruppe', options: gruppenOptions },
    { key: 'produkttyp', label: 'produkte:fields.produkttyp', kind: 'text', sql: 'p.produkttyp' },
    { key: 'status', label: 'records:fields.status', kind: 'select', sql: 'p.status', options: [{ value: 'aktiv', label: 'records:status.aktiv' }, { value: 'inaktiv', label: 'records:status.inaktiv' }] },
  ],
  search: ['p.nr', 'p.name', 'p.produkttyp', 'p.beschreibung'],
  defaultSort: { key: 'nr', dir: 'asc' },
  tieBreaker: 'p.nr',
  query: (scope) => scope.table('produkte', 'p').select('p.*'),
  toRow: (row) => produktStore.fromRow(row),
};

/** Movement data refers to products (certificates will too). */
const referenced = (scope: TenantScope, nr: string) => referencedByMovementData(scope, 'produktNr', nr);

/** A stored LCV more than 10 % away from its group's reference in the same unit: say so, with both values. */
function warnings(p: Produkt) {
  if (p.lcv == null || !isProduktgruppe(p.produktgruppe) || !isLcvEinheit(p.lcvEinheit)) return [];
  if (!lcvAusserhalbToleranz(p.lcv, p.produktgruppe, p.lcvEinheit)) return [];
  const abweichung = lcvAbweichung(p.lcv, p.produktgruppe, p.lcvEinheit);
  return [{
    field: 'lcv',
    message: abweichung > 0 ? 'produkte:warnings.lcvAbove' : 'produkte:warnings.lcvBelow',
    params: {
      lcv: Number(p.lcv), referenz: referenzLcv(p.produktgruppe, p.lcvEinheit), einheit: p.lcvEinheit, gruppe: p.produktgruppe,
      prozent: Math.abs(abweichung) * 100,
    },
  }];
}

export const produktConfig: EntityConfig<Produkt> = {
  resource: 'produkte',
  path: 'stammdaten/produkte',
  area: 'produkte',
  ns: 'produkte',
  store: produktStore,
  schema: ProduktSchema,
  list,
  form: [
    { name: 'name', label: 'produkte:fields.name', kind: 'text', required: true, maxLength: 200 },
    { name: 'produktgruppe', label: 'produkte:fields.produktgruppe', kind: 'select', required: true, options: gruppenOptions },
    { name: 'produkttyp', label: 'produkte:fields.produkttyp', kind: 'text', maxLength: 100, hint: 'produkte:hints.produkttyp' },
    { name: 'biogehalt', label: 'produkte:fields.biogehaltProzent', kind: 'decimal', required: true, hint: 'produkte:hints.biogehalt' },
    { name: 'lcv', label: 'produkte:fields.lcv', kind: 'decimal', hint: 'produkte:hints.lcv' },
    { name: 'lcvEinheit', label: 'produkte:fields.lcvEinheit', kind: 'select', required: true, options: LCV_EINHEITEN.map((u) => ({ value: u, label: `produkte:einheiten.${u}` })) },
    { name: 'beschreibung', label: 'produkte:fields.beschreibung', kind: 'textarea', maxLength: 2000 },
    { name: 'kommentar', label: 'produkte:fields.kommentar', kind: 'textarea', maxLength: 2000 },
  ],
  removable: { referenced },
  actions: [statusAction()],
  warnings,
  // The group is chosen in the same form, so its reference LCV cannot be filled in beforehand without
  // JavaScript: an empty LCV is replaced by it on saving (ProduktSchema), as the field's hint says.
  defaults: { lcvEinheit: 'MJ/L' },
  // The reference values next to the form, so the user sees what an empty LCV becomes.
  detailLocals: async () => ({ extraSection: '../produkte/referenzwerte', referenzwerte: PRODUKTGRUPPEN.map((g) => ({ gruppe: g, ...REFERENZWERTE[g] })) }),
};
