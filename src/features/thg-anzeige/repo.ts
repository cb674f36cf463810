// The SQL of the public THG display: the tenant a link names, its publication, and the posts of its savings.
//
// `mandanten` is platform data without row-level security: the tenant behind a token is looked up on the base
// connection (nobody is signed in, so there is no tenant yet); everything about that tenant afterwards goes
// through a TenantScope of it, like any other tenant read.
import type { Knex } from 'knex';
import type { TenantScope } from '../../db/scope.js';
import { isProduktgruppe, REFERENZWERTE } from '../../domain/fuels.js';
import { lcvUmrechnen } from '../../domain/ghg.js';
import type { Einheit } from '../../domain/units.js';

/** The token's shape, as the column's check has it: what else comes in a link is no token and costs no query. */
export const TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

export interface Veroeffentlichung {
  mandant: string;
  /** The tenant's name, the one thing the display says about it. */
  name: string;
  token: string | null;
  seit: string | null;
}

const toVeroeffentlichung = (r: Record<string, unknown>): Veroeffentlichung => ({
  mandant: String(r.mandant),
  name: String(r.name),
  token: (r.thg_anzeige_token as string | null) ?? null,
  seit: r.thg_anzeige_seit == null ? null : new Date(r.thg_anzeige_seit as string).toISOString(),
});

/** The active tenant that published its display under `token`, or null (unknown, revoked, or the tenant deactivated). */
export async function mandantZumToken(knex: Knex, token: string): Promise<Veroeffentlichung | null> {
  if (!TOKEN.test(token)) return null;
  const row = await knex('mandanten').where({ thg_anzeige_token: token, status: 'active' }).first('mandant', 'name', 'thg_anzeige_token', 'thg_anzeige_seit');
  return row ? toVeroeffentlichung(row) : null;
}

/** A tenant's publication; `lock` holds the row until the transaction ends (two administrators at once). */
export async function veroeffentlichung(db: Knex | Knex.Transaction, mandant: string, lock = false): Promise<Veroeffentlichung | null> {
  const q = db('mandanten').where({ mandant }).first('mandant', 'name', 'thg_anzeige_token', 'thg_anzeige_seit');
  const row = await (lock ? q.forUpdate() : q);
  return row ? toVeroeffentlichung(row) : null;
}

export async function setzeToken(trx: Knex.Transaction, mandant: string, token: string | null, seit: Date | null): Promise<void> {
  await trx('mandanten').where({ mandant }).update({ thg_anzeige_token: token, thg_anzeige_seit: seit, updated_at: trx.fn.now() });
}

/**
 * The bio quantities delivered from `von` to `bis` (outbound delivery dates, cancelled deliveries left out), summed
 * per delivery day, E and certificate LCV: what the display's figures are made of. Two kinds of posts, which
 * never overlap:
 * (a) the live proofs issued for outbound deliveries (nachweisbescheinigungen.ablieferung_nr, not cancelled):
 *     assignments by hand and the POCs closed Bilanzen and positions issued; the quantity in the proof's unit,
 *     E the proof's own (copied from its certificate when it was made);
 * (b) the lines of open Bilanzen that have not become a POC yet (a closed position's lines have one and are
 *     counted in (a)); the quantity in the Bilanz's unit, E the line's own.
 * One statement however many deliveries there are. `filter` narrows both kinds by the outbound delivery (alias `a`):
 * the reports (src/features/reports/berichte/thg-bericht.ts, quotenbericht.ts) count the same posts for a location,
 * partner or product, so their figures agree with the display's.
 */
export interface Postengruppe {
  datum: string;
  e: string;
  menge: string;
  mengeEinheit: Einheit;
  /** The certificate's LCV per its own unit, or null (then the reference value of its group). */
  lcv: string | null;
  lcvEinheit: Einheit;
  produktgruppe: string;
}

export async function postengruppen(scope: TenantScope, von: string, bis: string, filter?: (qb: Knex.QueryBuilder) => void): Promise<Postengruppe[]> {
  return alsPostengruppen((await scope.scoped(postengruppenQuery(scope, von, bis, filter))) as Record<string, unknown>[]);
}

