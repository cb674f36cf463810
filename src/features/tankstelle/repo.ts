// The reads of the Tankstelle (filling-station view): the tanks of a location (a product with a Bestand or an
// inbound delivery there), their latest Bestand, what certificates stand behind their inbound deliveries, the
// certificates not yet linked, the outbound use, the latest deliveries, the pump view's outbound deliveries and
// the chain view's deliveries with their certificates.
//
// Every read covers all tanks of the location at once (grouped by product), so a location with ten tanks costs
// the same handful of statements as one with a single tank. Every query is a tenant query (scope.table,
// scope.leftJoin); the location is checked against the user's locations by the service before anything here runs.
import type { Knex } from 'knex';
import type { TenantScope } from '../../db/scope.js';
import type { Produktgruppe } from '../../domain/fuels.js';
import type { VerknuepfungStatus, ZertifikatStatus } from '../../domain/lieferkette.js';
import type { Einheit } from '../../domain/units.js';
import { VERKNUEPFUNG_STATUS_SQL } from '../abholungen/einlieferung-status.js';
import type { Lieferstatus } from '../lieferungen/names.js';
import { mitNamen, OFFENE_STATUS } from '../nachweisverfolgung/repo.js';
import { ZERTIFIKAT_STATUS_SQL } from '../zuordnung/status.js';

type Row = Record<string, unknown>;
const text = (v: unknown) => (v == null ? null : String(v));

export interface StandortZeile {
  nr: string;
  name: string;
}

/** The locations the scope may see, by number. */
export async function standorte(scope: TenantScope): Promise<StandortZeile[]> {
  const rows = (await scope.atStandorte(scope.table('standorte').select('nr', 'name').orderBy('nr'), 'nr')) as Row[];
  return rows.map((r) => ({ nr: String(r.nr), name: String(r.name) }));
}

export interface Einstellungen {
  reichweiteTage: number;
  verbrauchTage: number;
}

/** The tenant's settings of the traffic light (mandanten.tank_reichweite_tage, tank_verbrauch_tage). */
export async function einstellungen(scope: TenantScope, forUpdate = false): Promise<Einstellungen> {
  const qb = scope.table('mandanten').first('tank_reichweite_tage', 'tank_verbrauch_tage');
  const row = (await (forUpdate ? qb.forUpdate() : qb)) as Row | undefined;
  return { reichweiteTage: Number(row?.tank_reichweite_tage ?? 14), verbrauchTage: Number(row?.tank_verbrauch_tage ?? 14) };
}

export async function einstellungenSchreiben(tx: TenantScope, e: Einstellungen): Promise<void> {
  await tx.table('mandanten').update({ tank_reichweite_tage: e.reichweiteTage, tank_verbrauch_tage: e.verbrauchTage, updated_at: tx.knex.fn.now() });
}

export interface TankZeile {
  produktNr: string;
  produktName: string;
  /** The product's bio share, %. */
  biogehalt: string;
  produktgruppe: Produktgruppe;
  /** The latest Bestand up to `heute`. */
  bestand: { datum: string; volumen: string; fuellstand: string | null } | null;
}

/**
 * The tanks of a location: every product with a Bestand or an inbound delivery (not cancelled) there, by number,
 * with its latest Bestand up to `heute`. `produktNr`: that tank only.
 */
