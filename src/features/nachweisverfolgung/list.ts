// The deliveries to trace: Ablieferungen and Einlieferungen in one list (a union of both tables, each limited
// to the tenant and the user's locations), through the list engine: search by number, filter by kind, date
// range and location, sort, paging, exports, and the same rows as JSON at GET /api/nachweisverfolgung.
import type { Meta } from '../../db/versioned.js';
import type { ListDefinition } from '../../records/list/engine.js';
import { masterDataChoices, referenzSpalten, referenzWerte } from '../bewegungsdaten/references.js';
import type { Lieferstatus } from '../lieferungen/names.js';
import { ARTEN, mitNamen, TABELLE, type Art } from './repo.js';

export interface VerfolgungZeile {
  art: Art;
  nr: string;
  datum: string;
  partnerNr: string;
  partnerName: string;
  standortNr: string;
  standortName: string;
  produktNr: string;
  produktName: string;
  produktgruppe: string;
  menge: string;
  einheit: string;
  biogehalt: string | null;
  status: Lieferstatus;
  storniert: boolean;
}

const L = 'l';
const SPALTEN = [
  'nr', 'datum', 'partner_nr', 'partner_version', 'standort_nr', 'standort_version', 'produkt_nr', 'produkt_version',
  'produktgruppe', 'menge', 'einheit', 'biogehalt', 'status', 'storniert',
];

/** The trace of a delivery (the detail page): its kind in the address, since numbers of both kinds may coincide. */
export const verfolgungHref = (lang: string, art: Art, nr: string) => `/${lang}/bewegungsdaten/nachweisverfolgung/${encodeURIComponent(nr)}?art=${art}`;

export const verfolgungListe: ListDefinition<VerfolgungZeile & Partial<Meta>> = {
  id: 'nachweisverfolgung',
  columns: [
    { key: 'art', label: 'nachweisverfolgung:fields.art', sql: `${L}.art`, notNull: true, badge: (r) => ({ label: `nachweisverfolgung:arten.${r.art}`, variant: r.art === 'ablieferung' ? 'info' : 'neutral' }) },
    { key: 'nr', label: 'records:fields.nr', sql: `${L}.nr`, notNull: true, href: (r, lang) => verfolgungHref(lang, r.art, r.nr) },
    { key: 'datum', label: 'nachweisverfolgung:fields.datum', sql: `${L}.datum`, notNull: true, kind: 'date' },
    ...referenzSpalten('partner'),
    ...referenzSpalten('standort'),
    ...referenzSpalten('produkt'),
    { key: 'menge', label: 'nachweisverfolgung:fields.menge', sql: `${L}.menge`, notNull: true, kind: 'number', digits: 0, suffix: (r) => r.einheit, pageOnly: true },
    { key: 'mengeExakt', label: 'nachweisverfolgung:fields.menge', kind: 'number', digits: 3, csvOnly: true },
    { key: 'einheit', label: 'bewegungsdaten:fields.einheit', csvOnly: true },
    {
      key: 'status', label: 'bewegungsdaten:fields.status', sql: `${L}.status`, notNull: true,
      badge: (r) => (r.storniert ? { label: 'bewegungsdaten:storniert', variant: 'error' } : { label: `bewegungsdaten:status.${r.status}`, variant: 'neutral' }),
    },
  ],
  filters: [
    { key: 'art', label: 'nachweisverfolgung:fields.art', kind: 'select', sql: `${L}.art`, options: ARTEN.map((a) => ({ value: a, label: `nachweisverfolgung:arten.${a}` })) },
    { key: 'von', label: 'bewegungsdaten:filters.von', kind: 'dateFrom', sql: `${L}.datum` },
    { key: 'bis', label: 'bewegungsdaten:filters.bis', kind: 'dateTo', sql: `${L}.datum` },
    { key: 'standortNr', label: 'bewegungsdaten:fields.standort', kind: 'select', sql: `${L}.standort_nr`, options: [] },
  ],
  search: [`${L}.nr`],
  defaultSort: { key: 'datum', dir: 'desc' },
  // Numbers are unique per kind, not across both.
  tieBreaker: `${L}.nr || '|' || ${L}.art`,
  query: (scope) => {
    const teil = (art: Art) => scope.atStandorte(
      scope.table(TABELLE[art], 'd').select(scope.knex.raw('?::text as art', [art]), ...SPALTEN.map((c) => `d.${c}`)),
      'd.standort_nr',
    );
    return scope.scoped(scope.knex.from(teil('ablieferung').unionAll(teil('einlieferung'), true).as(L)).select(`${L}.*`));
  },
  // Names as the delivery saw them, joined to the page's rows only.
  joined: { alias: L, add: (scope, qb) => mitNamen(scope, qb, L) },
  countsFollow: ['ablieferungen', 'einlieferungen'],
  toRow: (r) => ({
    art: r.art as Art,
    nr: String(r.nr),
    datum: String(r.datum),
    ...referenzWerte(r, 'partner'),
    ...referenzWerte(r, 'standort'),
    ...referenzWerte(r, 'produkt'),
    produktgruppe: String(r.produktgruppe),
    menge: String(r.menge),
    mengeExakt: String(r.menge),
    einheit: String(r.einheit),
    biogehalt: r.biogehalt == null ? null : String(r.biogehalt),
    status: r.status as Lieferstatus,
    storniert: Boolean(r.storniert),
  }),
  choices: async (scope) => ({ standortNr: (await masterDataChoices(scope, { activeOnly: false })).standortNr }),
};
