// Bestände (stock): the volume of one product at one location on one day, with the tank's fill level. The
// number comes from the tenant's number range (the spec addresses a stock figure by id); there is one figure per location, product
// and day: a second one for the same day is refused with a link to the existing one (docs/decisions.md).
// Stock figures are corrected by editing them; they are not cancelled or deleted.
import { z } from 'zod';
import { nextNumber } from '../../db/numbers.js';
import type { TenantScope } from '../../db/scope.js';
import { VersionedStore, type Meta } from '../../db/versioned.js';
import { HttpError, type FieldError } from '../../http/errors.js';
import { date, decimal, requiredText } from '../../records/fields.js';
import type { ListDefinition } from '../../records/list/engine.js';
import type { EntityConfig } from '../../records/entity.js';
import { MAX_MENGE } from '../lieferungen/lieferung.js';
import { choicesOf, masterDataChoices, resolveNew, type ReferenceField } from '../bewegungsdaten/references.js';

const BestandSchema = z.object({
  datum: date({ required: true }),
  standortNr: requiredText(32),
  produktNr: requiredText(32),
  volumen: decimal({ min: 0, max: MAX_MENGE, scale: 3, required: true }),
  fuellstand: decimal({ min: 0, max: 100, scale: 2 }),
});
export type Bestand = z.infer<typeof BestandSchema>;

export const bestandStore = new VersionedStore<Bestand>({
  table: 'bestaende',
  managedStatus: false,
  fields: { datum: 'datum', standortNr: 'standort_nr', produktNr: 'produkt_nr', volumen: 'volumen', fuellstand: 'fuellstand' },
});

/** Location and product must exist (new ones active); one figure per location, product and day. */
async function prepare(scope: TenantScope, input: Bestand, before: (Bestand & Meta) | null): Promise<Bestand> {
  const errors: FieldError[] = [];
  for (const field of ['standortNr', 'produktNr'] as ReferenceField[]) {
    const nr = input[field as keyof Bestand] as string;
    if (before && before[field as keyof Bestand] === nr) continue;
    await resolveNew(scope, field, nr, errors);
  }
  const same = await scope.table('bestaende').where({ standort_nr: input.standortNr, produkt_nr: input.produktNr, datum: input.datum })
    .modify((q) => (before ? q.whereNot('nr', before.nr) : q)).first('nr');
  if (same) errors.push({ field: 'datum', message: 'bestaende:errors.duplicate', params: { nr: same.nr } });
  if (errors.length) throw new HttpError(400, 'VALIDATION', 'errors.badRequest', errors);
  return input;
}

const list: ListDefinition<Bestand & Meta> = {
  id: 'bestaende',
  columns: [
    { key: 'nr', label: 'bestaende:fields.nr', sql: 'b.nr', notNull: true, href: (r, lang) => `/${lang}/bewegungsdaten/bestaende/${encodeURIComponent(r.nr)}` },
    { key: 'datum', label: 'bestaende:fields.datum', sql: 'b.datum', notNull: true, kind: 'date' },
    { key: 'standort', label: 'bewegungsdaten:fields.standort', sql: 'b.standort_nr', notNull: true },
    { key: 'produkt', label: 'bewegungsdaten:fields.produkt', sql: 'b.produkt_nr', notNull: true },
    { key: 'volumen', label: 'bestaende:fields.volumen', sql: 'b.volumen', notNull: true, kind: 'number', digits: 0, pageOnly: true },
    { key: 'volumenExakt', label: 'bestaende:fields.volumen', kind: 'number', digits: 3, csvOnly: true },
    { key: 'fuellstand', label: 'bestaende:fields.fuellstand', sql: 'b.fuellstand', kind: 'number', digits: 1 },
  ],
  filters: [
    { key: 'von', label: 'bewegungsdaten:filters.von', kind: 'dateFrom', sql: 'b.datum' },
    { key: 'bis', label: 'bewegungsdaten:filters.bis', kind: 'dateTo', sql: 'b.datum' },
    { key: 'standortNr', label: 'bewegungsdaten:fields.standort', kind: 'select', sql: 'b.standort_nr', options: [] },
    { key: 'produktNr', label: 'bewegungsdaten:fields.produkt', kind: 'select', sql: 'b.produkt_nr', options: [] },
  ],
  search: { table: 'bestaende', alias: 'b', words: ['nr'], references: [{ column: 'standort_nr', master: 'standorte' }, { column: 'produkt_nr', master: 'produkte' }] },
  defaultSort: { key: 'datum', dir: 'desc' },
  tieBreaker: 'b.nr',
  query: (scope) => scope.atStandorte(scope.table('bestaende', 'b').select('b.*'), 'b.standort_nr'),
  // Names of location and product, joined to the page's rows only.
  joined: {
    alias: 'b',
    add: (scope, qb) =>
      scope
        .leftJoin(scope.leftJoin(qb, 'standorte', 's', (j) => j.on('s.nr', 'b.standort_nr')), 'produkte', 'p', (j) => j.on('p.nr', 'b.produkt_nr'))
        .select('s.name as standort_name', 'p.name as produkt_name'),
  },
  countsFollow: 'bestaende',
  toRow: (row) => {
    const b = bestandStore.fromRow(row);
    return { ...b, volumenExakt: b.volumen, standort: `${b.standortNr} · ${row.standort_name ?? ''}`, produkt: `${b.produktNr} · ${row.produkt_name ?? ''}` };
  },
  choices: async (scope) => {
    const { standortNr, produktNr } = await masterDataChoices(scope, { activeOnly: false });
    return { standortNr, produktNr };
  },
};

export const bestandConfig: EntityConfig<Bestand> = {
  resource: 'bestaende',
  path: 'bewegungsdaten/bestaende',
  // Pushed by tank systems (issue 19): POST /api/bestaende/bulk.
  bulk: true,
  area: 'bestaende',
  ns: 'bestaende',
  store: bestandStore,
  schema: BestandSchema,
  list,
  form: [
    { name: 'datum', label: 'bestaende:fields.datum', kind: 'date', required: true },
    { name: 'standortNr', label: 'bewegungsdaten:fields.standort', kind: 'select', required: true, choices: choicesOf('standortNr') },
    { name: 'produktNr', label: 'bewegungsdaten:fields.produkt', kind: 'select', required: true, choices: choicesOf('produktNr') },
    { name: 'volumen', label: 'bestaende:fields.volumen', kind: 'decimal', required: true, hint: 'bestaende:hints.volumen' },
    { name: 'fuellstand', label: 'bestaende:fields.fuellstand', kind: 'decimal', hint: 'bestaende:hints.fuellstand' },
  ],
  createPath: 'create',
  generateNr: (scope) => nextNumber(scope, 'bestaende'),
  standortOf: (r) => r.standortNr ?? null,
  locatedBy: 'standortNr',
  prepare,
  badge: () => null,
  // Section 3 lists a stock figure as "id, datum, standort, produkt, volumen, fuellstand, mandant": on the API its
  // id is its number (from the tenant's range, as `nr`) and `mandant` its tenant (docs/decisions.md).
  api: { present: (b, mandant) => ({ id: b.nr, mandant }), fields: { id: z.string(), mandant: z.string() } },
};
