// Nachweise (certificates, PoS): one batch's sustainability declaration with every field of the ISCC EU PoS
// form, the quantity it covers at one of the tenant's locations, and the figures computed from it.
//
// Rules (docs: ../shared/spec/certificates-and-balances.md section 1):
// - E, the saving S, the threshold and the t CO2eq are computed by the pure engine (src/domain/ghg.ts) with the
//   law values valid on the issue date (src/features/gesetzeswerte), and stored with the certificate, with the
//   comparator and Basiswert that were used: a later law value never changes a saved certificate.
// - The sanity checks (src/domain/nachweis-pruefung.ts) refuse errors, naming the field, and keep warnings
//   (`hinweise`), shown on the page and filterable in the list.
// - `mengeVerbleibend` is what is left after parts split off and quantities used; a certificate whose
//   quantity has been used (split, or taken by a proof) keeps its characteristics: it is locked, so a part
//   never differs from its parent. A part (Teilnachweis) is locked from the start.
import { z } from 'zod';
import type { TenantScope } from '../../db/scope.js';
import { VersionedStore, type Meta } from '../../db/versioned.js';
import { PRODUKTGRUPPEN, type Produktgruppe } from '../../domain/fuels.js';
import { berechneNachweis, EMISSIONSTEILE, energie, thgMinderungT, type NachweisErgebnis } from '../../domain/ghg.js';
import type { Gesetzeswerte } from '../../domain/gesetzeswerte.js';
import { pruefeNachweis, type Befund } from '../../domain/nachweis-pruefung.js';
import { isLand, KETTENMODELLE, laenderListe, ROHSTOFFE, ZERTIFIZIERUNGSSYSTEME } from '../../domain/rohstoffe.js';
import { EINHEITEN } from '../../domain/units.js';
import { invalid, type FieldError } from '../../errors.js';
import { checkbox, choice, date, decimal, optionalChoice, optionalText } from '../../records/fields.js';
import { fileField, type CheckedUpload, type FileRef } from '../../records/files.js';
import type { EntityConfig, FormField } from '../../records/entity.js';
import type { ListDefinition } from '../../records/list/engine.js';
import { resolveNew, choicesOf, masterDataChoices, type ReferenceField } from '../bewegungsdaten/references.js';
import { gesetzeswerteAm } from '../gesetzeswerte/service.js';
import { MAX_MENGE } from '../lieferungen/lieferung.js';
import { endgueltigAction } from './endgueltig.js';
import { teilbar } from './teilung.js';

/** The file of a certificate: its PDF, or a scan. */
export const DATEI_KINDS = ['pdf', 'png', 'jpeg'] as const;

/** Emission parts and values in g CO2eq/MJ; the sanity checks name absurd values, the schema only non-numbers. */
const emission = () => decimal({ min: -99_999, max: 99_999, scale: 3 });
const rohstoffCodes = ROHSTOFFE.map((r) => r.code) as [string, ...string[]];

const land = () =>
  z.unknown().optional().transform((v, ctx) => {
    if (v === undefined || v === null || v === '') return null;
    const code = typeof v === 'string' ? v.trim().toUpperCase() : '';
    if (!isLand(code)) {
      ctx.addIssue({ code: 'custom', message: 'nachweise:errors.land' });
      return z.NEVER;
    }
    return code;
  });

const NachweisSchema = z.object({
  // Dokument
  ausstellungsdatum: date({ required: true }),
  zeitraumVon: date(),
  zeitraumBis: date(),
  zertifizierungssystem: choice(ZERTIFIZIERUNGSSYSTEME as unknown as [string, ...string[]]),
  schema: optionalChoice(KETTENMODELLE as unknown as [string, ...string[]]),
  referenzPosNr: optionalText(100),
  vorlaeufig: checkbox(),
  redIIKonform: checkbox(),
  datei: fileField({ kinds: DATEI_KINDS }),
  zusatzinfo: optionalText(2000),
  // Lieferung
  standortNr: z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').max(32, 'validation.tooLong'),
  produktNr: z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').max(32, 'validation.tooLong'),
  produktgruppe: optionalChoice(PRODUKTGRUPPEN),
  menge: decimal({ min: 0.001, max: MAX_MENGE, scale: 3, required: true }),
  einheit: choice(EINHEITEN),
  gesamtLiefermenge: decimal({ min: 0, max: MAX_MENGE, scale: 3 }),
  dichte: decimal({ min: 0.1, max: 2, scale: 4 }),
  lcv: decimal({ min: 0.1, max: 200, scale: 4 }),
  biogehalt: decimal({ min: 0, max: 100, scale: 4 }),
  lieferungVon: date(),
  lieferungBis: date(),
  // Rohstoff und Herkunft
  rohstoff: choice(rohstoffCodes),
  biomasseArt: optionalText(100),
  biomasseCode: optionalText(40),
  herkunftsland: land(),
  abfall: checkbox(),
  nachhaltig: checkbox(),
  anlageInbetriebnahme: date(),
  // Emissionen
  ...Object.fromEntries(EMISSIONSTEILE.map((teil) => [teil, emission()])),
  waermeAllokiert: emission(),
  stromAllokiert: emission(),
  gesamtStandardwert: emission(),
  // Lieferant und Empfänger
  lieferant: optionalText(200),
  lieferantZertifikatNr: optionalText(100),
  empfaenger: optionalText(200),
  vertragsNr: optionalText(100),
  versandort: optionalText(200),
  empfangsort: optionalText(200),
});

