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
