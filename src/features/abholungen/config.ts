// Abholungen (collections at a supplier's site): the spec's fields, at least one certificate (section 5), and
// the Einlieferungen the goods arrived as. The number is typed by the user, as for deliveries. The collection's
// Lieferstelle is one of the tenant's locations and decides who may see it (location limits).
//
// Rules:
// - Lieferstelle and product are chosen from master data (a new choice must be active); a product's group must
//   be the collection's group. An Ablieferung named must be the tenant's, at the user's locations.
// - Certificates (nachweise.ts): existing, not cancelled, of the collection's group, no number twice; the
//   versioned list is what the versions show, the working table follows it in the same transaction. They are
//   added and removed on their tab (actions `nachweis` and `nachweis-entfernen`); the last one stays.
// - Linked Einlieferungen (verknuepfung.ts) must be of the collection's group: the group cannot change under
//   them, and a collection with linked deliveries cannot be cancelled (unlink first).
import { z } from 'zod';
import type { TenantScope } from '../../db/scope.js';
import type { Meta } from '../../db/versioned.js';
import { PRODUKTGRUPPEN, type Produktgruppe } from '../../domain/fuels.js';
import { zertifikatGruppe } from '../../domain/lieferkette.js';
import { EINHEITEN, inEinheitSql } from '../../domain/units.js';
import { ProblemError, conflict, invalid, type FieldError } from '../../errors.js';
import { stornoAction } from '../../records/actions.js';
import type { EntityConfig, FormField, RecordSection } from '../../records/entity.js';
import { requiredText } from '../../records/fields.js';
import type { ListDefinition } from '../../records/list/engine.js';
import type { RecordAction } from '../../records/service.js';
import { checkReference, choicesOf, currentRecord, masterDataChoices, type ReferenceField } from '../bewegungsdaten/references.js';
import { nachweisChoices, nachweiseDerAbholung, pruefeNachweise, spiegeleNachweise } from './nachweise.js';
import { abholungRoutes, rechteAus } from './routes.js';
import { AbholungSchema, abholungStore, type Abholung } from './store.js';
import { darfVerknuepfen, einlieferungChoices, einlieferungenDer } from './verknuepfung.js';

export { abholungStore, type Abholung } from './store.js';

/** A master-data reference of the collection, checked when newly chosen; the problem named at the collection's field. */
async function referenz(tx: TenantScope, ref: ReferenceField, field: string, nr: string, errors: FieldError[]) {
  const found: FieldError[] = [];
  const row = checkReference(ref, nr, await currentRecord(tx, ref, nr), found);
  errors.push(...found.map((e) => ({ ...e, field })));
  return row;
}

/** Checks a collection against the data it refers to; 400 with every problem at its field. */
async function prepare(tx: TenantScope, input: Abholung, before: (Abholung & Meta) | null): Promise<Abholung> {
  const errors: FieldError[] = [];
  const changed = <K extends keyof Abholung>(f: K) => !before || before[f] !== input[f];
  if (changed('lieferstelleNr')) await referenz(tx, 'standortNr', 'lieferstelleNr', input.lieferstelleNr, errors);
  if (input.produktNr && (changed('produktNr') || changed('produktgruppe'))) {
    const produkt = changed('produktNr') ? await referenz(tx, 'produktNr', 'produktNr', input.produktNr, errors) : await currentRecord(tx, 'produktNr', input.produktNr);
    if (produkt && produkt.produktgruppe !== input.produktgruppe) {
      errors.push({ field: 'produktgruppe', message: 'bewegungsdaten:errors.produktgruppe', params: { gruppe: produkt.produktgruppe, produkt: input.produktNr } });
    }
  }
  if (input.ablieferungNr && changed('ablieferungNr')) {
    const abl = await tx.table('ablieferungen').where({ nr: input.ablieferungNr }).first('standort_nr');
    if (!abl || !tx.allowsStandort(String(abl.standort_nr))) errors.push({ field: 'ablieferungNr', message: 'abholungen:errors.ablieferungUnbekannt', params: { nr: input.ablieferungNr } });
  }
  if (before && before.produktgruppe !== input.produktgruppe) {
    const other = await tx.table('einlieferungen').where({ abholung_nr: before.nr }).whereNot('produktgruppe', input.produktgruppe).first('nr');
    if (other) errors.push({ field: 'produktgruppe', message: 'abholungen:errors.gruppeVerknuepft', params: { nr: other.nr } });
  }
  const nachweise = input.nachweise ?? before?.nachweise ?? [];
  if (!nachweise.length) errors.push({ field: 'nachweise', message: 'abholungen:errors.mindestensEinNachweis' });
  // Unchanged certificates keep their place (a later cancellation of one does not block correcting a date);
  // a new group must fit them all.
  const geprueft = before && before.produktgruppe === input.produktgruppe ? before.nachweise ?? [] : [];
  errors.push(...(await pruefeNachweise(tx, nachweise, input.produktgruppe, geprueft)));
  if (errors.length) throw invalid(errors);
  return { ...input, nachweise, einheit: input.einheit ?? before?.einheit ?? 'L' };
}

