// The dashboard's figures in one statement: each tile is a subselect (a count, or a small JSON aggregate) through
// the tenant scope of its own area, so its rows are limited to the user's locations for that area exactly as the
// list it links to; tiles the user may not see are left out of the statement altogether. Together with BEGIN
// (which carries the tenant settings) the page's own data costs two round trips, however many tiles it shows.
import type { Knex } from 'knex';
import type { TenantScope } from '../../db/scope.js';
import type { GesetzeswertZeile } from '../../domain/gesetzeswerte.js';
import { ablaufSql, laeuftAb } from '../nachweise/nachweis.js';
import { postengruppenQuery } from '../thg-anzeige/repo.js';

export interface Zeitraum {
  heute: string;
  monatAb: string;
  vormonatAb: string;
  vormonatBis: string;
  jahrAb: string;
  /** Today + 30 days: certificates expiring up to this day. */
  in30Tagen: string;
}

export type LieferungZahlen = { monat: number; vormonat: number; offen: number; inBearbeitung: number };

/** Which tiles to compute, each with the scope of its area (absent: not shown to this user). */
export interface Abfrage {
  einlieferungen?: TenantScope;
  ablieferungen?: TenantScope;
  bestaende?: TenantScope;
  nachweise?: TenantScope;
  bilanzen?: TenantScope;
  thg?: TenantScope;
  /** The import kinds (audit entities) the user may see, with a scope. */
  importe?: { scope: TenantScope; entities: string[] };
  nachrichten: { scope: TenantScope; benutzerId: number };
}

export interface Rohzahlen {
  einlieferungen?: LieferungZahlen;
  ablieferungen?: LieferungZahlen;
  bestaende?: { standortNr: string; name: string | null; volumen: string }[];
  nachweise?: number;
  /** The next day on which certificates with a rest expire (today or later), and how many then; null if none. */
  naechsterAblauf?: { datum: string; anzahl: number } | null;
  bilanzen?: number;
  thg?: { posten: Record<string, unknown>[]; werte: GesetzeswertZeile[] };
  importe?: { at: string; entity: string; benutzer: string | null; after: Record<string, unknown> | null }[];
  nachrichten: { ungelesen: number; neueste: { id: number; titel: string }[] };
}

const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);

function lieferungen(scope: TenantScope, table: 'einlieferungen' | 'ablieferungen', z: Zeitraum): Knex.QueryBuilder {
  const { knex } = scope;
  // The four counts of one table in one pass over the rows that can count (this and last month, or open).
  return scope.atStandorte(scope.table(table, 'd'), 'd.standort_nr')
    .where('d.storniert', false)
    .where((w) => w.where('d.datum', '>=', z.vormonatAb).orWhereIn('d.status', ['open', 'inProgress']))
    .select(knex.raw(
      `json_build_object('monat', count(*) filter (where d.datum between ?::date and ?::date), 'vormonat', count(*) filter (where d.datum between ?::date and ?::date),
        'offen', count(*) filter (where d.status = 'open'), 'inBearbeitung', count(*) filter (where d.status = 'inProgress'))`,
      [z.monatAb, z.heute, z.vormonatAb, z.vormonatBis],
    ));
}

/** The latest stock figure (up to today) per location and product, summed per location, with the location's name. */
function bestaende(scope: TenantScope, z: Zeitraum): Knex.Raw {
  const { knex } = scope;
  const letzte = scope.atStandorte(scope.table('bestaende', 'b'), 'b.standort_nr').where('b.datum', '<=', z.heute)
    .distinctOn('b.standort_nr', 'b.produkt_nr').select('b.standort_nr', 'b.volumen')
    .orderBy([{ column: 'b.standort_nr' }, { column: 'b.produkt_nr' }, { column: 'b.datum', order: 'desc' }, { column: 'b.nr', order: 'desc' }]);
  const jeStandort = scope.leftJoin(knex.from(knex.raw('(?) as l', [letzte])), 'standorte', 's', (j) => j.on('s.nr', 'l.standort_nr'))
    .groupBy('l.standort_nr', 's.name').select('l.standort_nr', 's.name', knex.raw('sum(l.volumen) as volumen'));
  return knex.raw(`(select coalesce(json_agg(json_build_object('standortNr', x.standort_nr, 'name', x.name, 'volumen', x.volumen::text) order by x.standort_nr), '[]'::json) from (?) as x)`, [jeStandort]);
}

function thg(scope: TenantScope, z: Zeitraum): Knex.Raw {
  const { knex } = scope;
  return knex.raw(`json_build_object(
      'posten', (select coalesce(json_agg(json_build_object('datum', p.datum, 'e', p.e::text, 'menge', p.menge::text, 'menge_einheit', p.menge_einheit,
        'lcv', p.lcv::text, 'lcv_einheit', p.lcv_einheit, 'produktgruppe', p.produktgruppe)), '[]'::json) from (?) as p),
      'werte', (select coalesce(json_agg(json_build_object('art', g.art, 'bezug', g.bezug, 'gueltigAb', g.gueltig_ab, 'wert', coalesce(g.wert_text, g.wert::text))), '[]'::json)
        from gesetzeswerte g where g.art = 'basiswert'))`, [postengruppenQuery(scope, z.jahrAb, z.heute)]);
}

