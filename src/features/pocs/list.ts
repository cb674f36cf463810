// The POCs: the Nachweisbescheinigungen a closed Bilanz issued for outbound deliveries (`bilanz_id` set), through
// the list engine: search by POC, delivery or certificate number; filters by delivery date, location, product,
// the delivery's partner and the Bilanz; sorted by delivery date; the volume in litres as the sum; exports; the
// same rows as JSON at GET /api/pocs. Read-only: a POC is made and cancelled by its Bilanz.
import type { ListDefinition } from '../../records/list/engine.js';
import { inEinheitSql } from '../../domain/units.js';
import { masterDataChoices, referenzSpalten, referenzWerte } from '../bewegungsdaten/references.js';

export interface PocZeile {
  nr: string;
  lieferdatum: string;
  ablieferungNr: string;
  partnerNr: string | null;
  partnerName: string | null;
  standortNr: string;
  standortName: string;
  produktNr: string;
  produktName: string;
  produktgruppe: string;
  nachweisNr: string;
  volumen: string;
  einheit: string;
  thgEmission: string;
  nnwEnergie: string | null;
  rohstoff: string | null;
  anbauland: string | null;
  zertifizierungssystem: string | null;
  bilanzId: number;
  zeitraumVon: string | null;
  zeitraumBis: string | null;
  storniert: boolean;
}

const T = 'b';
const href = (lang: string, resource: string, id: string | number) => `/${lang}/bewegungsdaten/${resource}/${encodeURIComponent(String(id))}`;
const text = (v: unknown) => (v == null ? null : String(v));

