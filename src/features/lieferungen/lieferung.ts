// Inbound and outbound deliveries are the same kind of record: a quantity with its unit on a day, of a product,
// with a partner, at a location, in a status, possibly cancelled. They differ only in the names the spec gives
// three fields (entladeneMenge/unitOfMeasure/entladedatum versus menge/uomMenge/lieferdatum) and in what later
// features hang on them. `lieferungEntity` declares one from those names; both tables share one column layout.
//
// Rules (spec sections 3–5): partner, location and product are chosen from master data and stored as number
// plus version, so a delivery keeps showing them as they were; an unchanged reference keeps its version when
// the delivery is edited. The product group must be the product's; an empty one (and an empty bio content)
// is taken from the product. A completed or locked delivery cannot be changed. A cancelled one stays, marked,
// and counts in no total.
import { proposeNumber } from '../../db/numbers.js';
import { z } from 'zod';
import type { TenantScope } from '../../db/scope.js';
import { VersionedStore, type Meta } from '../../db/versioned.js';
import { PRODUKTGRUPPEN } from '../../domain/fuels.js';
import { EINHEITEN, inEinheitSql } from '../../domain/units.js';
import { HttpError, type FieldError } from '../../http/errors.js';
import { checkbox, choice, date, decimal, optionalChoice, optionalText, requiredText } from '../../records/fields.js';
import type { ListColumn, ListDefinition, ListFilter } from '../../records/list/engine.js';
import type { Area } from '../../permissions/index.js';
import { stornoAction } from '../../records/actions.js';
import type { BadgeVariant, EntityConfig, FormField } from '../../records/entity.js';
import { INCOTERMS, LIEFERSTATUS, type LieferungNames, type Lieferstatus } from './names.js';
import { atVersion, checkReference, choicesOf, currentRecord, lieferungMasterData, masterDataChoices, REFERENCES, referenzSpalten, type MasterRow, type ReferenceField } from '../bewegungsdaten/references.js';

export { INCOTERMS, LIEFERSTATUS, type LieferungNames, type Lieferstatus } from './names.js';
const STATUS_BADGE: Record<Lieferstatus, BadgeVariant> = { open: 'info', inProgress: 'warning', completed: 'success', locked: 'neutral' };

/**
 * More than the world moves in a year cannot be one delivery: about 4.5 billion tonnes of oil, some
 * 5 · 10¹² litres. Anything above is a typing mistake (a date or a number pasted into the quantity).
 */
export const MAX_MENGE = 5_000_000_000_000;

export interface LieferungSpec {
  resource: 'einlieferungen' | 'ablieferungen';
  area: Area;
  names: LieferungNames;
  /** What the chain of custody adds to one direction's list (an inbound delivery's link status, an outbound one's certificate status). */
  listExtras?: LieferungListExtras;
}

/** Columns and filters of one direction's list beyond the shared ones, computed from linked records. */
export interface LieferungListExtras {
  /** Added after the status column. */
  columns: ListColumn<Lieferung & Meta>[];
  /** A second badge in the status column on the page (the computed status; the exports have it as a column of its own). */
  statusBadge?: ListColumn<Lieferung & Meta>['alsoBadge'];
  /** Added after the status filter. */
  filters: ListFilter[];
  /** SQL select fragments over the list's alias `d` that give each row the columns' values, e.g. `(case … end) as verknuepfung_status`. */
  select?: string[];
  /** The extra fields of a row, from the database row. */
  toRow?: (row: Record<string, unknown>) => Record<string, unknown>;
  /** The tables the computed values come from: their changes also refresh a remembered count. */
  follows?: string[];
}

export type Lieferung = Record<string, unknown> & {
  partnerNr: string;
  standortNr: string;
  produktNr: string;
  produktgruppe: string | null;
  status?: Lieferstatus;
  storniert?: boolean;
};

/** A flag that stays absent unless sent (an update without it leaves it as it was). */
const optionalFlag = () =>
  z.unknown().optional().transform((v, ctx) => {
    if (v === undefined || v === '') return undefined;
    const flag = checkbox().safeParse(v);
    if (flag.success) return flag.data;
    ctx.addIssue({ code: 'custom', message: 'validation.invalidType' });
    return z.NEVER;
  });

