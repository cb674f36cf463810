// What the movement reports share: the filters of a report's parameters on a delivery query, the sum of a
// delivery's quantity in litres in SQL (units.ts, the same conversion as the engine's), and names by number.
import type { Knex } from 'knex';
import type { TenantScope } from '../../../db/scope.js';
import { alsText, dez, gerundet, plus, type Dez } from '../../../domain/dezimal.js';
import { inEinheitSql } from '../../../domain/units.js';
import type { ReportParameter } from '../definition.js';

/** A delivery's quantity in litres, in SQL (kg with the density of its product group, rounded as units.ts does). */
export const literSql = (alias: string) => inEinheitSql('L', { menge: `${alias}.menge`, einheit: `${alias}.einheit`, gruppe: `${alias}.produktgruppe` });

/** Limits a query on a table with standort_nr/produkt_nr (and partner_nr) to the user's locations and the parameters. */
export function gefiltert<Q extends Knex.QueryBuilder>(scope: TenantScope, qb: Q, alias: string, params: ReportParameter, opts: { partner?: boolean } = {}): Q {
  scope.atStandorte(qb, `${alias}.standort_nr`);
  if (params.standort) qb.where(`${alias}.standort_nr`, params.standort);
  if (params.produkt) qb.where(`${alias}.produkt_nr`, params.produkt);
  if (params.partner && opts.partner !== false) qb.where(`${alias}.partner_nr`, params.partner);
  return qb;
}

/** Names of a master table by number (all of the tenant's: a report names deactivated ones too). */
export async function namenVon(scope: TenantScope, tabelle: 'standorte' | 'produkte' | 'tauschpartner'): Promise<Map<string, string>> {
  const rows = (await scope.table(tabelle).select('nr', 'name')) as { nr: string; name: string }[];
  return new Map(rows.map((r) => [r.nr, r.name]));
}

/** Sums decimal strings of a column over rows (null when no row has a value), to three decimals. */
export function summe<R>(rows: R[], key: keyof R, stellen = 3): string | null {
  let total: Dez | null = null;
  for (const row of rows) {
    const value = row[key];
    if (value == null || value === '') continue;
    const d = dez(String(value));
    total = total ? plus(total, d) : d;
  }
  return total ? alsText(gerundet(total, stellen)) : null;
}
