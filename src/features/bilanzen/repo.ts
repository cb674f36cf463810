// The SQL of the Bilanzen: the Bilanz row, its positions and lines, and the inputs of an allocation (the
// certificates with rest at the location, the partners' outbound deliveries of the period with what is already
// covered of each). Every query goes through the tenant scope; rows outside the user's locations are not found.
import type { Knex } from 'knex';
import type { TenantScope } from '../../db/scope.js';
import type { AllocationLieferung, AllocationPosition, AllocationZertifikat, Begruendung } from '../../domain/allocation.js';
import { isProduktgruppe, REFERENZWERTE, type Produktgruppe } from '../../domain/fuels.js';
import { lcvUmrechnen } from '../../domain/ghg.js';
import { nachweisAblaufAus } from '../../domain/gesetzeswerte.js';
import { ausMilli, bioMenge, milli, zertifikatGruppe } from '../../domain/lieferkette.js';
import { umrechnen, type Einheit } from '../../domain/units.js';
import { zeilen as gesetzeswertZeilen } from '../gesetzeswerte/repo.js';

export type BilanzStatus = 'offen' | 'geschlossen';

export interface BilanzRow {
  id: number;
  standortNr: string;
  produktNr: string;
  zeitraumVon: string;
  zeitraumBis: string;
  status: BilanzStatus;
  einheit: Einheit;
  verteiltAm: string | null;
  mengeGesamt: string | null;
  bioMenge: string | null;
  zugeordnet: string | null;
  restBioMenge: string | null;
  thgMinderungT: string | null;
  nichtGedeckt: { ablieferungNr: string; positionId: number; offen: string }[];
  geschlossenAm: string | null;
  kommentar: string | null;
  version: number;
  updatedAt: string;
}

export interface PositionRow {
  id: number;
  partnerNr: string;
  prioritaet: number;
  biogehalt: string | null;
  bioMenge: string | null;
  status: BilanzStatus;
}

export interface ZeileRow {
  nr: number;
  positionId: number;
  ablieferungNr: string;
  nachweisNr: string;
  menge: string;
  thg: string | null;
  thgMinderungT: string | null;
  vorlaeufig: boolean;
  begruendung: Begruendung;
  nachweisbescheinigungNr: string | null;
}

const dec = (v: unknown) => (v == null ? null : String(v));
/** Exact decimals without trailing zeros ("18000.000" → "18000"), as the engine writes them. */
export const knapp = (v: unknown) => (v == null ? null : ausMilli(milli(String(v))));
const iso = (v: unknown) => (v == null ? null : v instanceof Date ? v.toISOString() : String(v));
const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;

export const toBilanz = (r: Record<string, unknown>): BilanzRow => ({
  id: Number(r.id),
  standortNr: String(r.standort_nr),
  produktNr: String(r.produkt_nr),
  zeitraumVon: String(r.zeitraum_von),
  zeitraumBis: String(r.zeitraum_bis),
  status: r.status as BilanzStatus,
  einheit: r.einheit as Einheit,
  verteiltAm: iso(r.verteilt_am),
  mengeGesamt: knapp(r.menge_gesamt),
  bioMenge: knapp(r.bio_menge),
  zugeordnet: knapp(r.zugeordnet),
  restBioMenge: knapp(r.rest_bio_menge),
  thgMinderungT: dec(r.thg_minderung_t) == null ? null : String(Number(r.thg_minderung_t)),
  nichtGedeckt: json(r.nicht_gedeckt ?? []),
  geschlossenAm: iso(r.geschlossen_am),
  kommentar: (r.kommentar as string) ?? null,
  version: Number(r.version),
  updatedAt: iso(r.updated_at)!,
});

const toPosition = (r: Record<string, unknown>): PositionRow => ({
  id: Number(r.id),
  partnerNr: String(r.partner_nr),
  prioritaet: Number(r.prioritaet),
  biogehalt: knapp(r.biogehalt),
  bioMenge: knapp(r.bio_menge),
  status: r.status as BilanzStatus,
});

const toZeile = (r: Record<string, unknown>): ZeileRow => ({
  nr: Number(r.nr),
  positionId: Number(r.position_id),
  ablieferungNr: String(r.ablieferung_nr),
  nachweisNr: String(r.nachweis_nr),
  menge: knapp(r.menge)!,
  thg: dec(r.thg) == null ? null : String(Number(r.thg)),
  thgMinderungT: dec(r.thg_minderung_t) == null ? null : String(Number(r.thg_minderung_t)),
  vorlaeufig: r.vorlaeufig === true,
  begruendung: json(r.begruendung),
  nachweisbescheinigungNr: (r.nachweisbescheinigung_nr as string) ?? null,
});

/** The Bilanz if the scope may see it (its location), else null; `lock` holds it until the transaction ends. */
export async function bilanz(scope: TenantScope, id: number, lock = false): Promise<BilanzRow | null> {
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) return null;
  const q = scope.atStandorte(scope.table('bilanzen').where({ id }), 'standort_nr');
  const row = await (lock ? q.forUpdate() : q).first();
  return row ? toBilanz(row) : null;
}

