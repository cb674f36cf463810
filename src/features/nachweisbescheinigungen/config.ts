// Nachweisbescheinigungen: proofs for delivered quantities held by the tenant (a received proof, a part split
// off, later the PoCs a closed Bilanz issues). Each is made from a certificate (Nachweis): its volume is taken
// from the certificate's rest in the same transaction, and it carries the certificate's characteristics (E,
// raw material, country, scheme), copied when it is made, so they stay with its quantity.
//
// Volume and certificate are fixed once made: a wrong proof is cancelled (its volume returns to the
// certificate) while nothing of it is used, and made again. It can be split like a certificate (teilung.ts).
// Its detail page has the spec's tabs allgemein, einlieferungen, abholungen and ablieferungen; the last three
// show the deliveries and collections linked to the proof through the chain of custody.
import { z } from 'zod';
import { nextNumber } from '../../db/numbers.js';
import type { TenantScope } from '../../db/scope.js';
import { VersionedStore, type Meta } from '../../db/versioned.js';
import { PRODUKTGRUPPEN } from '../../domain/fuels.js';
import { energie } from '../../domain/ghg.js';
import { ROHSTOFFE } from '../../domain/rohstoffe.js';
import { invalid, type FieldError } from '../../errors.js';
import { date, decimal, optionalText } from '../../records/fields.js';
import type { EntityConfig, FormField, RecordSection } from '../../records/entity.js';
import type { ChoiceOptions, ListDefinition } from '../../records/list/engine.js';
import { masterDataChoices } from '../bewegungsdaten/references.js';
import { MAX_MENGE } from '../lieferungen/lieferung.js';
import { nachweisStore, type Nachweis } from '../nachweise/nachweis.js';
import { verknuepfungenDerBescheinigung, type VerknuepfungArt } from '../nachweisverfolgung/verknuepfungen.js';
import { mengeAusMilli, mengeMilli, teilbar } from '../nachweise/teilung.js';

const NbSchema = z.object({
  nachweisNr: z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').max(32, 'validation.tooLong'),
  volumen: decimal({ min: 0.001, max: MAX_MENGE, scale: 3, required: true }),
  lieferdatum: date({ required: true }),
  kommentar: optionalText(2000),
});

/** Copied from the certificate when the proof is made (read-only in the API). */
interface NbMerkmale {
  volumenVerbleibend: string;
  einheit: string;
  standortNr: string;
  produktNr: string;
  produktgruppe: string;
  thgEmission: string | null;
  nnwAnteil: string | null;
  nnwEnergie: string | null;
  rohstoff: string | null;
  anbauland: string | null;
  biomasseArt: string | null;
  biomasseCode: string | null;
  attributAnnexIx: boolean;
  zertifizierungssystem: string | null;
  nnwProduktNr: string | null;
  nnwProduktName: string | null;
  referenzNachweisNr: string | null;
  /** The outbound delivery the proof was issued for (an assignment, features/zuordnung), or null. */
  ablieferungNr: string | null;
  /** The Bilanz whose closing issued it (a POC, features/bilanzen), or null. */
  bilanzId?: number | null;
  storniert: boolean;
}

export type Nachweisbescheinigung = z.infer<typeof NbSchema> & Partial<NbMerkmale>;

const FIELDS = [
  'nachweisNr', 'volumen', 'lieferdatum', 'kommentar', 'volumenVerbleibend', 'einheit', 'standortNr', 'produktNr', 'produktgruppe', 'thgEmission',
  'nnwAnteil', 'nnwEnergie', 'rohstoff', 'anbauland', 'biomasseArt', 'biomasseCode', 'attributAnnexIx', 'zertifizierungssystem', 'nnwProduktNr',
  'nnwProduktName', 'referenzNachweisNr', 'ablieferungNr', 'bilanzId', 'storniert',
];
const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export const nbStore = new VersionedStore<Nachweisbescheinigung>({
  table: 'nachweisbescheinigungen',
  managedStatus: false,
  fields: Object.fromEntries(FIELDS.map((f) => [f, snake(f)])) as VersionedStore<Nachweisbescheinigung>['spec']['fields'],
});