export async function tanks(scope: TenantScope, standortNr: string, heute: string, produktNr?: string): Promise<TankZeile[]> {
  // Asked per product (a tenant has tens), each an index look-up, rather than collecting the products of every
  // delivery of the location (thousands).
  const eins = scope.knex.raw('1');
  const hatBestand = scope.table('bestaende', 'b0').where('b0.standort_nr', standortNr).whereRaw('b0.produkt_nr = p.nr').select(eins);
  const hatEinlieferung = scope.table('einlieferungen', 'e').where({ 'e.standort_nr': standortNr, 'e.storniert': false })
    .whereRaw('e.produkt_nr = p.nr').select(eins);
  const produkte = scope.table('produkte', 'p').where((q) => q.whereExists(hatBestand).orWhereExists(hatEinlieferung))
    .select('p.nr', 'p.name', 'p.biogehalt', 'p.produktgruppe')
    .orderBy('p.nr');
  if (produktNr !== undefined) produkte.where('p.nr', produktNr);
  const letzte = scope.table('bestaende', 'b').where('b.standort_nr', standortNr).where('b.datum', '<=', heute)
    .distinctOn('b.produkt_nr').select('b.produkt_nr', 'b.datum', 'b.volumen', 'b.fuellstand')
    .orderBy('b.produkt_nr').orderBy('b.datum', 'desc').orderBy('b.nr', 'desc');
  if (produktNr !== undefined) letzte.where('b.produkt_nr', produktNr);
  const [rows, bestaende] = (await Promise.all([produkte, letzte])) as [Row[], Row[]];
  const bestandNach = new Map(bestaende.map((b) => [String(b.produkt_nr), b]));
  return rows.map((r) => {
    const b = bestandNach.get(String(r.nr));
    return {
      produktNr: String(r.nr),
      produktName: String(r.name),
      biogehalt: String(r.biogehalt),
      produktgruppe: r.produktgruppe as Produktgruppe,
      bestand: b ? { datum: String(b.datum), volumen: String(b.volumen), fuellstand: text(b.fuellstand) } : null,
    };
  });
}

/** A certificate with rest on the collection of an inbound delivery of the location. */
export interface VerknuepfterNachweis {
  einlieferungNr: string;
  datum: string;
  status: Lieferstatus;
  produktNr: string;
  nachweisNr: string;
  rest: string;
  einheit: Einheit;
  produktgruppe: Produktgruppe;
  vorlaeufig: boolean;
}

/**
 * The certificates with rest (not cancelled) carried by the collections (not cancelled) of the location's inbound
 * deliveries (not cancelled): one row per delivery and certificate, so the caller can count each certificate once.
 */
export async function verknuepfteNachweise(scope: TenantScope, standortNr: string): Promise<VerknuepfterNachweis[]> {
  let qb = scope.table('einlieferungen', 'd').where({ 'd.standort_nr': standortNr, 'd.storniert': false }).whereNotNull('d.abholung_nr');
  qb = scope.leftJoin(qb, 'abholungen', 'a', (j) => j.on('a.nr', 'd.abholung_nr'));
  qb = scope.leftJoin(qb, 'abholung_nachweise', 'an', (j) => j.on('an.abholung_nr', 'a.nr'));
  qb = scope.leftJoin(qb, 'nachweise', 'n', (j) => j.on('n.nr', 'an.nachweis_nr'));
  const rows = (await qb.where('a.storniert', false).where('n.storniert', false).where('n.menge_verbleibend', '>', 0)
    .select('d.nr', 'd.datum', 'd.status', 'd.produkt_nr', 'n.nr as nachweis_nr', 'n.menge_verbleibend', 'n.einheit', 'n.produktgruppe', 'n.vorlaeufig')
    .orderBy('d.datum').orderBy('d.nr').orderBy('n.nr')) as Row[];
  return rows.map((r) => ({
    einlieferungNr: String(r.nr),
    datum: String(r.datum),
    status: r.status as Lieferstatus,
    produktNr: String(r.produkt_nr),
    nachweisNr: String(r.nachweis_nr),
    rest: String(r.menge_verbleibend),
    einheit: r.einheit as Einheit,
    produktgruppe: r.produktgruppe as Produktgruppe,
    vorlaeufig: Boolean(r.vorlaeufig),
  }));
}

export interface OffeneEinlieferung {
  nr: string;
  datum: string;
  status: Lieferstatus;
  produktNr: string;
}

