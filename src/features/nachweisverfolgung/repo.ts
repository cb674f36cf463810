// The chain of custody as data: the reads the tracing (trace.ts) and a proof's chain-of-custody tabs
// (nachweisbescheinigungen/config.ts) are made of. The links are the shared schema's
// (migrations/20261129000000_lieferkette.ts): a collection carries certificates (`abholung_nachweise`), an
// Einlieferung belongs to one collection (`einlieferungen.abholung_nr`), a certificate is assigned to an
// Ablieferung as a live proof issued for it (`nachweisbescheinigungen.ablieferung_nr`, not cancelled), and
// certificates and proofs are parts of others (`referenz_nachweis_nr`).
//
// Every query is a tenant query (scope.table, scope.leftJoin, scope.scoped) and takes a whole set of numbers
// (whereIn): a trace costs a fixed handful of statements however many nodes it has. Each answer is capped
// (MAX_KNOTEN rows, chains MAX_TIEFE deep); `gekappt` says when the cap cut something off. Rows come back
// with their location, and `sichtbar` keeps those of the scope's locations: what lies elsewhere is left out,
// and the caller learns only that something was (never what).
import type { Knex } from 'knex';
import type { TenantScope } from '../../db/scope.js';
import type { Einheit } from '../../domain/units.js';
import type { Produktgruppe } from '../../domain/fuels.js';
import type { Lieferstatus } from '../lieferungen/names.js';

/** A chain of parts deeper than this is cut (a loop in the data must not hang a page either). */
export const MAX_TIEFE = 20;
/** At most this many rows per read, and nodes per trace. */
export const MAX_KNOTEN = 500;

export const ARTEN = ['ablieferung', 'einlieferung'] as const;
export type Art = (typeof ARTEN)[number];
export const TABELLE: Record<Art, 'ablieferungen' | 'einlieferungen'> = { ablieferung: 'ablieferungen', einlieferung: 'einlieferungen' };

/** Statuses of a delivery that is not yet completed: what it is linked to cannot be relied on yet. */
export const OFFENE_STATUS: readonly Lieferstatus[] = ['open', 'inProgress'];

export interface LieferungZeile {
  art: Art;
  nr: string;
  datum: string;
  menge: string;
  einheit: Einheit;
  biogehalt: string | null;
  status: Lieferstatus;
  storniert: boolean;
  produktgruppe: Produktgruppe;
  partnerNr: string;
  partnerName: string | null;
  standortNr: string;
  standortName: string | null;
  produktNr: string;
  produktName: string | null;
  /** An Einlieferung's collection. */
  abholungNr: string | null;
}

export interface AbholungZeile {
  nr: string;
  lieferdatum: string;
  lieferstelleNr: string;
  lieferant: string | null;
  produktgruppe: Produktgruppe;
  kraftstoffmenge: string;
  einheit: Einheit;
  storniert: boolean;
}

export interface NachweisZeile {
  nr: string;
  referenzNachweisNr: string | null;
  standortNr: string;
  produktgruppe: Produktgruppe;
  menge: string;
  mengeVerbleibend: string;
  einheit: Einheit;
  thg: string | null;
  einsparung: string | null;
  vorlaeufig: boolean;
  storniert: boolean;
  ausstellungsdatum: string;
  zeitraumBis: string | null;
  rohstoff: string | null;
  lieferant: string | null;
  lieferantZertifikatNr: string | null;
}

export interface BescheinigungZeile {
  nr: string;
  nachweisNr: string;
  referenzNachweisNr: string | null;
  ablieferungNr: string | null;
  standortNr: string;
  produktgruppe: Produktgruppe;
  lieferdatum: string;
  volumen: string;
  volumenVerbleibend: string;
  einheit: Einheit;
  thgEmission: string | null;
  storniert: boolean;
}

/** The rows of one read that the scope may see, and whether the cap or the locations left any out. */
export interface Gelesen<R> {
  zeilen: R[];
  /** More rows than MAX_KNOTEN, or a chain deeper than MAX_TIEFE. */
  gekappt: boolean;
  /** Rows at locations the scope may not see were left out. */
  ausgeblendet: boolean;
}