export async function positionen(scope: TenantScope, id: number): Promise<PositionRow[]> {
  const rows = await scope.table('bilanz_positionen').where({ bilanz_id: id }).orderBy([{ column: 'prioritaet' }, { column: 'partner_nr' }, { column: 'id' }]);
  return rows.map(toPosition);
}

export async function zeilen(scope: TenantScope, id: number): Promise<ZeileRow[]> {
  const rows = await scope.table('bilanz_zeilen').where({ bilanz_id: id }).orderBy('nr');
  return rows.map(toZeile);
}

/** Names of partners, locations and products for display. */
export async function namen(scope: TenantScope, table: 'tauschpartner' | 'standorte' | 'produkte', nrs: readonly string[]): Promise<Map<string, string>> {
  if (!nrs.length) return new Map();
  const rows = await scope.table(table).whereIn('nr', [...new Set(nrs)]).select('nr', 'name');
  return new Map(rows.map((r: Record<string, unknown>) => [String(r.nr), String(r.name ?? r.nr)]));
}

/** The delivery dates of lines' deliveries, for the grid. */
export async function lieferdaten(scope: TenantScope, nrs: readonly string[]): Promise<Map<string, { datum: string; partnerNr: string }>> {
  if (!nrs.length) return new Map();
  const rows = await scope.table('ablieferungen').whereIn('nr', [...new Set(nrs)]).select('nr', 'datum', 'partner_nr');
  return new Map(rows.map((r: Record<string, unknown>) => [String(r.nr), { datum: String(r.datum), partnerNr: String(r.partner_nr) }]));
}

/** Another Bilanz of the location and product whose period meets [von, bis], if any. */
export async function ueberschneidung(scope: TenantScope, b: { standortNr: string; produktNr: string; zeitraumVon: string; zeitraumBis: string }, ausser?: number) {
  const q = scope.table('bilanzen').where({ standort_nr: b.standortNr, produkt_nr: b.produktNr })
    .where('zeitraum_von', '<=', b.zeitraumBis).where('zeitraum_bis', '>=', b.zeitraumVon);
  if (ausser) q.whereNot('id', ausser);
  const row = await q.orderBy('zeitraum_von').first('id', 'zeitraum_von', 'zeitraum_bis');
  return row ? { id: Number(row.id), zeitraumVon: String(row.zeitraum_von), zeitraumBis: String(row.zeitraum_bis) } : null;
}

/** The open Bilanz of the location and product, if any. */
export async function offene(scope: TenantScope, standortNr: string, produktNr: string, ausser?: number) {
  const q = scope.table('bilanzen').where({ standort_nr: standortNr, produkt_nr: produktNr, status: 'offen' });
  if (ausser) q.whereNot('id', ausser);
  const row = await q.first('id');
  return row ? Number(row.id) : null;
}

/** The partners' rules at the location, as positions of a new Bilanz (a quantity in the other unit converted). */
export async function regelnAm(scope: TenantScope, standortNr: string, einheit: Einheit, gruppe: Produktgruppe): Promise<{ partnerNr: string; prioritaet: number; biogehalt: string | null; bioMenge: string | null }[]> {
  const rows = await scope.table('tauschpartner_regeln').where({ standort_nr: standortNr })
    .orderBy([{ column: 'prioritaet' }, { column: 'partner_nr' }]).select('partner_nr', 'prioritaet', 'biogehalt', 'biomenge', 'biomenge_einheit');
  return rows.map((r: Record<string, unknown>) => ({
    partnerNr: String(r.partner_nr),
    prioritaet: Number(r.prioritaet),
    biogehalt: knapp(r.biogehalt),
    bioMenge: r.biomenge == null ? null : umrechnen(String(r.biomenge), (r.biomenge_einheit as Einheit) ?? einheit, einheit, zertifikatGruppe(gruppe)),
  }));
}

export async function produktgruppeOf(scope: TenantScope, produktNr: string): Promise<Produktgruppe | null> {
  const row = await scope.table('produkte').where({ nr: produktNr }).first('produktgruppe');
  return row && isProduktgruppe(row.produktgruppe) ? row.produktgruppe : null;
}

/** At most this many certificates take part in one allocation (oldest first): more is an import gone wrong. */
export const MAX_ZERTIFIKATE = 5000;

export interface Eingaben {
  gruppe: Produktgruppe;
  zertifikate: (AllocationZertifikat & { einheit: Einheit })[];
  lieferungen: (AllocationLieferung & { einheit: Einheit })[];
}

/**
 * What an allocation of the Bilanz starts from, in the Bilanz's unit:
 * - the certificates at the location of the product's certificate group, not cancelled, sustainable, with rest,
 *   received in or before the period (`lieferungVon`, else the issue date), not expired today;
 * - the outbound deliveries of the product at the location in the period, not cancelled, of the positions'
 *   partners, each with what its live proofs already cover (assigned by hand, or a closed position's POCs).
 */
