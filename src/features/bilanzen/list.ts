// The Bilanzen list (page and GET /api/bilanzen) through the list engine: period, location, product, status and
// the figures of the last allocation; filters by location, product, status and period; the user's locations only.
import type { ListDefinition } from '../../records/list/engine.js';
import { masterDataChoices, referenzSpalten, referenzWerte } from '../bewegungsdaten/references.js';
import { knapp, type BilanzStatus } from './repo.js';
import { prozent } from './detail.js';

export interface BilanzZeile {
  id: number;
  standortNr: string;
  standortName: string;
  produktNr: string;
  produktName: string;
  zeitraumVon: string;
  zeitraumBis: string;
  status: BilanzStatus;
  verteilt: boolean;
  einheit: string;
  mengeGesamt: string | null;
  bioMenge: string | null;
  zugeordnet: string | null;
  restBioMenge: string | null;
  biogehalt: string | null;
  thgMinderungT: string | null;
}

const B = 'b';
export const STATUS: BilanzStatus[] = ['offen', 'geschlossen'];
export const bilanzHref = (lang: string, id: number) => `/${lang}/bewegungsdaten/bilanzen/${id}`;

export const bilanzListe: ListDefinition<BilanzZeile> = {
  id: 'bilanzen',
  columns: [
    { key: 'id', label: 'bilanzen:fields.id', sql: `${B}.id`, notNull: true, kind: 'number', href: (r, lang) => bilanzHref(lang, r.id) },
    { key: 'zeitraumVon', label: 'bilanzen:fields.zeitraumVon', sql: `${B}.zeitraum_von`, notNull: true, kind: 'date' },
    { key: 'zeitraumBis', label: 'bilanzen:fields.zeitraumBis', sql: `${B}.zeitraum_bis`, notNull: true, kind: 'date' },
    ...referenzSpalten('standort'),
    ...referenzSpalten('produkt'),
    { key: 'mengeGesamt', label: 'bilanzen:fields.mengeGesamt', sql: `${B}.menge_gesamt`, kind: 'number', digits: 0, suffix: (r) => r.einheit },
    { key: 'zugeordnet', label: 'bilanzen:fields.zugeordnet', sql: `${B}.zugeordnet`, kind: 'number', digits: 0, suffix: (r) => r.einheit },
    { key: 'restBioMenge', label: 'bilanzen:fields.restBioMenge', sql: `${B}.rest_bio_menge`, kind: 'number', digits: 0, suffix: (r) => r.einheit },
    { key: 'biogehalt', label: 'bilanzen:fields.biogehalt', kind: 'number', digits: 2, csvOnly: true },
    { key: 'bioMenge', label: 'bilanzen:fields.bioMenge', kind: 'number', digits: 3, csvOnly: true },
    { key: 'thgMinderungT', label: 'bilanzen:fields.thgMinderungT', kind: 'number', digits: 4, csvOnly: true },
    {
      key: 'status', label: 'bilanzen:fields.status', sql: `${B}.status`, notNull: true,
      badge: (r) => ({ label: `bilanzen:status.${r.status}`, variant: r.status === 'offen' ? 'info' : 'success' }),
      alsoBadge: (r) => (r.status === 'offen' && !r.verteilt ? { label: 'bilanzen:nichtVerteilt', variant: 'warning' } : null),
    },
  ],
  filters: [
    { key: 'standortNr', label: 'bewegungsdaten:fields.standort', kind: 'select', sql: `${B}.standort_nr`, options: [] },
    { key: 'produktNr', label: 'bewegungsdaten:fields.produkt', kind: 'select', sql: `${B}.produkt_nr`, options: [] },
    { key: 'status', label: 'bilanzen:fields.status', kind: 'select', sql: `${B}.status`, options: STATUS.map((s) => ({ value: s, label: `bilanzen:status.${s}` })) },
    // A period from … to: the Bilanzen whose period meets it (one range, so `sql` names the same column for both).
    { key: 'von', label: 'bewegungsdaten:filters.von', kind: 'dateFrom', sql: `${B}.zeitraum_von`, where: (qb, v) => void qb.where(`${B}.zeitraum_bis`, '>=', v) },
    { key: 'bis', label: 'bewegungsdaten:filters.bis', kind: 'dateTo', sql: `${B}.zeitraum_von`, where: (qb, v) => void qb.where(`${B}.zeitraum_von`, '<=', v) },
  ],
  search: { table: 'bilanzen', alias: B, key: 'id', words: [], references: [{ column: 'standort_nr', master: 'standorte' }, { column: 'produkt_nr', master: 'produkte' }] },
  defaultSort: { key: 'zeitraumVon', dir: 'desc' },
  tieBreaker: `${B}.id`,
  query: (scope) => scope.atStandorte(scope.table('bilanzen', B), `${B}.standort_nr`).select(`${B}.*`),
  joined: {
    alias: B,
    add: (scope, qb) => scope.leftJoin(scope.leftJoin(qb, 'standorte', 's', (j) => j.on('s.nr', `${B}.standort_nr`)), 'produkte', 'p', (j) => j.on('p.nr', `${B}.produkt_nr`))
      .select('s.name as standort_name', 'p.name as produkt_name'),
  },
  countsFollow: 'bilanzen',
  toRow: (r) => ({
    id: Number(r.id),
    ...referenzWerte(r, 'standort'),
    ...referenzWerte(r, 'produkt'),
    zeitraumVon: String(r.zeitraum_von),
    zeitraumBis: String(r.zeitraum_bis),
    status: r.status as BilanzStatus,
    verteilt: r.verteilt_am != null,
    einheit: String(r.einheit),
    mengeGesamt: knapp(r.menge_gesamt),
    bioMenge: knapp(r.bio_menge),
    zugeordnet: knapp(r.zugeordnet),
    restBioMenge: knapp(r.rest_bio_menge),
    biogehalt: prozent(knapp(r.zugeordnet), knapp(r.menge_gesamt)),
    thgMinderungT: r.thg_minderung_t == null ? null : String(Number(r.thg_minderung_t)),
  }),
  choices: async (scope) => {
    const c = await masterDataChoices(scope, { activeOnly: false });
    return { standortNr: c.standortNr, produktNr: c.produktNr };
  },
};