/** What the certificate's figures are, stored with it (read-only in the API). */
export interface NachweisKennzahlen {
  mengeVerbleibend: string;
  energiegehalt: string | null;
  thg: string | null;
  einsparung: string | null;
  schwelle: string;
  vergleichswert: string;
  basiswert: string;
  thgMinderungT: string | null;
  hinweise: Befund[];
  referenzNachweisNr: string | null;
  storniert: boolean;
}

export type Nachweis = Omit<z.infer<typeof NachweisSchema>, 'datei'> & { datei?: CheckedUpload | FileRef | null } & Partial<NachweisKennzahlen>;

const camelToSnake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`).replace('i_i_', 'ii_');

/** Every field of the form and the figures, each in the column of its snake_case name. */
export const NACHWEIS_FIELDS = [
  ...Object.keys(NachweisSchema.shape),
  'mengeVerbleibend', 'energiegehalt', 'thg', 'einsparung', 'schwelle', 'vergleichswert', 'basiswert', 'thgMinderungT', 'hinweise',
  'referenzNachweisNr', 'storniert',
];

export const nachweisStore = new VersionedStore<Nachweis>({
  table: 'nachweise',
  managedStatus: false,
  fields: Object.fromEntries(NACHWEIS_FIELDS.map((f) => [f, f === 'redIIKonform' ? 'red_ii_konform' : camelToSnake(f)])) as VersionedStore<Nachweis>['spec']['fields'],
});

/** Characteristics that stay with a quantity: what a part copies from its parent (all but quantity and number). */
export const MERKMALE = Object.keys(NachweisSchema.shape).filter((f) => !['menge', 'gesamtLiefermenge'].includes(f));

/** The product's group and the law values a certificate's computation needs, however they were loaded. */
export interface NachweisKontext {
  produktgruppe: Produktgruppe | null;
  werte: Gesetzeswerte;
  /** Today (ISO date), for the date checks. */
  heute: string;
  /** An import of old data may omit the plant's start (the strictest threshold applies, with a warning). */
  anlageOptional?: boolean;
}

const dec = (v: unknown): string | null => (v === null || v === undefined || v === '' ? null : String(v));

/**
 * Completes a certificate before it is stored: product group from the product, the computed figures with the
 * law values of its date, and the sanity checks. Pure: the form, the API and the import apply the same rules.
 * Returns the errors (each naming its field) and the certificate with its warnings.
 */
export function completeNachweis(input: Nachweis, before: (Nachweis & Meta) | null, ctx: NachweisKontext): { nachweis: Nachweis; errors: FieldError[]; ergebnis: NachweisErgebnis | null } {
  const errors: FieldError[] = [];
  const out: Nachweis = { ...input };
  if (ctx.produktgruppe) {
    if (input.produktgruppe && input.produktgruppe !== ctx.produktgruppe) {
      errors.push({ field: 'produktgruppe', message: 'bewegungsdaten:errors.produktgruppe', params: { gruppe: ctx.produktgruppe, produkt: input.produktNr } });
    }
    out.produktgruppe = ctx.produktgruppe;
  }
  if (!out.anlageInbetriebnahme && !ctx.anlageOptional) errors.push({ field: 'anlageInbetriebnahme', message: 'validation.required' });
  for (const [from, to] of [['zeitraumVon', 'zeitraumBis'], ['lieferungVon', 'lieferungBis']] as const) {
    if (out[from] && out[to] && out[from]! > out[to]!) errors.push({ field: to, message: 'nachweise:errors.reihenfolge', params: { von: out[from] } });
  }
  if (!out.produktgruppe) return { nachweis: out, errors, ergebnis: null };
  const eingabe = {
    menge: String(out.menge), einheit: out.einheit, lcv: dec(out.lcv), biogehalt: dec(out.biogehalt), produktgruppe: out.produktgruppe as Produktgruppe,
    anlageInbetriebnahme: out.anlageInbetriebnahme ?? null, gesamtStandardwert: dec(out.gesamtStandardwert),
    ...Object.fromEntries(EMISSIONSTEILE.map((teil) => [teil, dec(out[teil as keyof Nachweis])])),
  };
  const ergebnis = berechneNachweis(eingabe, ctx.werte);
  // Without E there is no saving to check and no figure to claim: a certificate states its parts or its total.
  if (ergebnis.thg === null) errors.push({ field: 'gesamtStandardwert', message: 'nachweise:errors.eFehlt' });
  const befunde = pruefeNachweis({
    ...eingabe, nachhaltig: out.nachhaltig === true, abfall: out.abfall === true, rohstoff: out.rohstoff ?? null, herkunftsland: out.herkunftsland ?? null,
    dichte: dec(out.dichte), ausstellungsdatum: out.ausstellungsdatum ?? null, zeitraumVon: out.zeitraumVon ?? null, zeitraumBis: out.zeitraumBis ?? null,
    lieferungVon: out.lieferungVon ?? null, lieferungBis: out.lieferungBis ?? null,
  }, ergebnis, ctx.heute);
  for (const f of befunde.fehler) errors.push({ field: f.field, message: `nachweis-pruefung:codes.${f.code}`, params: { ...(f.params ?? {}), code: f.code } });
  // A new certificate has all of its quantity; an unused one follows a changed quantity.
  const rest = before ? (before.mengeVerbleibend === before.menge ? String(out.menge) : String(before.mengeVerbleibend)) : String(out.menge);
  Object.assign(out, {
    mengeVerbleibend: rest,
    energiegehalt: ergebnis.energiegehalt,
    lcv: out.lcv ?? ergebnis.lcv,
    thg: ergebnis.thg,
    einsparung: ergebnis.einsparung,
    schwelle: ergebnis.schwelle,
    vergleichswert: ctx.werte.fossilerVergleichswert,
    basiswert: ctx.werte.basiswert,
    thgMinderungT: ergebnis.thgMinderungT,
    hinweise: befunde.hinweise,
  } satisfies Partial<NachweisKennzahlen> & { lcv: unknown });
  return { nachweis: out, errors, ergebnis };
}

const today = () => new Date().toISOString().slice(0, 10);

/** completeNachweis for one certificate of the form or the API: product and law values from the database; 400 on problems. */
async function prepare(scope: TenantScope, input: Nachweis, before: (Nachweis & Meta) | null): Promise<Nachweis> {
  const errors: FieldError[] = [];
  let produktgruppe: Produktgruppe | null = null;
  for (const field of ['standortNr', 'produktNr'] as ReferenceField[]) {
    const nr = input[field as keyof Nachweis] as string;
    if (before && before[field as keyof Nachweis] === nr) continue;
    const row = await resolveNew(scope, field, nr, errors);
    if (field === 'produktNr' && row) produktgruppe = row.produktgruppe as Produktgruppe;
  }
  if (!produktgruppe && before && before.produktNr === input.produktNr) produktgruppe = before.produktgruppe as Produktgruppe;
  const werte = await gesetzeswerteAm(scope.knex, input.ausstellungsdatum ?? today());
  const done = completeNachweis(input, before, { produktgruppe, werte, heute: today(), anlageOptional: Boolean(before && !before.anlageInbetriebnahme && !input.anlageInbetriebnahme) });
  errors.push(...done.errors);
  if (errors.length) throw invalid(errors);
  return done.nachweis;
}

/** A cancelled certificate is final; a used one or a part keeps its characteristics (see the header). */
export function nachweisLockedReason(record: Nachweis & Meta): string | null {
  if (record.storniert) return 'nachweise:locked.storniert';
  if (record.referenzNachweisNr) return 'nachweise:locked.teil';
  if (Number(record.mengeVerbleibend) !== Number(record.menge)) return 'nachweise:locked.verwendet';
  return null;
}

const gruppenOptions = PRODUKTGRUPPEN.map((g) => ({ value: g, label: `produkte:gruppen.${g}` }));
const rohstoffOptions = ROHSTOFFE.map((r) => ({ value: r.code, label: `nachweis-pruefung:rohstoffe.${r.code}` }));
const systemOptions = ZERTIFIZIERUNGSSYSTEME.map((s) => ({ value: s, label: s, raw: true }));
const kettenOptions = KETTENMODELLE.map((k) => ({ value: k, label: `nachweis-pruefung:kettenmodelle.${k}` }));
const einheitOptions = EINHEITEN.map((u) => ({ value: u, label: `bewegungsdaten:einheiten.${u}` }));
/** Countries (ISO 3166-1 alpha-2) named in the page's language (locales/{de,en}/laender.json, made from Intl.DisplayNames), in German order. */
const landOptions = laenderListe('de').map((l) => ({ value: l.code, label: `laender:${l.code}` }));

const G = {
  dokument: 'nachweise:groups.dokument',
  lieferung: 'nachweise:groups.lieferung',
  rohstoff: 'nachweise:groups.rohstoff',
  emissionen: 'nachweise:groups.emissionen',
  beteiligte: 'nachweise:groups.beteiligte',
};
const field = (name: string, kind: FormField['kind'], group: string, extra: Partial<FormField> = {}): FormField => ({ name, label: `nachweise:fields.${name}`, kind, group, ...extra });

export const NACHWEIS_FORM: FormField[] = [
  field('ausstellungsdatum', 'date', G.dokument, { required: true }),
  field('zertifizierungssystem', 'select', G.dokument, { required: true, options: systemOptions }),
  field('schema', 'select', G.dokument, { options: kettenOptions }),
  field('referenzPosNr', 'text', G.dokument, { maxLength: 100 }),
  field('zeitraumVon', 'date', G.dokument),
  field('zeitraumBis', 'date', G.dokument),
  field('datei', 'file', G.dokument, { file: { kinds: DATEI_KINDS } }),
  field('zusatzinfo', 'textarea', G.dokument, { maxLength: 2000 }),
  field('vorlaeufig', 'checkbox', G.dokument),
  field('redIIKonform', 'checkbox', G.dokument),
  field('standortNr', 'select', G.lieferung, { required: true, choices: choicesOf('standortNr'), hint: 'nachweise:hints.standortNr' }),
  field('produktNr', 'select', G.lieferung, { required: true, choices: choicesOf('produktNr') }),
  field('produktgruppe', 'select', G.lieferung, { options: gruppenOptions, hint: 'bewegungsdaten:hints.produktgruppe' }),
  field('menge', 'decimal', G.lieferung, { required: true }),
  field('einheit', 'select', G.lieferung, { required: true, options: einheitOptions }),
  field('gesamtLiefermenge', 'decimal', G.lieferung),
  field('lcv', 'decimal', G.lieferung, { hint: 'nachweise:hints.lcv' }),
  field('dichte', 'decimal', G.lieferung, { hint: 'nachweise:hints.dichte' }),
  field('biogehalt', 'decimal', G.lieferung, { hint: 'nachweise:hints.biogehalt' }),
  field('lieferungVon', 'date', G.lieferung),
  field('lieferungBis', 'date', G.lieferung),
  field('rohstoff', 'select', G.rohstoff, { required: true, options: rohstoffOptions }),
  field('herkunftsland', 'select', G.rohstoff, { required: true, options: landOptions }),
  field('biomasseArt', 'text', G.rohstoff, { maxLength: 100 }),
  field('biomasseCode', 'text', G.rohstoff, { maxLength: 40 }),
  field('anlageInbetriebnahme', 'date', G.rohstoff, { required: true, hint: 'nachweise:hints.anlageInbetriebnahme' }),
  field('abfall', 'checkbox', G.rohstoff),
  field('nachhaltig', 'checkbox', G.rohstoff),
  ...EMISSIONSTEILE.map((teil) => field(teil, 'decimal', G.emissionen, { hint: 'nachweise:hints.gMj' })),
  field('waermeAllokiert', 'decimal', G.emissionen),
  field('stromAllokiert', 'decimal', G.emissionen),
  field('gesamtStandardwert', 'decimal', G.emissionen, { hint: 'nachweise:hints.gesamtStandardwert' }),
  field('lieferant', 'text', G.beteiligte, { maxLength: 200 }),
  field('lieferantZertifikatNr', 'text', G.beteiligte, { maxLength: 100 }),
  field('empfaenger', 'text', G.beteiligte, { maxLength: 200 }),
  field('vertragsNr', 'text', G.beteiligte, { maxLength: 100 }),
  field('versandort', 'text', G.beteiligte, { maxLength: 200 }),
  field('empfangsort', 'text', G.beteiligte, { maxLength: 200 }),
];

/**
 * What a part split off a certificate has of its own: it carries its parent's E, saving and threshold (copied),
 * its energy and t CO2eq are those of its own quantity. The split action and the demo data use it.
 */
export function nachweisTeil(parent: Nachweis & Meta, menge: string): Partial<Nachweis> {
  const mj = energie(menge, String(parent.lcv), dec(parent.biogehalt));
  return { energiegehalt: mj, thgMinderungT: parent.thg == null ? null : thgMinderungT(mj, String(parent.thg), String(parent.basiswert)), gesamtLiefermenge: null };
}

const T = 'n';

/**
 * The day a certificate's rest expires, in SQL over the certificate aliased `n`: 15 April (the dated setting
 * nachweis_ablauf valid on the period's end; before its first valid-from date, the first) of the year after its
 * period ends (zeitraumBis, else its date of issue). The same rule as nachweisAblaufAus() and the chain of
 * custody's `abgelaufen` (certificates-and-balances.md).
 */
export const ablaufSql = (n = T) => {
  const ende = `coalesce(${n}.zeitraum_bis, ${n}.ausstellungsdatum)`;
  return `(select make_date(extract(year from ${ende})::int + 1, split_part(ga.wert_text, '-', 1)::int, split_part(ga.wert_text, '-', 2)::int)
    from gesetzeswerte ga where ga.art = 'nachweis_ablauf'
      and ga.gueltig_ab <= greatest(${ende}, (select min(gf.gueltig_ab) from gesetzeswerte gf where gf.art = 'nachweis_ablauf'))
    order by ga.gueltig_ab desc limit 1)`;
};

/**
 * Certificates whose rest expires within a range (the dashboard's "expiring within 30 days" links here with today
 * and today + 30): a rest left, not cancelled, the expiry day from `von` and/or to `bis`.
 */
export function laeuftAb(qb: import('knex').Knex.QueryBuilder, range: { von?: string; bis?: string }, n = T) {
  qb.where(`${n}.mit_rest`, true).where(`${n}.storniert`, false);
  if (range.von) qb.whereRaw(`${ablaufSql(n)} >= ?::date`, [range.von]);
  if (range.bis) qb.whereRaw(`${ablaufSql(n)} <= ?::date`, [range.bis]);
  return qb;
}

const detailHref = (r: { nr: string }, lang: string) => `/${lang}/bewegungsdaten/nachweise/${encodeURIComponent(r.nr)}`;

/** The list: what a trader looks for (group, raw material, scheme, location, provisional, with warnings, with rest). */
// Every filter and sort is served by an index (list-plans.test.ts). The page shows what fits 1366 px beside the
// sidebar: number, date, raw material and the figures a trader ranks by (rest, E, saving, sortable) and the state;
// group, country, scheme and quantity are filters and export columns.
const list: ListDefinition<Nachweis & Meta> = {
  id: 'nachweise',
  columns: [
    { key: 'nr', label: 'records:fields.nr', sql: `${T}.nr`, notNull: true, href: detailHref },
    { key: 'ausstellungsdatum', label: 'nachweise:liste.datum', sql: `${T}.ausstellungsdatum`, notNull: true, kind: 'date' },
    { key: 'rohstoffName', label: 'nachweise:fields.rohstoff', badge: (r) => ({ label: `nachweis-pruefung:rohstoffe.${r.rohstoff}`, variant: 'neutral' }), pageOnly: true },
    { key: 'rohstoff', label: 'nachweise:fields.rohstoff', csvOnly: true },
    { key: 'herkunftsland', label: 'nachweise:fields.herkunftsland', csvOnly: true },
    { key: 'zertifizierungssystem', label: 'nachweise:fields.zertifizierungssystem', csvOnly: true },
    { key: 'produktgruppe', label: 'bewegungsdaten:fields.produktgruppe', csvOnly: true, badge: (r) => ({ label: `produkte:gruppen.${r.produktgruppe}`, variant: 'info' }) },
        { key: 'mengeVerbleibend', label: 'nachweise:liste.rest', sql: `${T}.menge_verbleibend`, notNull: true, kind: 'number', digits: 0, suffix: (r) => String(r.einheit), pageOnly: true },
    { key: 'mengeExakt', label: 'nachweise:fields.menge', kind: 'number', digits: 3, csvOnly: true },
    { key: 'mengeVerbleibendExakt', label: 'nachweise:fields.mengeVerbleibend', kind: 'number', digits: 3, csvOnly: true },
    { key: 'einheit', label: 'bewegungsdaten:fields.einheit', csvOnly: true },
    { key: 'thg', label: 'nachweise:liste.thg', sql: `${T}.thg`, notNull: true, kind: 'number', digits: 2 },
    { key: 'einsparung', label: 'nachweise:liste.einsparung', sql: `${T}.einsparung`, notNull: true, kind: 'number', digits: 2 },
    {
      key: 'zustand', label: 'nachweise:fields.zustand', pageOnly: true,
      badge: (r) => (r.storniert ? { label: 'bewegungsdaten:storniert', variant: 'error' }
        : (r.hinweise ?? []).length ? { label: 'nachweise:zustand.hinweise', variant: 'warning' }
          : r.vorlaeufig ? { label: 'nachweise:zustand.vorlaeufig', variant: 'info' }
            : !r.nachhaltig ? { label: 'nachweise:zustand.nichtNachhaltig', variant: 'neutral' }
              : { label: 'nachweise:zustand.ok', variant: 'success' }),
    },
    { key: 'schwelle', label: 'nachweise:fields.schwelle', kind: 'number', digits: 2, csvOnly: true },
    { key: 'thgMinderungT', label: 'nachweise:fields.thgMinderungT', kind: 'number', digits: 4, csvOnly: true },
    { key: 'hinweisCodes', label: 'nachweise:fields.hinweise', csvOnly: true },
    { key: 'standortNr', label: 'bewegungsdaten:fields.standortNr', csvOnly: true },
    { key: 'produktNr', label: 'bewegungsdaten:fields.produktNr', csvOnly: true },
    { key: 'referenzNachweisNr', label: 'nachweise:fields.referenzNachweisNr', csvOnly: true },
    { key: 'vorlaeufig', label: 'nachweise:fields.vorlaeufig', kind: 'boolean', csvOnly: true },
    { key: 'nachhaltig', label: 'nachweise:fields.nachhaltig', kind: 'boolean', csvOnly: true },
    { key: 'abfall', label: 'nachweise:fields.abfall', kind: 'boolean', csvOnly: true },
    { key: 'storniert', label: 'bewegungsdaten:fields.storniert', kind: 'boolean', csvOnly: true },
    { key: 'lieferant', label: 'nachweise:fields.lieferant', csvOnly: true },
    { key: 'lieferungVon', label: 'nachweise:fields.lieferungVon', kind: 'date', csvOnly: true },
    { key: 'lieferungBis', label: 'nachweise:fields.lieferungBis', kind: 'date', csvOnly: true },
  ],
  filters: [
    { key: 'von', label: 'bewegungsdaten:filters.von', kind: 'dateFrom', sql: `${T}.ausstellungsdatum` },
    { key: 'bis', label: 'bewegungsdaten:filters.bis', kind: 'dateTo', sql: `${T}.ausstellungsdatum` },
    { key: 'standortNr', label: 'bewegungsdaten:fields.standort', kind: 'select', sql: `${T}.standort_nr`, options: [] },
    { key: 'produktgruppe', label: 'bewegungsdaten:fields.produktgruppe', kind: 'select', sql: `${T}.produktgruppe`, options: gruppenOptions },
    { key: 'rohstoff', label: 'nachweise:fields.rohstoff', kind: 'select', sql: `${T}.rohstoff`, options: rohstoffOptions },
    { key: 'zertifizierungssystem', label: 'nachweise:fields.zertifizierungssystem', kind: 'select', sql: `${T}.zertifizierungssystem`, options: systemOptions },
    { key: 'vorlaeufig', label: 'nachweise:filters.vorlaeufig', kind: 'boolean', sql: `${T}.vorlaeufig` },
    { key: 'mitHinweisen', label: 'nachweise:filters.mitHinweisen', kind: 'boolean', sql: `${T}.mit_hinweisen` },
    { key: 'mitRest', label: 'nachweise:filters.mitRest', kind: 'boolean', sql: `${T}.mit_rest` },
    { key: 'storniert', label: 'bewegungsdaten:fields.storniert', kind: 'boolean', sql: `${T}.storniert` },
    // The rest's expiry from … to (served by the rest's index: only certificates with a rest expire; the day is computed per row).
    { key: 'laeuftAbVon', label: 'nachweise:filters.laeuftAbVon', kind: 'dateFrom', sql: `${T}.mit_rest`, where: (qb, v) => void laeuftAb(qb, { von: v }) },
    { key: 'laeuftAbBis', label: 'nachweise:filters.laeuftAbBis', kind: 'dateTo', sql: `${T}.mit_rest`, where: (qb, v) => void laeuftAb(qb, { bis: v }) },
  ],
  search: {
    table: 'nachweise', alias: T,
    words: ['nr', 'lieferant', 'referenz_pos_nr', 'lieferant_zertifikat_nr', 'zusatzinfo'],
    references: [{ column: 'standort_nr', master: 'standorte' }, { column: 'produkt_nr', master: 'produkte' }],
  },
  defaultSort: { key: 'ausstellungsdatum', dir: 'desc' },
  tieBreaker: `${T}.nr`,
  query: (scope) => scope.atStandorte(scope.table('nachweise', T).select(`${T}.*`), `${T}.standort_nr`),
  countsFollow: 'nachweise',
  toRow: (row) => {
    const n = nachweisStore.fromRow(row);
    return { ...n, mengeExakt: n.menge, mengeVerbleibendExakt: n.mengeVerbleibend, hinweisCodes: (n.hinweise ?? []).map((h) => h.code).join(', ') };
  },
  totals: [
    { key: 'summeRest', label: 'nachweise:totals.rest', sql: `case when not ${T}.storniert and ${T}.einheit = 'L' then ${T}.menge_verbleibend end`, digits: 0 },
    // Only a sustainable batch counts towards the quota.
    { key: 'summeT', label: 'nachweise:totals.thgMinderungT', sql: `case when not ${T}.storniert and ${T}.nachhaltig then ${T}.thg_minderung_t end`, digits: 1 },
  ],
  choices: (scope) => masterDataChoices(scope, { activeOnly: false }),
};

/** Warnings of the stored certificate, on its page (the same texts as in the list's filter). */
function warnings(n: Nachweis) {
  return (n.hinweise ?? []).map((h) => ({ field: h.field, message: `nachweis-pruefung:codes.${h.code}`, params: h.params }));
}

const teilung = teilbar<Nachweis>({
  ns: 'nachweise', store: nachweisStore, menge: 'menge', rest: 'mengeVerbleibend', kreis: 'teilnachweise', prefix: 'TN-', teil: nachweisTeil,
});

export const nachweisConfig: EntityConfig<Nachweis> = {
  resource: 'nachweise',
  path: 'bewegungsdaten/nachweise',
  area: 'nachweise',
  ns: 'nachweise',
  store: nachweisStore,
  schema: NachweisSchema as unknown as z.ZodType<Nachweis>,
  list,
  form: NACHWEIS_FORM,
  defaults: { einheit: 'L', nachhaltig: true, redIIKonform: true, biogehalt: '100', zertifizierungssystem: 'ISCC EU', schema: 'massenbilanz' } as Partial<Nachweis>,
  standortOf: (r) => r.standortNr ?? null,
  locatedBy: 'standortNr',
  // Bulk entry from CSV or XLSX (src/features/nachweise-import), linked from the list.
  importPath: 'import',
  prepare,
  lockedReason: nachweisLockedReason,
  warnings,
  badge: (r) => (r.vorlaeufig ? { label: 'nachweise:zustand.vorlaeufig', variant: 'info' } : r.nachhaltig ? { label: 'nachweise:zustand.nachhaltig', variant: 'success' } : { label: 'nachweise:zustand.nichtNachhaltig', variant: 'neutral' }),
  // The figures and how each was computed, above the form: what a trader looks at first.
  detailLocals: async ({ record }) => ({ headSection: '../nachweise/kennzahlen', kennzahlen: record }),
  ...teilung,
  // Split, undo and cancel (teilung.ts), and marking a provisional certificate final (endgueltig.ts).
  actions: [...teilung.actions, endgueltigAction(nachweisStore)],
};