export async function eingaben(scope: TenantScope, b: BilanzRow, partnerNrs: readonly string[], heute: string): Promise<Eingaben | null> {
  const gruppe = await produktgruppeOf(scope, b.produktNr);
  if (!gruppe) return null;
  const zGruppe = zertifikatGruppe(gruppe);
  const ref = REFERENZWERTE[zGruppe];
  const seit = `${Number(heute.slice(0, 4)) - 1}-01-01`;
  const kandidaten = await scope.table('nachweise')
    .where({ standort_nr: b.standortNr, produktgruppe: zGruppe, storniert: false, nachhaltig: true, mit_rest: true })
    .whereRaw('coalesce(lieferung_von, ausstellungsdatum) <= ?', [b.zeitraumBis])
    .whereRaw('coalesce(zeitraum_bis, ausstellungsdatum) >= ?', [seit])
    .orderByRaw('lieferung_von asc nulls first, nr asc')
    .limit(MAX_ZERTIFIKATE)
    .select('nr', 'menge_verbleibend', 'einheit', 'lieferung_von', 'thg', 'lcv', 'vorlaeufig', 'zeitraum_bis', 'ausstellungsdatum');
  const ablauf = await gesetzeswertZeilen(scope.knex, ['nachweis_ablauf']);
  const zertifikate: Eingaben['zertifikate'] = [];
  for (const r of kandidaten as Record<string, unknown>[]) {
    // Certificates without E cannot say what they save: they take no part (E is computed on every manual entry).
    if (r.thg == null || heute > nachweisAblaufAus(ablauf, String(r.zeitraum_bis ?? r.ausstellungsdatum))) continue;
    const einheit = r.einheit as Einheit;
    const lcvEigen = r.lcv == null ? null : String(r.lcv);
    // MJ per unit of the Bilanz: the certificate's LCV is per its own unit.
    const lcv = einheit === b.einheit
      ? lcvEigen ?? String(b.einheit === 'L' ? ref.mjProL : ref.mjProKg)
      : lcvEigen == null ? String(b.einheit === 'L' ? ref.mjProL : ref.mjProKg)
        : lcvUmrechnen(lcvEigen, einheit === 'kg' ? 'MJ/kg' : 'MJ/L', b.einheit === 'kg' ? 'MJ/kg' : 'MJ/L', String(ref.kgProL));
    zertifikate.push({
      nr: String(r.nr),
      rest: umrechnen(String(r.menge_verbleibend), einheit, b.einheit, zGruppe),
      lieferungVon: r.lieferung_von == null ? null : String(r.lieferung_von),
      thg: String(Number(r.thg)),
      lcv,
      vorlaeufig: r.vorlaeufig === true,
      einheit,
    });
  }

  const lieferungen: Eingaben['lieferungen'] = [];
  if (partnerNrs.length) {
    const rows = await scope.table('ablieferungen', 'a')
      .where({ 'a.standort_nr': b.standortNr, 'a.produkt_nr': b.produktNr, 'a.storniert': false })
      .whereIn('a.partner_nr', [...new Set(partnerNrs)])
      .whereBetween('a.datum', [b.zeitraumVon, b.zeitraumBis])
      .select('a.nr', 'a.partner_nr', 'a.datum', 'a.menge', 'a.einheit', 'a.biogehalt');
    const nrs = rows.map((r: Record<string, unknown>) => String(r.nr));
    const belegt = new Map<string, bigint>();
    if (nrs.length) {
      const nb = await scope.table('nachweisbescheinigungen').whereIn('ablieferung_nr', nrs).where('storniert', false).select('ablieferung_nr', 'volumen', 'einheit');
      for (const r of nb as Record<string, unknown>[]) {
        const v = milli(umrechnen(String(r.volumen), r.einheit as Einheit, b.einheit, zGruppe));
        belegt.set(String(r.ablieferung_nr), (belegt.get(String(r.ablieferung_nr)) ?? 0n) + v);
      }
    }
    for (const r of rows as Record<string, unknown>[]) {
      const einheit = r.einheit as Einheit;
      const nr = String(r.nr);
      lieferungen.push({
        nr,
        partnerNr: String(r.partner_nr),
        datum: String(r.datum),
        menge: umrechnen(String(r.menge), einheit, b.einheit, gruppe),
        bioMenge: bioMenge({ menge: String(r.menge), einheit, biogehalt: r.biogehalt == null ? null : String(r.biogehalt), gruppe }, b.einheit),
        gedeckt: ausMilli(belegt.get(nr) ?? 0n),
        einheit,
      });
    }
  }
  return { gruppe, zertifikate, lieferungen };
}

export const asPositionen = (p: readonly PositionRow[]): AllocationPosition[] =>
  p.map((x) => ({ id: String(x.id), partnerNr: x.partnerNr, prioritaet: x.prioritaet, biogehalt: x.biogehalt, bioMenge: x.bioMenge }));

export type { Knex };