/** Input of a delivery (form and API): its own fields; versions, manual entry and cancellation are set here. */
export function lieferungSchema(names: LieferungNames) {
  return z.object({
    typ: optionalText(50),
    biogehalt: decimal({ min: 0, max: 100, scale: 4 }),
    [names.menge]: decimal({ min: 0.001, max: MAX_MENGE, scale: 3, required: true }),
    [names.einheit]: choice(EINHEITEN),
    [names.datum]: date({ required: true }),
    status: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.enum(LIEFERSTATUS, { error: 'validation.invalid' }).optional()),
    partnerNr: requiredText(32),
    standortNr: requiredText(32),
    produktNr: requiredText(32),
    produktgruppe: optionalChoice(PRODUKTGRUPPEN),
    contractNumber: optionalText(100),
    incoterm: optionalChoice(INCOTERMS),
    vehicleName: optionalText(100),
    kommentar: optionalText(2000),
    storniert: optionalFlag(),
  }) as unknown as z.ZodType<Lieferung>;
}

export function lieferungStore(spec: LieferungSpec) {
  const { names } = spec;
  return new VersionedStore<Lieferung>({
    table: spec.resource,
    managedStatus: false,
    fields: {
      typ: 'typ', biogehalt: 'biogehalt', [names.menge]: 'menge', [names.einheit]: 'einheit', [names.datum]: 'datum', status: 'status',
      manuelleEingabe: 'manuelle_eingabe', partnerNr: 'partner_nr', partnerVersion: 'partner_version', standortNr: 'standort_nr',
      standortVersion: 'standort_version', produktNr: 'produkt_nr', produktVersion: 'produkt_version', produktgruppe: 'produktgruppe',
      contractNumber: 'contract_number', incoterm: 'incoterm', vehicleName: 'vehicle_name', kommentar: 'kommentar', storniert: 'storniert',
      // An inbound delivery's collection (the chain of custody): set and cleared only by linking (features/abholungen).
      ...(spec.resource === 'einlieferungen' ? { abholungNr: 'abholung_nr' } : {}),
    } as Record<string, string> as VersionedStore<Lieferung>['spec']['fields'],
  });
}

/** The master data a delivery's checks look at, however it was loaded (one record, or a whole import's). */
export interface MasterLookup {
  /** The current record of a number, or null. */
  current(field: ReferenceField, nr: string): MasterRow | null;
  /** The product as it was in one version (an unchanged reference keeps its version). */
  produktAt(nr: string, version: number): Record<string, unknown> | null;
}

/**
 * Completes a delivery before it is stored: new references resolved to their current version (unchanged ones
 * keep theirs), product group and bio content from the product, status open when not given. Every problem is
 * returned at once, each naming its field. Pure: the entry form and the import load the master data their own
 * way and apply the same rules.
 */
export function completeLieferung(input: Lieferung, before: (Lieferung & Meta) | null, masters: MasterLookup): { delivery: Lieferung; errors: FieldError[] } {
  const out: Lieferung = { ...input };
  const errors: FieldError[] = [];
  let produkt: Record<string, unknown> | null = null;
  for (const field of Object.keys(REFERENCES) as ReferenceField[]) {
    const nr = input[field];
    const versionField = REFERENCES[field].versionField;
    if (before && before[field] === nr) {
      out[versionField] = before[versionField];
      if (field === 'produktNr') produkt = masters.produktAt(nr, before[versionField] as number);
      continue;
    }
    const row = checkReference(field, nr, masters.current(field, nr), errors);
    if (row) out[versionField] = row.version;
    if (field === 'produktNr' && row) produkt = row;
  }
  if (produkt) {
    if (input.produktgruppe && input.produktgruppe !== produkt.produktgruppe) {
      errors.push({ field: 'produktgruppe', message: 'bewegungsdaten:errors.produktgruppe', params: { gruppe: produkt.produktgruppe, produkt: input.produktNr } });
    }
    out.produktgruppe = produkt.produktgruppe as string;
    if (out.biogehalt == null) out.biogehalt = produkt.biogehalt == null ? null : String(produkt.biogehalt);
  }
  if (!out.status) out.status = before?.status ?? 'open';
  return { delivery: out, errors };
}

/** completeLieferung for one delivery of a form or the API, its master data read from the database; 400 on problems. */
export async function prepareLieferung(scope: TenantScope, input: Lieferung, before: (Lieferung & Meta) | null): Promise<Lieferung> {
  const current = new Map<ReferenceField, MasterRow | null>();
  for (const field of Object.keys(REFERENCES) as ReferenceField[]) {
    if (!(before && before[field] === input[field])) current.set(field, await currentRecord(scope, field, input[field]));
  }
  const produktThen = before && before.produktNr === input.produktNr ? await atVersion(scope, 'produktNr', input.produktNr, before.produktVersion as number) : null;
  const { delivery, errors } = completeLieferung(input, before, {
    current: (field) => current.get(field) ?? null,
    produktAt: () => produktThen,
  });
  if (errors.length) throw new HttpError(400, 'VALIDATION', 'errors.badRequest', errors);
  return delivery;
}