/** The certificate's problems as its tab's form names them (the record's field is the list `nachweise`). */
async function alsNachweisNr<R>(run: () => Promise<R>): Promise<R> {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof ProblemError)) throw err;
    throw new ProblemError(err.kind, err.code, err.messageKey, err.errors.map((e) => (e.field === 'nachweise' ? { ...e, field: 'nachweisNr' } : e)), err.params);
  }
}

const NachweisInput = z.object({ nachweisNr: requiredText(32) });
type NachweisInput = z.infer<typeof NachweisInput>;

/** Puts a certificate on the collection (its tab's form; `POST …/{nr}/nachweis`). */
const nachweisHinzufuegen: RecordAction<Abholung, NachweisInput> = {
  name: 'nachweis',
  input: NachweisInput,
  section: 'nachweise',
  offered: (r) => !r.storniert,
  button: () => ({ label: 'abholungen:nachweise.hinzufuegen', variant: 'primary' }),
  async run({ record, input, save }) {
    const list = record.nachweise ?? [];
    if (list.includes(input.nachweisNr)) throw invalid([{ field: 'nachweisNr', message: 'abholungen:errors.nachweisDoppelt', params: { nr: input.nachweisNr } }]);
    const saved = await alsNachweisNr(() => save({ nachweise: [...list, input.nachweisNr] }));
    return { record: saved, flash: 'abholungen:flash.nachweisHinzugefuegt', audit: { before: { nachweise: list }, after: { nachweise: saved.nachweise } } };
  },
};

/** Takes a certificate off the collection; the last one stays (spec section 5). */
const nachweisEntfernen: RecordAction<Abholung, NachweisInput> = {
  name: 'nachweis-entfernen',
  input: NachweisInput,
  section: 'nachweise',
  offered: (r) => !r.storniert,
  button: () => ({ label: 'abholungen:nachweise.entfernen', variant: 'danger' }),
  async run({ record, input, save }) {
    const list = record.nachweise ?? [];
    if (!list.includes(input.nachweisNr)) throw invalid([{ field: 'nachweisNr', message: 'abholungen:errors.nachweisNichtDabei', params: { nr: input.nachweisNr } }]);
    if (list.length === 1) throw conflict('LETZTER_NACHWEIS', 'abholungen:errors.mindestensEinNachweis');
    const saved = await save({ nachweise: list.filter((nr) => nr !== input.nachweisNr) });
    return { record: saved, flash: 'abholungen:flash.nachweisEntfernt', audit: { before: { nachweise: list }, after: { nachweise: saved.nachweise } } };
  },
};

const storno = stornoAction<Abholung>();
/** Cancelling keeps the collection, marked; not while Einlieferungen are linked to it (their status would lie). */
const abholungStorno: RecordAction<Abholung, { storniert: boolean }> = {
  ...storno,
  button: (r) => ({ ...storno.button(r), hint: r.storniert ? 'abholungen:stornoAufhebenHint' : 'abholungen:stornierenHint' }),
  async run(ctx) {
    if (ctx.input.storniert) {
      const linked = await ctx.tx.table('einlieferungen').where({ abholung_nr: ctx.record.nr }).first('nr');
      if (linked) throw conflict('VERKNUEPFT', 'abholungen:errors.stornoVerknuepft');
    }
    return storno.run(ctx);
  },
};

const gruppenOptions = PRODUKTGRUPPEN.map((g) => ({ value: g, label: `produkte:gruppen.${g}` }));
const einheitOptions = EINHEITEN.map((u) => ({ value: u, label: `bewegungsdaten:einheiten.${u}` }));