type Row = Record<string, unknown>;
const text = (v: unknown) => (v == null ? null : String(v));

/** The rows the scope may see (by their location), capped. */
function sichtbar<R>(scope: TenantScope, rows: Row[], standort: (r: Row) => unknown, map: (r: Row) => R, gekappt = false): Gelesen<R> {
  const capped = gekappt || rows.length > MAX_KNOTEN;
  const kept = rows.slice(0, MAX_KNOTEN).filter((r) => scope.allowsStandort(text(standort(r))));
  return { zeilen: kept.map(map), gekappt: capped, ausgeblendet: kept.length < Math.min(rows.length, MAX_KNOTEN) };
}

const leer = <R>(): Gelesen<R> => ({ zeilen: [], gekappt: false, ausgeblendet: false });

// ---------------------------------------------------------------------------------------------------------
// Deliveries

function lieferungAus(art: Art, r: Row): LieferungZeile {
  return {
    art,
    nr: String(r.nr),
    datum: String(r.datum),
    menge: String(r.menge),
    einheit: r.einheit as Einheit,
    biogehalt: text(r.biogehalt),
    status: r.status as Lieferstatus,
    storniert: Boolean(r.storniert),
    produktgruppe: r.produktgruppe as Produktgruppe,
    partnerNr: String(r.partner_nr),
    partnerName: text(r.partner_name),
    standortNr: String(r.standort_nr),
    standortName: text(r.standort_name),
    produktNr: String(r.produkt_nr),
    produktName: text(r.produkt_name),
    abholungNr: text(r.abholung_nr),
  };
}

/**
 * The names of a delivery's partner, location and product as the delivery saw them (the versions it refers
 * to), joined to a query of deliveries under `alias`: the delivery lists and the tracing's index show the same.
 */
export function mitNamen(scope: TenantScope, qb: Knex.QueryBuilder, alias: string): Knex.QueryBuilder {
  for (const [table, v, ref] of [['tauschpartner_versionen', 'pv', 'partner'], ['standorte_versionen', 'sv', 'standort'], ['produkte_versionen', 'prv', 'produkt']]) {
    qb = scope.leftJoin(qb, table, v, (j) => j.on(`${v}.nr`, `${alias}.${ref}_nr`).andOn(`${v}.version`, `${alias}.${ref}_version`));
  }
  return qb.select(scope.knex.raw("pv.data->>'name' as partner_name, sv.data->>'name' as standort_name, prv.data->>'name' as produkt_name"));
}

async function lieferungenWo(scope: TenantScope, art: Art, where: (qb: Knex.QueryBuilder) => void): Promise<Gelesen<LieferungZeile>> {
  const qb = scope.table(TABELLE[art], 'd').select('d.*');
  where(qb);
  const rows = (await mitNamen(scope, qb, 'd').orderBy('d.datum').orderBy('d.nr').limit(MAX_KNOTEN + 1)) as Row[];
  return sichtbar(scope, rows, (r) => r.standort_nr, (r) => lieferungAus(art, r));
}

/** Deliveries of one kind by number. */
export function lieferungen(scope: TenantScope, art: Art, nrs: readonly string[]): Promise<Gelesen<LieferungZeile>> {
  if (!nrs.length) return Promise.resolve(leer());
  return lieferungenWo(scope, art, (qb) => qb.whereIn('d.nr', [...new Set(nrs)]));
}

/** The Einlieferungen that arrived as these collections (not cancelled). */
export function einlieferungenVon(scope: TenantScope, abholungNrs: readonly string[]): Promise<Gelesen<LieferungZeile>> {
  if (!abholungNrs.length) return Promise.resolve(leer());
  return lieferungenWo(scope, 'einlieferung', (qb) => qb.whereIn('d.abholung_nr', [...new Set(abholungNrs)]).where('d.storniert', false));
}