/** Completed and locked deliveries are final. */
export function lieferungLockedReason(record: Lieferung & Meta): string | null {
  if (record.status === 'locked') return 'bewegungsdaten:locked.locked';
  if (record.status === 'completed') return 'bewegungsdaten:locked.completed';
  return null;
}

const statusOptions = LIEFERSTATUS.map((s) => ({ value: s, label: `bewegungsdaten:status.${s}` }));
const gruppenOptions = PRODUKTGRUPPEN.map((g) => ({ value: g, label: `produkte:gruppen.${g}` }));

/** The list: filters of the issue (date range, partner, location, product, group, status, cancelled) and the sums. */
function lieferungList(spec: LieferungSpec, store: VersionedStore<Lieferung>): ListDefinition<Lieferung & Meta> {
  const { names, resource, listExtras: extras } = spec;
  const T = 'd';
  const menge = { menge: `${T}.menge`, einheit: `${T}.einheit`, gruppe: `${T}.produktgruppe` };
  const exakt = `${names.menge}Exakt`;
  return {
    id: resource,
    columns: [
      { key: 'nr', label: 'records:fields.nr', sql: `${T}.nr`, notNull: true, href: (r, lang) => `/${lang}/bewegungsdaten/${resource}/${encodeURIComponent(r.nr)}` },
      { key: names.datum, label: `${resource}:fields.${names.datum}`, sql: `${T}.datum`, notNull: true, kind: 'date' },
      // Partner, location and product by name on screen (the filters choose them); numbers and names in the export.
      ...referenzSpalten('partner', T),
      ...referenzSpalten('standort', T),
      ...referenzSpalten('produkt', T),
      // On screen to the litre with its unit, and a cancelled delivery marked in its status; the export has
      // every field on its own, the quantity exact.
      { key: names.menge, label: `${resource}:fields.${names.menge}`, sql: `${T}.menge`, notNull: true, kind: 'number', digits: 'asStored', suffix: (r) => String(r[names.einheit]), pageOnly: true },
      {
        key: 'status', label: 'bewegungsdaten:fields.status', sql: `${T}.status`, notNull: true, pageOnly: true,
        badge: (r) => (r.storniert ? { label: 'bewegungsdaten:storniert', variant: 'error' } : { label: `bewegungsdaten:status.${r.status}`, variant: STATUS_BADGE[r.status as Lieferstatus] ?? 'neutral' }),
        // A cancelled delivery says only that: it counts nowhere, whatever it was linked to.
        alsoBadge: extras?.statusBadge && ((r) => (r.storniert ? null : extras.statusBadge!(r))),
      },
      ...(extras?.columns ?? []),
      { key: 'produktgruppe', label: 'bewegungsdaten:fields.produktgruppe', csvOnly: true, badge: (r) => ({ label: `produkte:gruppen.${r.produktgruppe}`, variant: 'info' }) },
      { key: exakt, label: `${resource}:fields.${names.menge}`, kind: 'number', digits: 3, csvOnly: true },
      { key: names.einheit, label: 'bewegungsdaten:fields.einheit', csvOnly: true },
      { key: 'biogehalt', label: 'bewegungsdaten:fields.biogehalt', kind: 'number', digits: 2, csvOnly: true },
      { key: 'statusCsv', label: 'bewegungsdaten:fields.status', csvOnly: true, badge: (r) => ({ label: `bewegungsdaten:status.${r.status}`, variant: 'neutral' }) },
      { key: 'storniert', label: 'bewegungsdaten:fields.storniert', kind: 'boolean', csvOnly: true },
      { key: 'typ', label: 'bewegungsdaten:fields.typ', csvOnly: true },
      { key: 'contractNumber', label: 'bewegungsdaten:fields.contractNumber', csvOnly: true },
      { key: 'incoterm', label: 'bewegungsdaten:fields.incoterm', csvOnly: true },
      { key: 'vehicleName', label: 'bewegungsdaten:fields.vehicleName', csvOnly: true },
      { key: 'manuelleEingabe', label: 'bewegungsdaten:fields.manuelleEingabe', kind: 'boolean', csvOnly: true },
      { key: 'kommentar', label: 'bewegungsdaten:fields.kommentar', csvOnly: true },
    ],
    filters: [
      { key: 'von', label: 'bewegungsdaten:filters.von', kind: 'dateFrom', sql: `${T}.datum` },
      { key: 'bis', label: 'bewegungsdaten:filters.bis', kind: 'dateTo', sql: `${T}.datum` },
      { key: 'partnerNr', label: 'bewegungsdaten:fields.partner', kind: 'select', sql: `${T}.partner_nr`, options: [] },
      { key: 'standortNr', label: 'bewegungsdaten:fields.standort', kind: 'select', sql: `${T}.standort_nr`, options: [] },
      { key: 'produktNr', label: 'bewegungsdaten:fields.produkt', kind: 'select', sql: `${T}.produkt_nr`, options: [] },
      { key: 'produktgruppe', label: 'bewegungsdaten:fields.produktgruppe', kind: 'select', sql: `${T}.produktgruppe`, options: gruppenOptions },
      { key: 'status', label: 'bewegungsdaten:fields.status', kind: 'select', sql: `${T}.status`, options: statusOptions },
      ...(extras?.filters ?? []),
      { key: 'storniert', label: 'bewegungsdaten:fields.storniert', kind: 'boolean', sql: `${T}.storniert` },
    ],
    // Own texts by word, partner, location and product by number and name (src/records/list/search.ts).
    search: {
      table: resource, alias: T,
      words: ['nr', 'contract_number', 'vehicle_name', 'kommentar', 'typ'],
      references: [{ column: 'partner_nr', master: 'tauschpartner' }, { column: 'standort_nr', master: 'standorte' }, { column: 'produkt_nr', master: 'produkte' }],
    },
    defaultSort: { key: names.datum, dir: 'desc' },
    tieBreaker: `${T}.nr`,
    query: (scope) => scope.atStandorte(scope.table(resource, T).select(`${T}.*`), `${T}.standort_nr`),
    // Every sort reads the delivery's own columns, each with an index ending in the number (list-plans.test.ts).
    keysFirst: { alias: T },
    // Names as the delivery saw them: from the version it refers to (joined to the page's rows only), and the
    // statuses computed from linked records.
    joined: {
      alias: T,
      add: (scope, qb) => {
        for (const [table, v, ref] of [['tauschpartner_versionen', 'pv', 'partner'], ['standorte_versionen', 'sv', 'standort'], ['produkte_versionen', 'prv', 'produkt']]) {
          qb = scope.leftJoin(qb, table, v, (j) => j.on(`${v}.nr`, `${T}.${ref}_nr`).andOn(`${v}.version`, `${T}.${ref}_version`));
        }
        // The computed statuses too (listExtras.select): for the rows shown, never for those OFFSET skips.
        return qb.select(scope.knex.raw("pv.data->>'name' as partner_name, sv.data->>'name' as standort_name, prv.data->>'name' as produkt_name"), ...(extras?.select ?? []).map((x) => scope.knex.raw(x)));
      },
    },
    countsFollow: [resource, ...(extras?.follows ?? [])],
    // The delivery, its partner's, location's and product's versions (never changed once written) and the
    // statuses computed from the followed tables (listExtras.follows): nothing else, so a page may be remembered.
    rememberPages: true,
    // Added to the new record fromRow made, not spread into another: a page's rows and an export's 100,000.
    toRow: (row) => {
      const record = store.fromRow(row);
      const d: Record<string, unknown> = record;
      d[exakt] = d[names.menge];
      d.partnerName = row.partner_name ?? d.partnerNr;
      d.standortName = row.standort_name ?? d.standortNr;
      d.produktName = row.produkt_name ?? d.produktNr;
      const more = extras?.toRow?.(row);
      return more ? Object.assign(record, more) : record;
    },
    // Cancelled deliveries count in no total; the sum of nothing is 0.
    totals: [
      { key: 'summeLiter', label: 'bewegungsdaten:totals.liter', sql: `case when not ${T}.storniert then ${inEinheitSql('L', menge)} end`, digits: 0 },
      { key: 'summeKg', label: 'bewegungsdaten:totals.kg', sql: `case when not ${T}.storniert then ${inEinheitSql('kg', menge)} end`, digits: 0 },
    ],
    choices: (scope) => masterDataChoices(scope, { activeOnly: false }),
  };
}