const G = { abholung: 'abholungen:groups.abholung', produkt: 'abholungen:groups.produkt', mengen: 'abholungen:groups.mengen', weiteres: 'bewegungsdaten:groups.weiteres' };
const f = (name: string, kind: FormField['kind'], group: string, extra: Partial<FormField> = {}): FormField => ({ name, label: `abholungen:fields.${name}`, kind, group, ...extra });

const form: FormField[] = [
  f('lieferdatum', 'date', G.abholung, { required: true }),
  f('lieferstelleNr', 'select', G.abholung, { required: true, choices: choicesOf('standortNr'), hint: 'abholungen:hints.lieferstelleNr' }),
  f('lieferant', 'text', G.abholung, { maxLength: 200 }),
  f('bilanzierungNr', 'text', G.abholung, { maxLength: 50 }),
  f('ablieferungNr', 'text', G.abholung, { maxLength: 32, hint: 'abholungen:hints.ablieferungNr' }),
  f('nachweise', 'select', G.abholung, {
    required: true, multiple: true, fixed: true, choices: (scope) => nachweisChoices(scope), hint: 'abholungen:hints.nachweise', fixedHint: 'abholungen:hints.nachweiseFest',
  }),
  f('produktgruppe', 'select', G.produkt, { required: true, options: gruppenOptions }),
  f('produktNr', 'select', G.produkt, { choices: choicesOf('produktNr'), hint: 'abholungen:hints.produktNr' }),
  f('abgangProdukt', 'text', G.produkt, { maxLength: 200 }),
  f('produkttyp', 'text', G.produkt, { maxLength: 50 }),
  f('kraftstoffmenge', 'decimal', G.mengen, { required: true }),
  f('einheit', 'select', G.mengen, { required: true, options: einheitOptions }),
  f('menge', 'decimal', G.mengen),
  f('volumen', 'decimal', G.mengen),
  f('anteil', 'decimal', G.mengen, { hint: 'abholungen:hints.prozent' }),
  f('biogehalt', 'decimal', G.mengen, { hint: 'abholungen:hints.prozent' }),
  f('kommentar', 'textarea', G.weiteres, { maxLength: 2000, label: 'bewegungsdaten:fields.kommentar' }),
];

const T = 'a';
const detailHref = (r: { nr: string }, lang: string) => `/${lang}/bewegungsdaten/abholungen/${encodeURIComponent(r.nr)}`;
const menge = { menge: `${T}.kraftstoffmenge`, einheit: `${T}.einheit`, gruppe: `${T}.produktgruppe` };