/** Raw materials of Annex IX (wastes and residues) carry the attribute. */
const ANNEX_IX = new Set(ROHSTOFFE.filter((r) => r.art !== 'anbau').map((r) => r.code));

/** The certificate's characteristics as a proof of `volumen` carries them. */
export function merkmaleAus(n: Nachweis & Meta, volumen: string, produktName: string | null): Omit<NbMerkmale, 'referenzNachweisNr' | 'ablieferungNr' | 'storniert'> {
  return {
    volumenVerbleibend: volumen,
    einheit: n.einheit,
    standortNr: n.standortNr,
    produktNr: n.produktNr,
    produktgruppe: String(n.produktgruppe),
    thgEmission: n.thg == null ? null : String(n.thg),
    nnwAnteil: n.biogehalt == null ? '100' : String(n.biogehalt),
    nnwEnergie: n.lcv == null ? null : energie(volumen, String(n.lcv), n.biogehalt == null ? null : String(n.biogehalt)),
    rohstoff: n.rohstoff,
    anbauland: n.herkunftsland ?? null,
    biomasseArt: n.biomasseArt ?? null,
    biomasseCode: n.biomasseCode ?? null,
    attributAnnexIx: ANNEX_IX.has(n.rohstoff) || n.abfall === true,
    zertifizierungssystem: n.zertifizierungssystem,
    nnwProduktNr: n.produktNr,
    nnwProduktName: produktName,
  };
}

/**
 * A new proof: its certificate must exist in the user's locations, not be cancelled, and have the volume left.
 * The certificate row stays locked until the transaction ends (afterCreate takes the volume from it). An edit
 * may not change certificate or volume.
 */
async function prepare(tx: TenantScope, input: Nachweisbescheinigung, before: (Nachweisbescheinigung & Meta) | null): Promise<Nachweisbescheinigung> {
  if (before) {
    const errors: FieldError[] = [];
    for (const f of ['nachweisNr', 'volumen'] as const) {
      if (f === 'volumen' ? mengeMilli(input.volumen) !== mengeMilli(before.volumen) : input[f] !== before[f]) errors.push({ field: f, message: 'nachweisbescheinigungen:errors.fest' });
    }
    if (errors.length) throw invalid(errors);
    return input;
  }
  const n = await nachweisStore.lock(tx, input.nachweisNr);
  if (!n || !tx.allowsStandort(n.standortNr)) throw invalid([{ field: 'nachweisNr', message: 'nachweisbescheinigungen:errors.nachweisUnbekannt', params: { nr: input.nachweisNr } }]);
  if (n.storniert) throw invalid([{ field: 'nachweisNr', message: 'nachweisbescheinigungen:errors.nachweisStorniert', params: { nr: n.nr } }]);
  if (mengeMilli(input.volumen) > mengeMilli(n.mengeVerbleibend)) {
    throw invalid([{ field: 'volumen', message: 'nachweisbescheinigungen:errors.mehrAlsRest', params: { rest: n.mengeVerbleibend, einheit: n.einheit, nr: n.nr } }]);
  }
  const produkt = await tx.table('produkte').where({ nr: n.produktNr }).first('name');
  return { ...input, ...merkmaleAus(n, String(input.volumen), produkt?.name ?? null), referenzNachweisNr: null, ablieferungNr: null, storniert: false };
}

/** Takes the proof's volume from its certificate (a new version of the certificate). */
async function afterCreate(tx: TenantScope, record: Nachweisbescheinigung & Meta, actor: { user: { id: number } }) {
  const n = (await nachweisStore.lock(tx, record.nachweisNr))!;
  await nachweisStore.write(tx, n, { mengeVerbleibend: mengeAusMilli(mengeMilli(n.mengeVerbleibend) - mengeMilli(record.volumen)) }, actor.user.id);
}