function importe(scope: TenantScope, entities: string[]): Knex.Raw {
  const { knex } = scope;
  const letzte = scope.table('audit_log', 'a').leftJoin({ u: 'benutzer' }, 'u.id', 'a.benutzer_id')
    .whereIn('a.kind', ['bewegungsdaten.import', 'stammdaten.import']).whereIn('a.entity', entities)
    .orderBy([{ column: 'a.at', order: 'desc' }, { column: 'a.id', order: 'desc' }]).limit(5)
    .select('a.at', 'a.entity', 'a.after', 'a.id', knex.raw(`nullif(concat_ws(' ', u.vorname, u.nachname), '') as benutzer`));
  return knex.raw(`(select coalesce(json_agg(json_build_object('at', i.at, 'entity', i.entity, 'after', i.after, 'benutzer', i.benutzer) order by i.at desc, i.id desc), '[]'::json) from (?) as i)`, [letzte]);
}

function nachrichten(scope: TenantScope, benutzerId: number, z: Zeitraum): Knex.Raw {
  const { knex } = scope;
  const ungelesen = scope.table('nachrichten', 'n')
    .where('n.gueltig_von', '<=', z.heute).where((w) => w.whereNull('n.gueltig_bis').orWhere('n.gueltig_bis', '>=', z.heute))
    .whereNotExists(scope.table('nachrichten_gelesen', 'g').whereRaw('g.nachricht_id = n.id').where('g.benutzer_id', benutzerId).select(knex.raw('1')))
    .select('n.id', 'n.titel', 'n.gueltig_von');
  return knex.raw(`(select json_build_object('ungelesen', count(*), 'neueste', coalesce((json_agg(json_build_object('id', u.id, 'titel', u.titel) order by u.gueltig_von desc, u.id desc)
    filter (where u.rang <= 3)), '[]'::json)) from (select x.*, row_number() over (order by x.gueltig_von desc, x.id desc) as rang from (?) as x) as u)`, [ungelesen]);
}

function naechsterAblauf(v: { datum: string | null; anzahl: number } | null): { datum: string; anzahl: number } | null {
  return v?.datum ? { datum: v.datum, anzahl: Number(v.anzahl) } : null;
}

/** Every figure the user may see, in one statement. */
export async function rohzahlen(a: Abfrage, z: Zeitraum): Promise<Rohzahlen> {
  const scope = a.nachrichten.scope;
  const { knex } = scope;
  const spalten: (Knex.Raw | Knex.QueryBuilder)[] = [nachrichten(scope, a.nachrichten.benutzerId, z).wrap('', ' as nachrichten')];
  if (a.einlieferungen) spalten.push(lieferungen(a.einlieferungen, 'einlieferungen', z).as('einlieferungen'));
  if (a.ablieferungen) spalten.push(lieferungen(a.ablieferungen, 'ablieferungen', z).as('ablieferungen'));
  if (a.bestaende) spalten.push(bestaende(a.bestaende, z).wrap('', ' as bestaende'));
  if (a.nachweise) {
    spalten.push(laeuftAb(a.nachweise.atStandorte(a.nachweise.table('nachweise', 'n'), 'n.standort_nr'), { von: z.heute, bis: z.in30Tagen }).count('*').as('nachweise'));
    // Expiry falls on one day a year (15 April by default), so the 30 days are often empty: the tile also names
    // the next expiry day and its count, so the user sees what is coming before it is near.
    const kuenftig = laeuftAb(a.nachweise.atStandorte(a.nachweise.table('nachweise', 'n'), 'n.standort_nr'), { von: z.heute })
      .select(knex.raw(`${ablaufSql('n')} as ablauf`));
    spalten.push(knex.raw(`(select json_build_object('datum', to_char(k.ablauf, 'YYYY-MM-DD'), 'anzahl', count(*)) from (?) as k group by k.ablauf order by k.ablauf limit 1) as naechster_ablauf`, [kuenftig]));
  }
  if (a.bilanzen) spalten.push(a.bilanzen.atStandorte(a.bilanzen.table('bilanzen', 'b'), 'b.standort_nr').where('b.status', 'offen').count('*').as('bilanzen'));
  if (a.thg) spalten.push(thg(a.thg, z).wrap('', ' as thg'));
  if (a.importe?.entities.length) spalten.push(importe(a.importe.scope, a.importe.entities).wrap('', ' as importe'));
  const row = ((await scope.scoped(knex.select(spalten) as Knex.QueryBuilder)) as Record<string, unknown>[])[0];
  return {
    nachrichten: json(row.nachrichten),
    ...(a.einlieferungen ? { einlieferungen: json(row.einlieferungen) } : {}),
    ...(a.ablieferungen ? { ablieferungen: json(row.ablieferungen) } : {}),
    ...(a.bestaende ? { bestaende: json(row.bestaende) } : {}),
    ...(a.nachweise ? { nachweise: Number(row.nachweise), naechsterAblauf: naechsterAblauf(json(row.naechster_ablauf)) } : {}),
    ...(a.bilanzen ? { bilanzen: Number(row.bilanzen) } : {}),
    ...(a.thg ? { thg: json(row.thg) } : {}),
    ...(a.importe?.entities.length ? { importe: json(row.importe) } : {}),
  };
}

