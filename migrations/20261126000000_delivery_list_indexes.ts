// Indexes for every filter and sort the delivery lists offer, so no list page of a big trader (100,000
// deliveries and more) reads the whole table (src/db/list-plans.test.ts holds this with EXPLAIN):
// - each filter column leads an index after the tenant, followed by the default order (date, then number,
//   descending) so a filtered list in its default order is an index range read in order, and the capped count
//   of a filter reads that range alone;
// - each sort the list offers (number, date, quantity, status) has an index in that order with the number
//   that breaks ties (ListDefinition.tieBreaker), readable in either direction;
// - the cancelled flag is a filter too (few rows are cancelled: the index finds them without a scan).
// The first migration's filter indexes ended at the date; these replace them. Stock figures are sorted by
// volume and fill level too (the fill level may be unknown: last in either direction, so one index each).
import type { Knex } from 'knex';

const TABLES = ['einlieferungen', 'ablieferungen'];
const FILTERS = ['partner_nr', 'standort_nr', 'produkt_nr', 'produktgruppe', 'status', 'storniert'];

export async function up(knex: Knex): Promise<void> {
  for (const table of TABLES) {
    for (const column of FILTERS) {
      await knex.raw(`drop index if exists ${table}_${column}_idx`);
      await knex.raw(`create index ${table}_${column}_idx on ${table} (mandant, ${column}, datum desc, nr desc)`);
    }
    await knex.raw(`create index ${table}_menge_idx on ${table} (mandant, menge, nr)`);
    await knex.raw(`create index ${table}_status_nr_idx on ${table} (mandant, status, nr)`);
  }
  await knex.raw('create index bestaende_standort_idx on bestaende (mandant, standort_nr, datum desc, nr desc)');
  await knex.raw('create index bestaende_volumen_idx on bestaende (mandant, volumen, nr)');
  await knex.raw('create index bestaende_fuellstand_asc_idx on bestaende (mandant, fuellstand asc nulls last, nr asc)');
  await knex.raw('create index bestaende_fuellstand_desc_idx on bestaende (mandant, fuellstand desc nulls last, nr desc)');
}

export async function down(knex: Knex): Promise<void> {
  for (const index of ['bestaende_standort_idx', 'bestaende_volumen_idx', 'bestaende_fuellstand_asc_idx', 'bestaende_fuellstand_desc_idx']) await knex.raw(`drop index ${index}`);
  for (const table of TABLES) {
    await knex.raw(`drop index ${table}_menge_idx`);
    await knex.raw(`drop index ${table}_status_nr_idx`);
    await knex.raw(`drop index ${table}_storniert_idx`);
    for (const column of FILTERS.filter((c) => c !== 'storniert')) {
      await knex.raw(`drop index ${table}_${column}_idx`);
      await knex.raw(`create index ${table}_${column}_idx on ${table} (mandant, ${column}, datum desc)`);
    }
  }
}