/** A cancelled proof that is not a part gives its volume back to its certificate. */
async function zurueck(tx: TenantScope, record: Nachweisbescheinigung & Meta, actor: { user: { id: number } }) {
  const n = await nachweisStore.lock(tx, record.nachweisNr);
  if (n) await nachweisStore.write(tx, n, { mengeVerbleibend: mengeAusMilli(mengeMilli(n.mengeVerbleibend) + mengeMilli(record.volumen)) }, actor.user.id);
}

function lockedReason(r: Nachweisbescheinigung & Meta): string | null {
  if (r.storniert) return 'nachweisbescheinigungen:locked.storniert';
  // A POC belongs to a closed Bilanz or position: nothing of it may change any more.
  if (r.bilanzId != null) return 'nachweisbescheinigungen:locked.poc';
  return null;
}

/** Certificates a new proof can be made from: not cancelled, with rest, in the user's locations. */
async function nachweisChoices(scope: TenantScope): Promise<ChoiceOptions> {
  const rows = await scope.atStandorte(scope.table('nachweise').where('storniert', false).where('menge_verbleibend', '>', 0), 'standort_nr')
    .orderBy('ausstellungsdatum', 'desc').orderBy('nr').limit(500).select('nr', 'rohstoff', 'menge_verbleibend', 'einheit', 'produktgruppe');
  return rows.map((r: Record<string, unknown>) => ({ value: String(r.nr), label: `${r.nr} (${mengeAusMilli(mengeMilli(r.menge_verbleibend))} ${r.einheit})`, raw: true }));
}

const form: FormField[] = [
  { name: 'nachweisNr', label: 'nachweisbescheinigungen:fields.nachweisNr', kind: 'select', required: true, choices: nachweisChoices, hint: 'nachweisbescheinigungen:hints.nachweisNr', fixed: true },
  { name: 'volumen', label: 'nachweisbescheinigungen:fields.volumen', kind: 'decimal', required: true, hint: 'nachweisbescheinigungen:hints.volumen', fixed: true },
  { name: 'lieferdatum', label: 'nachweisbescheinigungen:fields.lieferdatum', kind: 'date', required: true },
  { name: 'kommentar', label: 'bewegungsdaten:fields.kommentar', kind: 'textarea', maxLength: 2000 },
];

const T = 'b';
const gruppenOptions = PRODUKTGRUPPEN.map((g) => ({ value: g, label: `produkte:gruppen.${g}` }));
const rohstoffOptions = ROHSTOFFE.map((r) => ({ value: r.code, label: `nachweis-pruefung:rohstoffe.${r.code}` }));