/** Which kinds of delivery have this number, of those the scope may see: one statement for both tables. */
export async function artenMitNr(scope: TenantScope, nr: string): Promise<Art[]> {
  const teil = (art: Art) => scope.atStandorte(scope.table(TABELLE[art]).where('nr', nr).select(scope.knex.raw('?::text as art', [art])), 'standort_nr');
  const rows = (await teil('ablieferung').unionAll(teil('einlieferung'), true)) as { art: Art }[];
  return ARTEN.filter((a) => rows.some((r) => r.art === a));
}

// ---------------------------------------------------------------------------------------------------------
// Collections

function abholungAus(r: Row): AbholungZeile {
  return {
    nr: String(r.nr),
    lieferdatum: String(r.lieferdatum),
    lieferstelleNr: String(r.lieferstelle_nr),
    lieferant: text(r.lieferant),
    produktgruppe: r.produktgruppe as Produktgruppe,
    kraftstoffmenge: String(r.kraftstoffmenge),
    einheit: r.einheit as Einheit,
    storniert: Boolean(r.storniert),
  };
}

type AbholungMitNachweisen = AbholungZeile & { nachweisNrs: string[] };

/**
 * Collections (not cancelled) with the numbers of the certificates they carry (all of them, also those of other
 * locations: the certificates' own read decides what is shown), in one statement.
 */
async function abholungenWo(scope: TenantScope, where: (qb: Knex.QueryBuilder) => void): Promise<Gelesen<AbholungMitNachweisen>> {
  const { knex } = scope;
  const qb = scope.table('abholungen', 'a').where('a.storniert', false).select('a.*');
  where(qb);
  const rows = (await scope.leftJoin(qb, 'abholung_nachweise', 'ak', (j) => j.on('ak.abholung_nr', 'a.nr'))
    .select(knex.raw("coalesce(array_agg(ak.nachweis_nr order by ak.nachweis_nr) filter (where ak.nachweis_nr is not null), '{}'::text[]) as nachweis_nrs"))
    .groupBy('a.mandant', 'a.nr')
    .orderBy('a.lieferdatum').orderBy('a.nr')
    .limit(MAX_KNOTEN + 1)) as Row[];
  return sichtbar(scope, rows, (r) => r.lieferstelle_nr, (r) => ({ ...abholungAus(r), nachweisNrs: (r.nachweis_nrs as string[] | null) ?? [] }));
}

/** Collections by number, with their certificates. */
export function abholungen(scope: TenantScope, nrs: readonly string[]): Promise<Gelesen<AbholungMitNachweisen>> {
  if (!nrs.length) return Promise.resolve(leer());
  return abholungenWo(scope, (qb) => qb.whereIn('a.nr', [...new Set(nrs)]));
}

/** Collections that carry any of these certificates, with all their certificates. */
export function abholungenMit(scope: TenantScope, nachweisNrs: readonly string[]): Promise<Gelesen<AbholungMitNachweisen>> {
  if (!nachweisNrs.length) return Promise.resolve(leer());
  const traegt = scope.table('abholung_nachweise', 'an').whereIn('an.nachweis_nr', [...new Set(nachweisNrs)]).select('an.abholung_nr');
  return abholungenWo(scope, (qb) => qb.whereIn('a.nr', traegt));
}

// ---------------------------------------------------------------------------------------------------------
// Certificates and proofs, with their chains of parts

function nachweisAus(r: Row): NachweisZeile {
  return {
    nr: String(r.nr),
    referenzNachweisNr: text(r.referenz_nachweis_nr),
    standortNr: String(r.standort_nr),
    produktgruppe: r.produktgruppe as Produktgruppe,
    menge: String(r.menge),
    mengeVerbleibend: String(r.menge_verbleibend),
    einheit: r.einheit as Einheit,
    thg: text(r.thg),
    einsparung: text(r.einsparung),
    vorlaeufig: Boolean(r.vorlaeufig),
    storniert: Boolean(r.storniert),
    ausstellungsdatum: String(r.ausstellungsdatum),
    zeitraumBis: text(r.zeitraum_bis),
    rohstoff: text(r.rohstoff),
    lieferant: text(r.lieferant),
    lieferantZertifikatNr: text(r.lieferant_zertifikat_nr),
  };
}