// What fits 1366 px beside the sidebar (German and English): number, date, delivery, partner, certificate,
// volume, E, the Bilanz and whether the POC was cancelled. Location and product are the Bilanz's own (one of
// each per Bilanz) and filters; they, the Bilanz's period, numbers beside names, the exact volume and the
// certificate's characteristics go to the exports and the API.
export const pocListe: ListDefinition<PocZeile> = {
  id: 'pocs',
  columns: [
    { key: 'nr', label: 'pocs:fields.nr', sql: `${T}.nr`, notNull: true, href: (r, lang) => href(lang, 'nachweisbescheinigungen', r.nr) },
    { key: 'lieferdatum', label: 'pocs:fields.lieferdatum', sql: `${T}.lieferdatum`, notNull: true, kind: 'date' },
    { key: 'ablieferungNr', label: 'pocs:fields.ablieferung', sql: `${T}.ablieferung_nr`, href: (r, lang) => href(lang, 'ablieferungen', r.ablieferungNr) },
    ...referenzSpalten('partner'),
    { key: 'standortNr', label: 'bewegungsdaten:fields.standortNr', csvOnly: true },
    { key: 'standortName', label: 'bewegungsdaten:fields.standortName', csvOnly: true },
    { key: 'produktNr', label: 'bewegungsdaten:fields.produktNr', csvOnly: true },
    { key: 'produktName', label: 'bewegungsdaten:fields.produktName', csvOnly: true },
    { key: 'nachweisNr', label: 'pocs:fields.nachweis', sql: `${T}.nachweis_nr`, notNull: true, href: (r, lang) => href(lang, 'nachweise', r.nachweisNr) },
    { key: 'volumen', label: 'pocs:fields.volumen', sql: `${T}.volumen`, notNull: true, kind: 'number', digits: 0, suffix: (r) => r.einheit, pageOnly: true },
    { key: 'volumen', label: 'pocs:fields.volumen', kind: 'number', digits: 3, csvOnly: true },
    { key: 'einheit', label: 'bewegungsdaten:fields.einheit', csvOnly: true },
    { key: 'thgEmission', label: 'pocs:liste.thg', sql: `${T}.thg_emission`, notNull: true, kind: 'number', digits: 2, pageOnly: true },
    { key: 'thgEmission', label: 'pocs:fields.thgEmission', kind: 'number', digits: 2, csvOnly: true },
    { key: 'bilanzId', label: 'pocs:fields.bilanz', sql: `${T}.bilanz_id`, notNull: true, href: (r, lang) => href(lang, 'bilanzen', r.bilanzId) },
    { key: 'zeitraumVon', label: 'pocs:fields.zeitraumVon', kind: 'date', csvOnly: true },
    { key: 'zeitraumBis', label: 'pocs:fields.zeitraumBis', kind: 'date', csvOnly: true },
    // Issued or cancelled: a POC has no other state (its Bilanz is closed).
    {
      key: 'status', label: 'bewegungsdaten:fields.status', pageOnly: true,
      badge: (r) => (r.storniert ? { label: 'bewegungsdaten:storniert', variant: 'error' } : { label: 'pocs:ausgestellt', variant: 'success' }),
    },
    { key: 'produktgruppe', label: 'bewegungsdaten:fields.produktgruppe', csvOnly: true, badge: (r) => ({ label: `produkte:gruppen.${r.produktgruppe}`, variant: 'info' }) },
    { key: 'rohstoff', label: 'pocs:fields.rohstoff', csvOnly: true },
    { key: 'anbauland', label: 'pocs:fields.anbauland', csvOnly: true },
    { key: 'zertifizierungssystem', label: 'pocs:fields.zertifizierungssystem', csvOnly: true },
    { key: 'nnwEnergie', label: 'pocs:fields.nnwEnergie', kind: 'number', digits: 0, csvOnly: true },
    { key: 'storniert', label: 'bewegungsdaten:fields.storniert', kind: 'boolean', csvOnly: true },
  ],
  filters: [
    { key: 'von', label: 'bewegungsdaten:filters.von', kind: 'dateFrom', sql: `${T}.lieferdatum` },
    { key: 'bis', label: 'bewegungsdaten:filters.bis', kind: 'dateTo', sql: `${T}.lieferdatum` },
    { key: 'standortNr', label: 'bewegungsdaten:fields.standort', kind: 'select', sql: `${T}.standort_nr`, options: [] },
    { key: 'produktNr', label: 'bewegungsdaten:fields.produkt', kind: 'select', sql: `${T}.produkt_nr`, options: [] },
    // The delivery's partner: the POCs of that partner's deliveries.
    {
      key: 'partnerNr', label: 'bewegungsdaten:fields.partner', kind: 'select', sql: `${T}.ablieferung_nr`, options: [],
      where: (qb, value, scope) => qb.whereIn(`${T}.ablieferung_nr`, scope.table('ablieferungen').where('partner_nr', value).select('nr')),
    },
    // The Bilanz by its number, exactly (a text filter would find Bilanz 1 in 10, 11, …).
    {
      key: 'bilanzId', label: 'pocs:fields.bilanz', kind: 'text', sql: `${T}.bilanz_id`, maxLength: 9, pattern: /^\d{1,9}$/, message: 'pocs:errors.bilanzId',
      where: (qb, value) => qb.where(`${T}.bilanz_id`, Number(value)),
    },
  ],
  search: {
    table: 'nachweisbescheinigungen', alias: T,
    words: ['nr', 'nachweis_nr', 'referenz_nachweis_nr', 'ablieferung_nr', 'kommentar'],
    references: [{ column: 'standort_nr', master: 'standorte' }, { column: 'produkt_nr', master: 'produkte' }],
  },
  defaultSort: { key: 'lieferdatum', dir: 'desc' },
  tieBreaker: `${T}.nr`,
  query: (scope) => scope.atStandorte(scope.table('nachweisbescheinigungen', T).whereNotNull(`${T}.bilanz_id`).select(`${T}.*`), `${T}.standort_nr`),
  // Names and the Bilanz's period, joined to the rows shown only (a page, an export's chunk).
  joined: {
    alias: T,
    add: (scope, qb) => {
      // The partner as the delivery saw it (its stored version); location and product as they are now.
      qb = scope.leftJoin(qb, 'ablieferungen', 'a', (j) => j.on('a.nr', `${T}.ablieferung_nr`));
      qb = scope.leftJoin(qb, 'tauschpartner_versionen', 'pv', (j) => j.on('pv.nr', 'a.partner_nr').andOn('pv.version', 'a.partner_version'));
      qb = scope.leftJoin(qb, 'standorte', 's', (j) => j.on('s.nr', `${T}.standort_nr`));
      qb = scope.leftJoin(qb, 'produkte', 'p', (j) => j.on('p.nr', `${T}.produkt_nr`));
      qb = scope.leftJoin(qb, 'bilanzen', 'bi', (j) => j.on('bi.id', `${T}.bilanz_id`));
      return qb.select('a.partner_nr', scope.knex.raw("pv.data->>'name' as partner_name"), 's.name as standort_name', 'p.name as produkt_name', 'bi.zeitraum_von', 'bi.zeitraum_bis');
    },
  },
  // The partner filter reads the deliveries: a delivery given another partner changes the count too.
  countsFollow: ['nachweisbescheinigungen', 'bilanzen', 'ablieferungen'],
  toRow: (r) => ({
    nr: String(r.nr),
    lieferdatum: String(r.lieferdatum),
    ablieferungNr: String(r.ablieferung_nr ?? ''),
    partnerNr: text(r.partner_nr),
    partnerName: text(r.partner_name ?? r.partner_nr),
    ...referenzWerte(r, 'standort'),
    ...referenzWerte(r, 'produkt'),
    produktgruppe: String(r.produktgruppe),
    nachweisNr: String(r.nachweis_nr),
    volumen: String(r.volumen),
    einheit: String(r.einheit),
    thgEmission: String(r.thg_emission),
    nnwEnergie: text(r.nnw_energie),
    rohstoff: text(r.rohstoff),
    anbauland: text(r.anbauland),
    zertifizierungssystem: text(r.zertifizierungssystem),
    bilanzId: Number(r.bilanz_id),
    zeitraumVon: text(r.zeitraum_von),
    zeitraumBis: text(r.zeitraum_bis),
    storniert: Boolean(r.storniert),
  }),
  // Cancelled POCs count in no total; kilograms are converted with the density of the product group.
  totals: [
    { key: 'summeLiter', label: 'bewegungsdaten:totals.liter', sql: `case when not ${T}.storniert then ${inEinheitSql('L', { menge: `${T}.volumen`, einheit: `${T}.einheit`, gruppe: `${T}.produktgruppe` })} end`, digits: 0 },
  ],
  choices: (scope) => masterDataChoices(scope, { activeOnly: false }),
};