// What fits 1366 px beside the sidebar on the page (group, volume and country are filters or export columns).
const list: ListDefinition<Nachweisbescheinigung & Meta> = {
  id: 'nachweisbescheinigungen',
  columns: [
    { key: 'nr', label: 'records:fields.nr', sql: `${T}.nr`, notNull: true, href: (r, lang) => `/${lang}/bewegungsdaten/nachweisbescheinigungen/${encodeURIComponent(r.nr)}` },
    { key: 'lieferdatum', label: 'nachweisbescheinigungen:fields.lieferdatum', sql: `${T}.lieferdatum`, notNull: true, kind: 'date' },
    { key: 'nachweisNr', label: 'nachweisbescheinigungen:fields.nachweisNr', sql: `${T}.nachweis_nr`, notNull: true, href: (r, lang) => `/${lang}/bewegungsdaten/nachweise/${encodeURIComponent(r.nachweisNr)}` },
    { key: 'produktgruppe', label: 'bewegungsdaten:fields.produktgruppe', csvOnly: true, badge: (r) => ({ label: `produkte:gruppen.${r.produktgruppe}`, variant: 'info' }) },
    { key: 'rohstoffName', label: 'nachweise:fields.rohstoff', badge: (r) => ({ label: `nachweis-pruefung:rohstoffe.${r.rohstoff}`, variant: 'neutral' }), pageOnly: true },
    { key: 'rohstoff', label: 'nachweise:fields.rohstoff', csvOnly: true },
        { key: 'volumenVerbleibend', label: 'nachweise:liste.rest', sql: `${T}.volumen_verbleibend`, notNull: true, kind: 'number', digits: 0, suffix: (r) => String(r.einheit), pageOnly: true },
    { key: 'volumenExakt', label: 'nachweisbescheinigungen:fields.volumen', kind: 'number', digits: 3, csvOnly: true },
    { key: 'volumenVerbleibendExakt', label: 'nachweisbescheinigungen:fields.volumenVerbleibend', kind: 'number', digits: 3, csvOnly: true },
    { key: 'einheit', label: 'bewegungsdaten:fields.einheit', csvOnly: true },
    { key: 'thgEmission', label: 'nachweise:liste.thg', sql: `${T}.thg_emission`, notNull: true, kind: 'number', digits: 2 },
    { key: 'anbauland', label: 'nachweisbescheinigungen:fields.anbauland', csvOnly: true },
    { key: 'zertifizierungssystem', label: 'nachweise:fields.zertifizierungssystem', csvOnly: true },
    { key: 'nnwEnergie', label: 'nachweisbescheinigungen:fields.nnwEnergie', kind: 'number', digits: 0, csvOnly: true },
    { key: 'referenzNachweisNr', label: 'nachweise:fields.referenzNachweisNr', csvOnly: true },
    { key: 'standortNr', label: 'bewegungsdaten:fields.standortNr', csvOnly: true },
    { key: 'storniert', label: 'bewegungsdaten:fields.storniert', kind: 'boolean', csvOnly: true },
    {
      key: 'zustand', label: 'nachweise:fields.zustand', pageOnly: true,
      badge: (r) => (r.storniert ? { label: 'bewegungsdaten:storniert', variant: 'error' }
        : Number(r.volumenVerbleibend) === 0 ? { label: 'nachweisbescheinigungen:zustand.verbraucht', variant: 'neutral' }
          : { label: 'nachweisbescheinigungen:zustand.verfuegbar', variant: 'success' }),
    },
  ],
  filters: [
    { key: 'von', label: 'bewegungsdaten:filters.von', kind: 'dateFrom', sql: `${T}.lieferdatum` },
    { key: 'bis', label: 'bewegungsdaten:filters.bis', kind: 'dateTo', sql: `${T}.lieferdatum` },
    { key: 'standortNr', label: 'bewegungsdaten:fields.standort', kind: 'select', sql: `${T}.standort_nr`, options: [] },
    { key: 'produktgruppe', label: 'bewegungsdaten:fields.produktgruppe', kind: 'select', sql: `${T}.produktgruppe`, options: gruppenOptions },
    { key: 'rohstoff', label: 'nachweise:fields.rohstoff', kind: 'select', sql: `${T}.rohstoff`, options: rohstoffOptions },
    { key: 'mitRest', label: 'nachweise:filters.mitRest', kind: 'boolean', sql: `${T}.mit_rest` },
    { key: 'storniert', label: 'bewegungsdaten:fields.storniert', kind: 'boolean', sql: `${T}.storniert` },
  ],
  search: {
    table: 'nachweisbescheinigungen', alias: T,
    words: ['nr', 'nachweis_nr', 'referenz_nachweis_nr', 'ablieferung_nr', 'kommentar'],
    references: [{ column: 'standort_nr', master: 'standorte' }, { column: 'produkt_nr', master: 'produkte' }],
  },
  defaultSort: { key: 'lieferdatum', dir: 'desc' },
  tieBreaker: `${T}.nr`,
  query: (scope) => scope.atStandorte(scope.table('nachweisbescheinigungen', T).select(`${T}.*`), `${T}.standort_nr`),
  countsFollow: 'nachweisbescheinigungen',
  toRow: (row) => {
    const b = nbStore.fromRow(row);
    return { ...b, volumenExakt: b.volumen, volumenVerbleibendExakt: b.volumenVerbleibend };
  },
  totals: [{ key: 'summeRest', label: 'nachweise:totals.rest', sql: `case when not ${T}.storniert and ${T}.einheit = 'L' then ${T}.volumen_verbleibend end`, digits: 0 }],
  choices: (scope) => masterDataChoices(scope, { activeOnly: false }),
};