function bescheinigungAus(r: Row): BescheinigungZeile {
  return {
    nr: String(r.nr),
    nachweisNr: String(r.nachweis_nr),
    referenzNachweisNr: text(r.referenz_nachweis_nr),
    ablieferungNr: text(r.ablieferung_nr),
    standortNr: String(r.standort_nr),
    produktgruppe: r.produktgruppe as Produktgruppe,
    lieferdatum: String(r.lieferdatum),
    volumen: String(r.volumen),
    volumenVerbleibend: String(r.volumen_verbleibend),
    einheit: r.einheit as Einheit,
    thgEmission: text(r.thg_emission),
    storniert: Boolean(r.storniert),
  };
}

/**
 * The records `nrs` of a table with parts (nachweise, nachweisbescheinigungen) and their chain along
 * `referenz_nachweis_nr`: upward their parents to the original (`hoch`), downward every part split off them
 * and its parts (`runter`; cancelled parts, an undone split, are left out). One recursive statement, at most
 * MAX_TIEFE steps from the start; each record once, with its distance.
 */
async function kette(scope: TenantScope, table: 'nachweise' | 'nachweisbescheinigungen', nrs: readonly string[], richtung: 'hoch' | 'runter') {
  const { knex } = scope;
  const start = scope.table(table, 's').whereIn('s.nr', [...new Set(nrs)]).select('s.nr', 's.referenz_nachweis_nr', knex.raw('0 as tiefe'));
  const schritt = scope.table(table, 'p')
    .join('kette as k', richtung === 'hoch' ? 'p.nr' : 'p.referenz_nachweis_nr', richtung === 'hoch' ? 'k.referenz_nachweis_nr' : 'k.nr')
    // One step beyond the limit, so that a cut chain is noticed.
    .where('k.tiefe', '<=', MAX_TIEFE)
    .select('p.nr', 'p.referenz_nachweis_nr', knex.raw('k.tiefe + 1'));
  if (richtung === 'runter') schritt.where('p.storniert', false);
  const qb = scope.scoped(
    knex.withRecursive('kette', ['nr', 'referenz_nachweis_nr', 'tiefe'], start.unionAll(schritt))
      .from('kette as k')
      .distinctOn('k.nr')
      .select('k.tiefe')
      .orderBy('k.nr')
      .orderBy('k.tiefe'),
  );
  const joined = scope.leftJoin(qb, table, 'r', (j) => j.on('r.nr', 'k.nr')).select('r.*');
  // The nearest first, so a cap keeps what lies closest to the start.
  const rows = (await scope.scoped(knex.from(joined.as('x')).select('*').orderBy('tiefe').orderBy('nr').limit(MAX_KNOTEN + 2))) as Row[];
  const zuTief = rows.some((r) => Number(r.tiefe) > MAX_TIEFE);
  return { rows: rows.filter((r) => Number(r.tiefe) <= MAX_TIEFE), gekappt: zuTief };
}

/** Certificates with their parents up to the original, or with every part split off them. */
export async function nachweiseKette(scope: TenantScope, nrs: readonly string[], richtung: 'hoch' | 'runter'): Promise<Gelesen<NachweisZeile>> {
  if (!nrs.length) return leer();
  const { rows, gekappt } = await kette(scope, 'nachweise', nrs, richtung);
  return sichtbar(scope, rows, (r) => r.standort_nr, nachweisAus, gekappt);
}

/** Proofs with every part split off them (not cancelled). */
export async function bescheinigungenKette(scope: TenantScope, nrs: readonly string[]): Promise<Gelesen<BescheinigungZeile>> {
  if (!nrs.length) return leer();
  const { rows, gekappt } = await kette(scope, 'nachweisbescheinigungen', nrs, 'runter');
  return sichtbar(scope, rows.filter((r) => !r.storniert), (r) => r.standort_nr, bescheinigungAus, gekappt);
}