/** The location's inbound deliveries not yet completed (open, in progress), not cancelled: successors. */
export async function offeneEinlieferungen(scope: TenantScope, standortNr: string): Promise<OffeneEinlieferung[]> {
  const rows = (await scope.table('einlieferungen', 'd').where({ 'd.standort_nr': standortNr, 'd.storniert': false })
    .whereIn('d.status', [...OFFENE_STATUS]).select('d.nr', 'd.datum', 'd.status', 'd.produkt_nr').orderBy('d.datum').orderBy('d.nr')) as Row[];
  return rows.map((r) => ({ nr: String(r.nr), datum: String(r.datum), status: r.status as Lieferstatus, produktNr: String(r.produkt_nr) }));
}

/**
 * The newest completed inbound delivery of each product at the location: a tank whose deliveries have no rest and
 * none under way still had deliveries (the traffic light's "keine aktive Lieferung", not "keine Lieferungen").
 */
export async function letzteAbgeschlossene(scope: TenantScope, standortNr: string): Promise<OffeneEinlieferung[]> {
  // Per product, newest first, the first completed one: a few index entries each (einlieferungen_standort_produkt_idx),
  // where DISTINCT ON sorted every delivery of the location.
  const neueste = scope.table('einlieferungen', 'd').where({ 'd.standort_nr': standortNr, 'd.storniert': false })
    .whereRaw('d.produkt_nr = p.nr').whereNotIn('d.status', [...OFFENE_STATUS]).select('d.nr', 'd.datum', 'd.status', 'd.produkt_nr')
    .orderBy('d.datum', 'desc').orderBy('d.nr', 'desc').limit(1);
  const rows = (await scope.table('produkte', 'p').joinRaw('cross join lateral ? as l', [neueste as unknown as Knex.Raw])
    .select('l.nr', 'l.datum', 'l.status', 'l.produkt_nr').orderBy('p.nr')) as Row[];
  return rows.map((r) => ({ nr: String(r.nr), datum: String(r.datum), status: r.status as Lieferstatus, produktNr: String(r.produkt_nr) }));
}

/**
 * Certificates at the location with rest, not cancelled, carried by no collection, counted per certificate group:
 * certificates received for a tank but not yet linked to a delivery (successors).
 */
export async function unverknuepfteNachweise(scope: TenantScope, standortNr: string): Promise<Map<Produktgruppe, number>> {
  const getragen = scope.table('abholung_nachweise', 'an').whereRaw('an.nachweis_nr = n.nr').select(scope.knex.raw('1'));
  const rows = (await scope.table('nachweise', 'n').where({ 'n.standort_nr': standortNr, 'n.storniert': false, 'n.mit_rest': true })
    .whereNotExists(getragen).groupBy('n.produktgruppe').select('n.produktgruppe').count('* as anzahl')) as Row[];
  return new Map(rows.map((r) => [r.produktgruppe as Produktgruppe, Number(r.anzahl)]));
}

export interface AbgabeZeile {
  nr: string;
  datum: string;
  produktNr: string;
  menge: string;
  einheit: Einheit;
  biogehalt: string | null;
  produktgruppe: Produktgruppe;
}

const abgabeAus = (r: Row): AbgabeZeile => ({
  nr: String(r.nr),
  datum: String(r.datum),
  produktNr: String(r.produkt_nr),
  menge: String(r.menge),
  einheit: r.einheit as Einheit,
  biogehalt: text(r.biogehalt),
  produktgruppe: r.produktgruppe as Produktgruppe,
});

/** The location's outbound deliveries (not cancelled) from `von` to `bis` (ISO days, both included). */
export async function abgaben(scope: TenantScope, standortNr: string, von: string, bis: string): Promise<AbgabeZeile[]> {
  const rows = (await scope.table('ablieferungen', 'd').where({ 'd.standort_nr': standortNr, 'd.storniert': false })
    .whereBetween('d.datum', [von, bis]).select('d.nr', 'd.datum', 'd.produkt_nr', 'd.menge', 'd.einheit', 'd.biogehalt', 'd.produktgruppe')) as Row[];
  return rows.map(abgabeAus);
}

