// Adds no table: three sort columns, a trigger and indexes on einlieferungen and ablieferungen, which are already
// under row-level security (their tenant policy applies to the new columns as to every other).
// Deliveries sort by the names of their partner, location and product (issue 20), from an index like every
// other sort of the lists (src/features/bewegungsdaten/list-plans.test.ts). A delivery refers to one version
// of each, and a version never changes, so the name it sorts by is fixed when the delivery is written: a
// trigger keeps it in `<ref>_sort` whenever the reference changes, as a German reader sorts (DIN 5007-1: an
// umlaut with its base letter, case ignored), since the embedded database knows only the C collation.
import type { Knex } from 'knex';

const TABLES = ['einlieferungen', 'ablieferungen'];
const REFS: [string, string][] = [['partner', 'tauschpartner_versionen'], ['standort', 'standorte_versionen'], ['produkt', 'produkte_versionen']];

const lookup = (row: string, ref: string, versions: string) =>
  `coalesce((select sortname(v.data->>'name') from ${versions} v where v.mandant = ${row}.mandant and v.nr = ${row}.${ref}_nr and v.version = ${row}.${ref}_version), '')`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function sortname(name text) returns text
    language sql immutable parallel safe as $f$
      select lower(translate(coalesce(name, ''), 'ÄÖÜäöüßÉéÈèÀàÁáÇç', 'AOUaousEeEeAaAaCc'))
    $f$`);
  await knex.raw(`
    create or replace function lieferung_sortnamen() returns trigger language plpgsql as $f$
    begin
      ${REFS.map(([ref, versions]) => `new.${ref}_sort := ${lookup('new', ref, versions)};`).join('\n      ')}
      return new;
    end $f$`);
  for (const table of TABLES) {
    await knex.schema.alterTable(table, (t) => {
      for (const [ref] of REFS) t.text(`${ref}_sort`).notNullable().defaultTo('');
    });
    const watched = REFS.flatMap(([ref]) => [`${ref}_nr`, `${ref}_version`]).join(', ');
    await knex.raw(`create trigger ${table}_sortnamen before insert or update of ${watched} on ${table} for each row execute function lieferung_sortnamen()`);
  }
  // Existing deliveries, tenant by tenant (row-level security is forced, for the owner too).
  const mandanten: { mandant: string }[] = await knex('mandanten').select('mandant');
  for (const { mandant } of mandanten) {
    await knex.raw(`select set_config('app.mandant', ?, true)`, [mandant]);
    for (const table of TABLES) {
      await knex.raw(`update ?? d set ${REFS.map(([ref, versions]) => `${ref}_sort = ${lookup('d', ref, versions)}`).join(', ')} where d.mandant = ?`, [table, mandant]);
    }
  }
  await knex.raw(`select set_config('app.mandant', '', true)`);
  for (const table of TABLES) {
    for (const [ref] of REFS) await knex.raw(`create index ${table}_${ref}_sort_idx on ${table} (mandant, ${ref}_sort, nr)`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of TABLES) {
    await knex.raw(`drop trigger if exists ${table}_sortnamen on ${table}`);
    for (const [ref] of REFS) await knex.raw(`drop index if exists ${table}_${ref}_sort_idx`);
    await knex.schema.alterTable(table, (t) => {
      for (const [ref] of REFS) t.dropColumn(`${ref}_sort`);
    });
  }
  await knex.raw('drop function if exists lieferung_sortnamen()');
  await knex.raw('drop function if exists sortname(text)');
}
