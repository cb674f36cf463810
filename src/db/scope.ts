// The one place that scopes queries to the tenant (and, where a right is limited, to locations). Feature
// repositories receive a TenantScope and never write `mandant` by hand, so they cannot forget it.
import type { Knex } from 'knex';

export type StandortScope = 'all' | readonly string[];

export class TenantScope {
  constructor(
    readonly knex: Knex | Knex.Transaction,
    readonly mandant: string,
    /** The locations whose rows this scope may see and change. */
    readonly standorte: StandortScope = 'all',
  ) {}

  /** A query on a tenant-owned table, already limited to this tenant. `alias` names the table in joins. */
  table<T extends object = Record<string, unknown>>(name: string, alias = name): Knex.QueryBuilder<T> {
    return this.knex<T>({ [alias]: name } as unknown as string).where(`${alias}.mandant`, this.mandant) as Knex.QueryBuilder<T>;
  }

  /** Inserts rows into a tenant-owned table with this tenant filled in. */
  insert<T extends object>(name: string, rows: T | T[]) {
    const list = (Array.isArray(rows) ? rows : [rows]).map((r) => ({ ...r, mandant: this.mandant }));
    return this.knex(name).insert(list);
  }

  /** Limits a query to the permitted locations; `column` holds the location number. No locations: no rows. */
  atStandorte<Q extends Knex.QueryBuilder>(query: Q, column: string): Q {
    if (this.standorte === 'all') return query;
    if (this.standorte.length === 0) return query.whereRaw('false') as Q;
    return query.whereIn(column, this.standorte as string[]) as Q;
  }

  /** May this scope touch a row of that location? */
  allowsStandort(standortNr: string | null | undefined): boolean {
    if (this.standorte === 'all') return true;
    return standortNr != null && this.standorte.includes(standortNr);
  }

  withStandorte(standorte: StandortScope): TenantScope {
    return new TenantScope(this.knex, this.mandant, standorte);
  }

  /** Runs `fn` in one transaction with the same scope. */
  transaction<R>(fn: (scope: TenantScope) => Promise<R>): Promise<R> {
    return (this.knex as Knex).transaction((trx) => fn(new TenantScope(trx, this.mandant, this.standorte)));
  }
}