export interface PumpenZeile extends AbgabeZeile {
  partnerNr: string;
  partnerName: string | null;
  produktName: string | null;
  zertifikatStatus: ZertifikatStatus;
}

/** As abgaben, with the partner's name and the certificate status, newest first (date, then number). */
export async function abgabenMitStatus(scope: TenantScope, standortNr: string, von: string, bis: string): Promise<PumpenZeile[]> {
  const qb = scope.table('ablieferungen', 'd').where({ 'd.standort_nr': standortNr, 'd.storniert': false })
    .whereBetween('d.datum', [von, bis])
    .select('d.nr', 'd.datum', 'd.produkt_nr', 'd.menge', 'd.einheit', 'd.biogehalt', 'd.produktgruppe', 'd.partner_nr')
    .select(scope.knex.raw(`${ZERTIFIKAT_STATUS_SQL} as zertifikat_status`));
  const rows = (await mitNamen(scope, qb, 'd').orderBy('d.datum', 'desc').orderBy('d.nr', 'desc')) as Row[];
  return rows.map((r) => ({
    ...abgabeAus(r),
    partnerNr: String(r.partner_nr),
    partnerName: text(r.partner_name),
    produktName: text(r.produkt_name),
    zertifikatStatus: (r.zertifikat_status ?? 'keine') as ZertifikatStatus,
  }));
}

export interface LetzteLieferungZeile {
  art: 'ein' | 'ab';
  nr: string;
  datum: string;
  partnerNr: string;
  partnerName: string | null;
  produktNr: string;
  produktName: string | null;
  menge: string;
  einheit: Einheit;
  status: Lieferstatus;
  zertifikatStatus: ZertifikatStatus | null;
  verknuepfungStatus: VerknuepfungStatus | null;
}

/**
 * The `anzahl` most recent deliveries at the location, inbound and outbound, not cancelled, newest first (date,
 * then number; inbound before outbound on a tie of both): the newest of each kind, merged.
 */
export async function letzteLieferungen(scope: TenantScope, standortNr: string, anzahl: number): Promise<LetzteLieferungZeile[]> {
  const art = (table: 'einlieferungen' | 'ablieferungen') => {
    const statusSql = table === 'einlieferungen' ? `${VERKNUEPFUNG_STATUS_SQL} as verknuepfung_status` : `${ZERTIFIKAT_STATUS_SQL} as zertifikat_status`;
    const qb = scope.table(table, 'd').where({ 'd.standort_nr': standortNr, 'd.storniert': false })
      .select('d.nr', 'd.datum', 'd.partner_nr', 'd.produkt_nr', 'd.menge', 'd.einheit', 'd.status')
      .select(scope.knex.raw(statusSql))
      .orderBy('d.datum', 'desc').orderBy('d.nr', 'desc').limit(anzahl);
    return mitNamen(scope, qb, 'd') as Knex.QueryBuilder;
  };
  const [ein, ab] = (await Promise.all([art('einlieferungen'), art('ablieferungen')])) as [Row[], Row[]];
  const zeile = (a: 'ein' | 'ab') => (r: Row): LetzteLieferungZeile => ({
    art: a,
    nr: String(r.nr),
    datum: String(r.datum),
    partnerNr: String(r.partner_nr),
    partnerName: text(r.partner_name),
    produktNr: String(r.produkt_nr),
    produktName: text(r.produkt_name),
    menge: String(r.menge),
    einheit: r.einheit as Einheit,
    status: r.status as Lieferstatus,
    zertifikatStatus: a === 'ab' ? ((r.zertifikat_status ?? 'keine') as ZertifikatStatus) : null,
    verknuepfungStatus: a === 'ein' ? ((r.verknuepfung_status ?? 'nicht_verknuepft') as VerknuepfungStatus) : null,
  });
  const alle = [...ein.map(zeile('ein')), ...ab.map(zeile('ab'))];
  alle.sort((x, y) => (x.datum !== y.datum ? (x.datum < y.datum ? 1 : -1) : x.nr !== y.nr ? (x.nr < y.nr ? 1 : -1) : x.art === y.art ? 0 : x.art === 'ein' ? -1 : 1));
  return alle.slice(0, anzahl);
}