/**
 * The chain-of-custody tabs of the spec: what the proof is linked to (the collections that carry its certificate
 * or one of that certificate's parents, the Einlieferungen they arrived as, the Ablieferungen it or a part of it
 * was issued for), read as the Nachweisverfolgung reads them (features/nachweisverfolgung), each row with a link
 * to trace the delivery. The links themselves are made on the collections and deliveries; until one is, a tab
 * says so.
 */
const verknuepfung = (key: VerknuepfungArt): RecordSection<Nachweisbescheinigung> => ({
  key,
  label: `nachweisbescheinigungen:tabs.${key}`,
  view: 'nachweisbescheinigungen/verknuepfungen',
  locals: async ({ scope, record }) => ({ verknuepfung: { art: key, zeilen: await verknuepfungenDerBescheinigung(scope, record!, key) } }),
});

/** What a part split off a proof has of its own: its energy is its share of the parent's, to the fourth decimal of a MJ. The split action and the demo data use it. */
export function nbTeil(parent: Nachweisbescheinigung & Meta, menge: string): Partial<Nachweisbescheinigung> {
  return {
    nnwEnergie: parent.nnwEnergie == null ? null : anteil(String(parent.nnwEnergie), menge, String(parent.volumen)),
    volumenVerbleibend: menge,
  };
}

const teilung = teilbar<Nachweisbescheinigung>({
  ns: 'nachweisbescheinigungen', store: nbStore, menge: 'volumen', rest: 'volumenVerbleibend', kreis: 'nachweisbescheinigungen', prefix: 'NB-',
  teil: nbTeil,
  zurueck,
});

/** value × teil / ganz, to four decimals (half away from zero). */
function anteil(value: string, teil: string, ganz: string): string {
  const [int, frac = ''] = value.split('.');
  const v = BigInt(int.replace('-', '') + frac.padEnd(4, '0').slice(0, 4)) * (int.startsWith('-') ? -1n : 1n);
  const num = v * mengeMilli(teil);
  const den = mengeMilli(ganz);
  const q = (2n * num + den) / (2n * den);
  const abs = q < 0n ? -q : q;
  const f = (abs % 10_000n).toString().padStart(4, '0').replace(/0+$/, '');
  return `${q < 0n ? '-' : ''}${abs / 10_000n}${f ? `.${f}` : ''}`;
}

export const nachweisbescheinigungConfig: EntityConfig<Nachweisbescheinigung> = {
  resource: 'nachweisbescheinigungen',
  path: 'bewegungsdaten/nachweisbescheinigungen',
  area: 'nachweisbescheinigungen',
  ns: 'nachweisbescheinigungen',
  store: nbStore,
  schema: NbSchema as unknown as z.ZodType<Nachweisbescheinigung>,
  list,
  form,
  generateNr: async (scope) => `NB-${await nextNumber(scope, 'nachweisbescheinigungen')}`,
  standortOf: (r) => r.standortNr ?? null,
  locatedBy: 'nachweisNr',
  prepare,
  afterCreate,
  lockedReason,
  badge: (r) => (Number(r.volumenVerbleibend) === 0 ? { label: 'nachweisbescheinigungen:zustand.verbraucht', variant: 'neutral' } : { label: 'nachweisbescheinigungen:zustand.verfuegbar', variant: 'success' }),
  detailLocals: async ({ record }) => ({ extraSection: '../nachweisbescheinigungen/merkmale', merkmale: record }),
  actions: teilung.actions,
  sections: [verknuepfung('einlieferungen'), verknuepfung('abholungen'), verknuepfung('ablieferungen'), ...teilung.sections],
};
