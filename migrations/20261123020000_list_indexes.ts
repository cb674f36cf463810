// Indexes for how the product list is used: filtered by product group and sorted by name (either direction,
// the number breaking ties as the list does). With them, counting a group's products reads the index alone
// and a page is an index range instead of a sort of the whole group; without them both read every product
// of the tenant on each page view. Lists order a column that is never null without NULLS LAST
// (ListColumn.notNull), which lets one plain index serve ascending and descending sorts.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('create index produkte_gruppe_name_idx on produkte (mandant, produktgruppe, lower(name), nr)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index produkte_gruppe_name_idx');
}