async function bescheinigungenWo(scope: TenantScope, where: (qb: Knex.QueryBuilder) => void): Promise<Gelesen<BescheinigungZeile>> {
  const qb = scope.table('nachweisbescheinigungen', 'b').where('b.storniert', false).select('b.*');
  where(qb);
  const rows = (await qb.orderBy('b.lieferdatum').orderBy('b.nr').limit(MAX_KNOTEN + 1)) as Row[];
  return sichtbar(scope, rows, (r) => r.standort_nr, bescheinigungAus);
}

/** The live proofs made from these certificates (parts split off a proof carry its certificate too). */
export function bescheinigungenAus(scope: TenantScope, nachweisNrs: readonly string[]) {
  if (!nachweisNrs.length) return Promise.resolve(leer<BescheinigungZeile>());
  return bescheinigungenWo(scope, (qb) => qb.whereIn('b.nachweis_nr', [...new Set(nachweisNrs)]));
}

/** An Ablieferung's live assignments: the proofs issued for it and not cancelled. */
export function zuordnungen(scope: TenantScope, ablieferungNr: string) {
  return bescheinigungenWo(scope, (qb) => qb.where('b.ablieferung_nr', ablieferungNr));
}

// ---------------------------------------------------------------------------------------------------------
// What the tracking labels need beyond the nodes

export interface OffeneLieferungen {
  /** Certificates carried by a collection (not cancelled) at all: their own collections decide, not their parent's. */
  getragen: Set<string>;
  /** Certificates carried by a collection with an Einlieferung not yet completed. */
  einOffen: Set<string>;
  /** Certificates assigned (a live proof) to an Ablieferung not yet completed. */
  ausOffen: Set<string>;
  /** Proofs issued for an Ablieferung not yet completed. */
  bescheinigungOffen: Set<string>;
}

/**
 * Which of these certificates are carried by a collection, and which of them and of these proofs are linked to a
 * delivery not yet completed (open or in progress): one statement. Asked across the tenant's locations: a label says whether a certificate can be relied on,
 * whichever location the delivery that holds it up lies at; it names no delivery.
 */
export async function offeneLieferungen(scope: TenantScope, nachweisNrs: readonly string[], bescheinigungNrs: readonly string[]): Promise<OffeneLieferungen> {
  const out: OffeneLieferungen = { getragen: new Set(), einOffen: new Set(), ausOffen: new Set(), bescheinigungOffen: new Set() };
  if (!nachweisNrs.length && !bescheinigungNrs.length) return out;
  const { knex } = scope;
  const offen = [...OFFENE_STATUS];
  const getragen = () => scope.leftJoin(scope.table('abholung_nachweise', 'an').whereIn('an.nachweis_nr', [...new Set(nachweisNrs)]), 'abholungen', 'a', (j) => j.on('a.nr', 'an.abholung_nr'))
    .where('a.storniert', false);
  const traeger = getragen().select(knex.raw("'getragen'::text as art"), 'an.nachweis_nr as nr');
  const ein = scope.leftJoin(getragen(), 'einlieferungen', 'e', (j) => j.on('e.abholung_nr', 'an.abholung_nr'))
    .where('e.storniert', false).whereIn('e.status', offen)
    .select(knex.raw("'ein'::text as art"), 'an.nachweis_nr as nr');
  const zugeordnet = (spalte: 'nachweis_nr' | 'nr', nrs: readonly string[], art: string) => scope.leftJoin(
    scope.table('nachweisbescheinigungen', 'b').whereIn(`b.${spalte}`, [...new Set(nrs)]).whereNotNull('b.ablieferung_nr').where('b.storniert', false),
    'ablieferungen', 'l', (j) => j.on('l.nr', 'b.ablieferung_nr'),
  ).where('l.storniert', false).whereIn('l.status', offen).select(knex.raw('?::text as art', [art]), `b.${spalte} as nr`);
  const rows = (await traeger.union([ein, zugeordnet('nachweis_nr', nachweisNrs, 'aus'), zugeordnet('nr', bescheinigungNrs, 'nb')], true)) as { art: string; nr: string }[];
  const sets: Record<string, Set<string>> = { getragen: out.getragen, ein: out.einOffen, aus: out.ausOffen, nb: out.bescheinigungOffen };
  for (const r of rows) sets[r.art].add(r.nr);
  return out;
}