function lieferungForm(spec: LieferungSpec): FormField[] {
  const { names, resource } = spec;
  const lieferung = 'bewegungsdaten:groups.lieferung';
  const beteiligte = 'bewegungsdaten:groups.beteiligte';
  const weiteres = 'bewegungsdaten:groups.weiteres';
  return [
    { name: names.datum, label: `${resource}:fields.${names.datum}`, kind: 'date', required: true, group: lieferung },
    { name: 'status', label: 'bewegungsdaten:fields.status', kind: 'select', required: true, options: statusOptions, group: lieferung },
    { name: names.menge, label: `${resource}:fields.${names.menge}`, kind: 'decimal', required: true, group: lieferung },
    { name: names.einheit, label: 'bewegungsdaten:fields.einheit', kind: 'select', required: true, options: EINHEITEN.map((u) => ({ value: u, label: `bewegungsdaten:einheiten.${u}` })), group: lieferung },
    { name: 'partnerNr', label: 'bewegungsdaten:fields.partner', kind: 'select', required: true, choices: choicesOf('partnerNr'), group: beteiligte },
    { name: 'standortNr', label: 'bewegungsdaten:fields.standort', kind: 'select', required: true, choices: choicesOf('standortNr'), group: beteiligte },
    { name: 'produktNr', label: 'bewegungsdaten:fields.produkt', kind: 'select', required: true, choices: choicesOf('produktNr'), group: beteiligte },
    { name: 'produktgruppe', label: 'bewegungsdaten:fields.produktgruppe', kind: 'select', options: gruppenOptions, hint: 'bewegungsdaten:hints.produktgruppe', group: beteiligte },
    { name: 'biogehalt', label: 'bewegungsdaten:fields.biogehalt', kind: 'decimal', hint: 'bewegungsdaten:hints.biogehalt', group: beteiligte },
    { name: 'typ', label: 'bewegungsdaten:fields.typ', kind: 'text', maxLength: 50, hint: 'bewegungsdaten:hints.typ', group: weiteres },
    { name: 'contractNumber', label: 'bewegungsdaten:fields.contractNumber', kind: 'text', maxLength: 100, group: weiteres },
    { name: 'incoterm', label: 'bewegungsdaten:fields.incoterm', kind: 'select', options: INCOTERMS.map((i) => ({ value: i, label: `bewegungsdaten:incoterms.${i}` })), group: weiteres },
    { name: 'vehicleName', label: 'bewegungsdaten:fields.vehicleName', kind: 'text', maxLength: 100, group: weiteres },
    { name: 'kommentar', label: 'bewegungsdaten:fields.kommentar', kind: 'textarea', maxLength: 2000, group: weiteres },
  ];
}

