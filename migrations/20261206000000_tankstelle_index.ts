// Adds no table, only an index on einlieferungen, which is under row-level security since it was created
// (enableTenantRls there); the index's first column is the tenant, as in every index of a tenant table.
// The Tankstelle reads a location's inbound deliveries by product: whether a product has any there (its tank),
// and each product's newest completed one. Without an index on (location, product) both read every delivery
// of the location (9,300 at the bench's first location): 28 ms for the newest completed ones, sorted, and 6 ms
// for the tanks, on every view of the page. With it, each product is a few index entries (bench/README.md).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('create index einlieferungen_standort_produkt_idx on einlieferungen (mandant, standort_nr, produkt_nr, datum desc, nr desc)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index einlieferungen_standort_produkt_idx');
}