// What fits 1366 px beside the sidebar: number, date, Lieferstelle, supplier, group, fuel amount, and how many
// certificates and deliveries it has; everything else is in the exports. Sorts and filters are index-served
// (list-plans.test.ts): number, date, Lieferstelle, group, cancelled.
const list: ListDefinition<Abholung & Meta> = {
  id: 'abholungen',
  columns: [
    { key: 'nr', label: 'records:fields.nr', sql: `${T}.nr`, notNull: true, href: detailHref },
    { key: 'lieferdatum', label: 'abholungen:fields.lieferdatum', sql: `${T}.lieferdatum`, notNull: true, kind: 'date' },
    { key: 'lieferstelleName', label: 'abholungen:fields.lieferstelleNr', pageOnly: true },
    { key: 'lieferstelleNr', label: 'abholungen:liste.lieferstelleNr', csvOnly: true },
    { key: 'lieferstelleName', label: 'abholungen:liste.lieferstelleName', csvOnly: true },
    { key: 'lieferant', label: 'abholungen:fields.lieferant' },
    // A cancelled collection is marked under its group (a column of its own would say „Gültig“ on every row).
    {
      key: 'produktgruppe', label: 'bewegungsdaten:fields.produktgruppe', badge: (r) => ({ label: `produkte:gruppen.${r.produktgruppe}`, variant: 'info' }),
      alsoBadge: (r) => (r.storniert ? { label: 'bewegungsdaten:storniert', variant: 'error' } : null),
    },
    { key: 'kraftstoffmenge', label: 'abholungen:fields.kraftstoffmenge', kind: 'number', digits: 0, suffix: (r) => String(r.einheit), pageOnly: true },
    // Every collection has a certificate; how many deliveries it arrived as says more on the page.
    { key: 'anzahlNachweise', label: 'abholungen:liste.nachweise', kind: 'number', digits: 0, csvOnly: true },
    { key: 'anzahlEinlieferungen', label: 'abholungen:liste.einlieferungen', kind: 'number', digits: 0 },
    { key: 'kraftstoffmengeExakt', label: 'abholungen:fields.kraftstoffmenge', kind: 'number', digits: 3, csvOnly: true },
    { key: 'einheit', label: 'bewegungsdaten:fields.einheit', csvOnly: true },
    { key: 'menge', label: 'abholungen:fields.menge', kind: 'number', digits: 3, csvOnly: true },
    { key: 'volumen', label: 'abholungen:fields.volumen', kind: 'number', digits: 3, csvOnly: true },
    { key: 'anteil', label: 'abholungen:fields.anteil', kind: 'number', digits: 2, csvOnly: true },
    { key: 'biogehalt', label: 'abholungen:fields.biogehalt', kind: 'number', digits: 2, csvOnly: true },
    { key: 'bilanzierungNr', label: 'abholungen:fields.bilanzierungNr', csvOnly: true },
    { key: 'ablieferungNr', label: 'abholungen:fields.ablieferungNr', csvOnly: true },
    { key: 'produktNr', label: 'abholungen:fields.produktNr', csvOnly: true },
    { key: 'abgangProdukt', label: 'abholungen:fields.abgangProdukt', csvOnly: true },
    { key: 'produkttyp', label: 'abholungen:fields.produkttyp', csvOnly: true },
    { key: 'nachweisListe', label: 'abholungen:fields.nachweise', csvOnly: true },
    { key: 'storniert', label: 'bewegungsdaten:fields.storniert', kind: 'boolean', csvOnly: true },
    { key: 'kommentar', label: 'bewegungsdaten:fields.kommentar', csvOnly: true },
  ],
  filters: [
    { key: 'von', label: 'bewegungsdaten:filters.von', kind: 'dateFrom', sql: `${T}.lieferdatum` },
    { key: 'bis', label: 'bewegungsdaten:filters.bis', kind: 'dateTo', sql: `${T}.lieferdatum` },
    { key: 'lieferstelleNr', label: 'abholungen:fields.lieferstelleNr', kind: 'select', sql: `${T}.lieferstelle_nr`, options: [] },
    { key: 'produktgruppe', label: 'bewegungsdaten:fields.produktgruppe', kind: 'select', sql: `${T}.produktgruppe`, options: gruppenOptions },
    { key: 'storniert', label: 'bewegungsdaten:fields.storniert', kind: 'boolean', sql: `${T}.storniert` },
  ],
  search: {
    table: 'abholungen', alias: T,
    words: ['nr', 'bilanzierung_nr', 'lieferant', 'ablieferung_nr', 'kommentar'],
    references: [{ column: 'lieferstelle_nr', master: 'standorte' }, { column: 'produkt_nr', master: 'produkte' }],
  },
  defaultSort: { key: 'lieferdatum', dir: 'desc' },
  tieBreaker: `${T}.nr`,
  query: (scope) => scope.atStandorte(scope.table('abholungen', T).select(`${T}.*`), `${T}.lieferstelle_nr`),
  // The Lieferstelle's name and the number of linked deliveries, for the page's rows only (an index lookup each).
  joined: {
    alias: T,
    add: (scope, qb) =>
      scope.leftJoin(qb, 'standorte', 's', (j) => j.on('s.nr', `${T}.lieferstelle_nr`)).select(
        's.name as lieferstelle_name',
        scope.knex.raw(`(select count(*) from einlieferungen e where e.mandant = ${T}.mandant and e.abholung_nr = ${T}.nr) as anzahl_einlieferungen`),
      ),
  },
  countsFollow: 'abholungen',
  toRow: (row) => {
    const a = abholungStore.fromRow(row);
    const nachweise = a.nachweise ?? [];
    return {
      ...a,
      kraftstoffmengeExakt: a.kraftstoffmenge,
      lieferstelleName: row.lieferstelle_name ?? a.lieferstelleNr,
      anzahlNachweise: nachweise.length,
      anzahlEinlieferungen: Number(row.anzahl_einlieferungen ?? 0),
      nachweisListe: nachweise.join(', '),
    };
  },
  totals: [
    { key: 'summeLiter', label: 'bewegungsdaten:totals.liter', sql: `case when not ${T}.storniert then ${inEinheitSql('L', menge)} end`, digits: 0 },
    { key: 'summeKg', label: 'bewegungsdaten:totals.kg', sql: `case when not ${T}.storniert then ${inEinheitSql('kg', menge)} end`, digits: 0 },
  ],
  choices: async (scope) => ({ lieferstelleNr: (await masterDataChoices(scope, { activeOnly: false })).standortNr }),
};