/** The whole declaration of a delivery entity; einlieferungen/ablieferungen add their own hooks to it. */
export function lieferungEntity(spec: LieferungSpec): EntityConfig<Lieferung> {
  const store = lieferungStore(spec);
  return {
    resource: spec.resource,
    path: `bewegungsdaten/${spec.resource}`,
    area: spec.area,
    ns: spec.resource,
    store,
    schema: lieferungSchema(spec.names),
    list: lieferungList(spec, store),
    form: lieferungForm(spec),
    proposeNr: (scope) => proposeNumber(scope, spec.resource, spec.resource === 'einlieferungen' ? 'EL-' : 'AL-'),
    keyFields: [spec.names.datum, { field: spec.names.menge, unit: spec.names.einheit }, 'partnerNr', 'standortNr', 'produktNr'],
    actions: [stornoAction()],
    onCreate: { manuelleEingabe: true },
    defaults: { status: 'open', [spec.names.einheit]: 'L' },
    standortOf: (r) => r.standortNr ?? null,
    locatedBy: 'standortNr',
    prepare: prepareLieferung,
    lockedReason: lieferungLockedReason,
    badge: (r) => ({ label: `bewegungsdaten:status.${r.status}`, variant: STATUS_BADGE[r.status as Lieferstatus] ?? 'neutral' }),
    // Partner, location and product as the delivery saw them (the versions it refers to): a tab of its own.
    sections: [{
      key: 'stammdaten',
      label: 'bewegungsdaten:referenzen.tab',
      view: 'bewegungsdaten/referenzen',
      locals: async ({ scope, record }) => ({ referenzen: await lieferungMasterData(scope, record!), manuelleEingabe: record!.manuelleEingabe === true }),
    }],
  };
}
