// Numbers the portal assigns (a stock figure's id): the next one from the tenant's number range, taken with
// one atomic upsert, so concurrent creates never get the same number. A failed create leaves a gap, as every
// accounting number range does.
import type { Knex } from 'knex';
import type { TenantScope } from './scope.js';

export async function nextNumber(scope: TenantScope, kreis: string): Promise<string> {
  // In the scope's transaction: as the app role in this tenant, under row-level security.
  return scope.transaction(async (tx) => String((await reserveNumbers(tx.knex, tx.mandant, kreis, 1)) + 1));
}

/** Reserves `count` numbers; returns the last number before them (the first reserved one is that + 1). */
export async function reserveNumbers(knex: Knex | Knex.Transaction, mandant: string, kreis: string, count: number): Promise<number> {
  const { rows } = await knex.raw(
    `insert into nummernkreise (mandant, kreis, letzte) values (?, ?, ?)
     on conflict (mandant, kreis) do update set letzte = nummernkreise.letzte + excluded.letzte
     returning letzte`,
    [mandant, kreis, count],
  );
  return Number(rows[0].letzte) - count;
}

/**
 * A proposal for a number typed by users (a delivery's): the highest `{prefix}{digits}` the tenant has, plus one,
 * with the same width ("EL-000320" → "EL-000321"); `{prefix}000001` when there is none. Nothing is reserved: the
 * user may type another, and a number taken meanwhile is refused on saving as any duplicate is.
 */
export async function proposeNumber(scope: TenantScope, table: string, prefix: string): Promise<string> {
  const pattern = `^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[0-9]+$`;
  const row = await scope.table(table).whereRaw('nr ~ ?', [pattern]).orderByRaw('length(nr) desc, nr desc').first('nr');
  const last = row ? String(row.nr).slice(prefix.length) : '000000';
  return `${prefix}${String(Number(last) + 1).padStart(last.length, '0')}`;
}