/** The certificates tab: each with its characteristics, a form to add a fitting one, a remove button per row. */
const nachweiseTab: RecordSection<Abholung> = {
  key: 'nachweise',
  label: 'abholungen:tabs.nachweise',
  view: 'abholungen/nachweise',
  locals: async ({ scope, editScope, record }) => {
    const a = record!;
    const nachweise = await nachweiseDerAbholung(scope, a.nachweise ?? []);
    const offen = !a.storniert && editScope.allowsStandort(a.lieferstelleNr);
    // Certificates of the bio component's group (a B7 collection carries biodiesel ones).
    return { nachweise, zertifikatGruppe: zertifikatGruppe(a.produktgruppe as Produktgruppe), nachweisAuswahl: offen ? await nachweisChoices(editScope, { produktgruppe: a.produktgruppe, ohne: a.nachweise ?? [] }) : [] };
  },
};

/** The Einlieferungen tab: the linked deliveries, an unlink button per row, a form to link one. */
const einlieferungenTab: RecordSection<Abholung> = {
  key: 'einlieferungen',
  label: 'abholungen:tabs.einlieferungen',
  view: 'abholungen/einlieferungen',
  locals: async ({ scope, record, scopeFor }) => {
    const a = record!;
    const rechte = rechteAus(scopeFor);
    const zeilen = (await einlieferungenDer(scope, a.nr)).map((e) => ({
      ...e, sichtbar: rechte.einlieferungen.view.allowsStandort(e.standortNr), loesbar: darfVerknuepfen(rechte, e.standortNr, a.lieferstelleNr),
    }));
    // Deliveries arrive where the collection was delivered: the form offers those, and takes any number typed.
    const kannVerknuepfen = !a.storniert && darfVerknuepfen(rechte, a.lieferstelleNr, a.lieferstelleNr);
    return { einlieferungen: zeilen, kannVerknuepfen, einlieferungAuswahl: kannVerknuepfen ? await einlieferungChoices(rechte.einlieferungen.view, a) : [] };
  },
};

export const abholungConfig: EntityConfig<Abholung> = {
  resource: 'abholungen',
  path: 'bewegungsdaten/abholungen',
  area: 'abholungen',
  ns: 'abholungen',
  store: abholungStore,
  schema: AbholungSchema as unknown as z.ZodType<Abholung>,
  list,
  form,
  defaults: { einheit: 'L' },
  standortOf: (r) => r.lieferstelleNr ?? null,
  locatedBy: 'lieferstelleNr',
  prepare,
  afterSave: (tx, record) => spiegeleNachweise(tx, record),
  badge: () => null,
  actions: [abholungStorno, nachweisHinzufuegen, nachweisEntfernen],
  sections: [nachweiseTab, einlieferungenTab],
  // The certificate list in a version: one number per line.
  formatValue: (field, value) => (field === 'nachweise' && Array.isArray(value) ? (value.length ? value.map(String) : ['–']) : undefined),
  extraRoutes: abholungRoutes,
  api: {
    // GET of one collection: its Lieferstelle with name, its certificates with their characteristics, and the
    // Einlieferungen linked to it (list rows and write answers keep the numbers only).
    detail: async (scope, a) => {
      const nachweise = await nachweiseDerAbholung(scope, a.nachweise ?? []);
      const einlieferungen = await einlieferungenDer(scope, a.nr);
      const stelle = await scope.table('standorte').where({ nr: a.lieferstelleNr }).first('name');
      return {
        lieferstelle: { nr: a.lieferstelleNr, name: stelle?.name ?? null },
        nachweise: nachweise.map(({ menge: _m, einheit: _e, storniert: _s, ...n }) => n),
        einlieferungen: einlieferungen.map(({ storniert: _s, standortNr: _o, ...e }) => e),
      };
    },
    // What detail adds (its certificates replace the numbers with the certificates' characteristics).
    fields: {
      lieferstelle: z.object({ nr: z.string(), name: z.string().nullable() }).strict().optional(),
      nachweise: z.array(z.union([z.string(), z.record(z.string(), z.unknown())])).nullable(),
      einlieferungen: z.array(z.record(z.string(), z.unknown())).optional(),
    },
  },
};