export interface KettenLieferung {
  nr: string;
  datum: string;
  menge: string;
  einheit: Einheit;
  biogehalt: string | null;
  produktgruppe: Produktgruppe;
  partnerNr: string;
  partnerName: string | null;
  abholungNr: string | null;
}

/** A page of a tank's inbound deliveries (not cancelled), newest first, with the partner's name. */
export async function einlieferungenNeuesteZuerst(scope: TenantScope, standortNr: string, produktNr: string, offset: number, limit: number): Promise<KettenLieferung[]> {
  const qb = scope.table('einlieferungen', 'd').where({ 'd.standort_nr': standortNr, 'd.produkt_nr': produktNr, 'd.storniert': false })
    .select('d.nr', 'd.datum', 'd.menge', 'd.einheit', 'd.biogehalt', 'd.produktgruppe', 'd.partner_nr', 'd.abholung_nr');
  const rows = (await mitNamen(scope, qb, 'd').orderBy('d.datum', 'desc').orderBy('d.nr', 'desc').offset(offset).limit(limit)) as Row[];
  return rows.map((r) => ({
    nr: String(r.nr),
    datum: String(r.datum),
    menge: String(r.menge),
    einheit: r.einheit as Einheit,
    biogehalt: text(r.biogehalt),
    produktgruppe: r.produktgruppe as Produktgruppe,
    partnerNr: String(r.partner_nr),
    partnerName: text(r.partner_name),
    abholungNr: text(r.abholung_nr),
  }));
}

/**
 * The certificates (not cancelled) of the collections (not cancelled) of one page of einlieferungenNeuesteZuerst(),
 * by collection: read with the page, so the chain view needs no further round trip for them.
 */
export async function nachweiseDerSeite(scope: TenantScope, standortNr: string, produktNr: string, offset: number, limit: number): Promise<KettenNachweis[]> {
  const seite = scope.table('einlieferungen', 'd').where({ 'd.standort_nr': standortNr, 'd.produkt_nr': produktNr, 'd.storniert': false })
    .select('d.abholung_nr').orderBy('d.datum', 'desc').orderBy('d.nr', 'desc').offset(offset).limit(limit);
  return nachweiseZu(scope, scope.table('abholung_nachweise', 'an').whereIn('an.abholung_nr', seite));
}

export interface KettenNachweis {
  abholungNr: string;
  nr: string;
  rest: string;
  einheit: Einheit;
  vorlaeufig: boolean;
  thg: string | null;
}

/** The certificates (not cancelled) of the collections (not cancelled) that `an` (abholung_nachweise) names, by number. */
async function nachweiseZu(scope: TenantScope, an: Knex.QueryBuilder): Promise<KettenNachweis[]> {
  let qb = an;
  qb = scope.leftJoin(qb, 'abholungen', 'a', (j) => j.on('a.nr', 'an.abholung_nr'));
  qb = scope.leftJoin(qb, 'nachweise', 'n', (j) => j.on('n.nr', 'an.nachweis_nr'));
  const rows = (await qb.where('a.storniert', false).where('n.storniert', false)
    .select('an.abholung_nr', 'n.nr', 'n.menge_verbleibend', 'n.einheit', 'n.vorlaeufig', 'n.thg').orderBy('n.nr')) as Row[];
  return rows.map((r) => ({
    abholungNr: String(r.abholung_nr),
    nr: String(r.nr),
    rest: String(r.menge_verbleibend),
    einheit: r.einheit as Einheit,
    vorlaeufig: Boolean(r.vorlaeufig),
    thg: text(r.thg),
  }));
}