/**
 * The statement of postengruppen(), for a caller that reads it inside a larger one (the dashboard: json_agg of its
 * rows). `filter` narrows the deliveries of both kinds of posts (the reports: a location, a product, a partner).
 */
export function postengruppenQuery(scope: TenantScope, von: string, bis: string, filter?: (qb: Knex.QueryBuilder) => void): Knex.QueryBuilder {
  const { knex } = scope;
  const spalten = (e: string, menge: string, einheit: string) =>
    [knex.raw('a.datum'), knex.raw(`${e} as e`), knex.raw(`${einheit} as menge_einheit`), knex.raw('n.lcv'), knex.raw('n.einheit as lcv_einheit'), knex.raw('n.produktgruppe'), knex.raw(`${menge} as menge`)];

  const zugeordnet = scope.leftJoin(
    scope.leftJoin(scope.table('nachweisbescheinigungen', 'nb'), 'ablieferungen', 'a', (j) => j.on('a.nr', 'nb.ablieferung_nr')),
    'nachweise', 'n', (j) => j.on('n.nr', 'nb.nachweis_nr'),
  )
    .whereNotNull('nb.ablieferung_nr').where('nb.storniert', false).where('a.storniert', false).whereBetween('a.datum', [von, bis])
    .select(spalten('coalesce(nb.thg_emission, n.thg)', 'nb.volumen', 'nb.einheit'));
  filter?.(zugeordnet);

  const offen = scope.leftJoin(
    scope.leftJoin(
      scope.leftJoin(scope.table('bilanz_zeilen', 'z'), 'bilanzen', 'b', (j) => j.on('b.id', 'z.bilanz_id')),
      'ablieferungen', 'a', (j) => j.on('a.nr', 'z.ablieferung_nr'),
    ),
    'nachweise', 'n', (j) => j.on('n.nr', 'z.nachweis_nr'),
  )
    .where('b.status', 'offen').whereNull('z.nachweisbescheinigung_nr').where('a.storniert', false).whereBetween('a.datum', [von, bis])
    .select(spalten('coalesce(z.thg, n.thg)', 'z.menge', 'b.einheit'));
  filter?.(offen);

  return knex.from(knex.raw('(? union all ?) as p', [zugeordnet, offen]))
    .select('p.datum', 'p.e', 'p.menge_einheit', 'p.lcv', 'p.lcv_einheit', 'p.produktgruppe')
    .sum({ menge: 'p.menge' })
    .groupBy('p.datum', 'p.e', 'p.menge_einheit', 'p.lcv', 'p.lcv_einheit', 'p.produktgruppe')
    .orderBy(['p.datum', 'p.e']);
}

/** Rows of postengruppenQuery() (from the driver, or as JSON: numbers may come as numbers) as posts. */
export function alsPostengruppen(rows: Record<string, unknown>[]): Postengruppe[] {
  return rows
    .filter((r) => r.e != null)
    .map((r) => ({
      datum: String(r.datum),
      e: String(r.e),
      menge: String(r.menge),
      mengeEinheit: r.menge_einheit as Einheit,
      lcv: r.lcv == null ? null : String(r.lcv),
      lcvEinheit: r.lcv_einheit as Einheit,
      produktgruppe: String(r.produktgruppe),
    }));
}

/**
 * MJ per unit of a post's quantity: the certificate's LCV, converted with its group's density when the quantity is
 * in the other unit; without one, the group's reference value in the quantity's unit (as the Bilanz's inputs do,
 * src/features/bilanzen/repo.ts `eingaben`).
 */
export function lcvJeEinheit(g: Pick<Postengruppe, 'mengeEinheit' | 'lcv' | 'lcvEinheit' | 'produktgruppe'>): string {
  const ref = REFERENZWERTE[isProduktgruppe(g.produktgruppe) ? g.produktgruppe : 'biodiesel'];
  const einheit = (e: Einheit) => (e === 'kg' ? 'MJ/kg' : 'MJ/L') as 'MJ/kg' | 'MJ/L';
  if (g.lcv == null) return String(g.mengeEinheit === 'L' ? ref.mjProL : ref.mjProKg);
  return lcvUmrechnen(g.lcv, einheit(g.lcvEinheit), einheit(g.mengeEinheit), String(ref.kgProL));
}
