// The search of the movement-data lists under row-level security (docs/decisions.md, "Search under row-level
// security"). `ILIKE '%…%'` on a big table reads every row of the tenant: it is not leakproof, so under the
// tenant policy PostgreSQL may not use an index (trigram or other) for it. What it may use are leakproof
// operators: equality and the pattern range operators (`~>=~`, `~<~`). So a record's own texts (number, vehicle,
// contract number, comment, …) are kept here word by word, lower case, and the search looks a typed word up as
// a prefix range on `(mandant, tabelle, wort text_pattern_ops)`; partners, locations and products are found by
// number and name in their small master tables and their deliveries by the number (equality).
//
// The words are written by statement triggers with transition tables, in the transaction that writes the
// record (forms, API, imports, seeds alike), as the writer: row-level security keeps them in its tenant.
import type { Knex } from 'knex';
import { enableTenantRls } from '../src/db/rls.js';

/**
 * Tables whose lists search their own texts, and the columns whose words are kept. The list definitions name
 * the same columns (ListSearch.words); src/records/list/search.test.ts compares them with the triggers.
 */
const TABLES: Record<string, string[]> = {
  einlieferungen: ['nr', 'contract_number', 'vehicle_name', 'kommentar', 'typ'],
  ablieferungen: ['nr', 'contract_number', 'vehicle_name', 'kommentar', 'typ'],
  bestaende: ['nr'],
  nachweise: ['nr', 'lieferant', 'referenz_pos_nr', 'lieferant_zertifikat_nr', 'zusatzinfo'],
  abholungen: ['nr', 'bilanzierung_nr', 'lieferant', 'ablieferung_nr', 'kommentar'],
  nachweisbescheinigungen: ['nr', 'nachweis_nr', 'referenz_nachweis_nr', 'ablieferung_nr', 'kommentar'],
};

/**
 * What separates words: white space and ASCII punctuation. The same class splits a search text into words
 * (src/records/list/search.ts, SEPARATOR): a word typed is a prefix of a word kept.
 */
// (`?` as \x3f: knex reads a bare question mark in raw SQL as a binding, even without bindings.)
const SEPARATOR = String.raw`[\s!"#$%&'()*+,\-./:;<=>\x3f@\[\\\]^_` + '`' + String.raw`{|}~]`;

const args = (columns: string[]) => columns.map((c) => `'${c}'`).join(', ');

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('suchwoerter', (t) => {
    t.string('mandant', 32).notNullable().references('mandant').inTable('mandanten').onUpdate('CASCADE').onDelete('CASCADE');
    t.string('tabelle', 63).notNullable();
    t.string('nr', 32).notNullable();
    t.text('wort').notNullable();
    t.primary(['mandant', 'tabelle', 'nr', 'wort']);
  });
  // The search's index: tenant and table by equality, the word by a prefix range (text_pattern_ops compares
  // bytes, so the range is exact in any collation); the number in it answers the search from the index alone.
  await knex.raw('create index suchwoerter_wort_idx on suchwoerter (mandant, tabelle, wort text_pattern_ops, nr)');
  await enableTenantRls(knex, 'suchwoerter');

  // The words of some texts: each white-space-separated piece with its outer punctuation trimmed ("EL-2026-0001"),
  // and each piece between separators ("el", "2026", "0001"); lower case, at most 64 characters (a btree entry
  // has a size limit, and nobody types more).
  await knex.raw(`
    create or replace function suchwoerter_aus(texte text[]) returns table (wort text)
    language sql immutable parallel safe as $f$
      select distinct left(x.w, 64) from (
        select regexp_replace(lower(s), $r$^${SEPARATOR}+|${SEPARATOR}+$$r$, '', 'g') as w
          from unnest(texte) as t(v), regexp_split_to_table(t.v, '\\s+') as s
        union all
        select s from unnest(texte) as t(v), regexp_split_to_table(lower(t.v), $r$${SEPARATOR}+$r$) as s
      ) x
      where x.w <> ''
    $f$`);
  // Statement triggers: an import of thousands of rows pays one insert, not one per row. An update rewrites the
  // words of the rows it touched; TG_ARGV names the columns.
  await knex.raw(`
    create or replace function suchwoerter_pflegen() returns trigger language plpgsql as $f$
    begin
      if tg_op <> 'INSERT' then
        delete from suchwoerter s using alt o where s.mandant = o.mandant and s.tabelle = tg_table_name and s.nr = o.nr;
      end if;
      if tg_op <> 'DELETE' then
        insert into suchwoerter (mandant, tabelle, nr, wort)
        select n.mandant, tg_table_name, n.nr, w.wort
          from neu n cross join lateral suchwoerter_aus(array(select to_jsonb(n) ->> c from unnest(tg_argv) as c)) w
        on conflict do nothing;
      end if;
      return null;
    end $f$`);
  for (const [table, columns] of Object.entries(TABLES)) {
    await knex.raw(`create trigger ${table}_suchwoerter_ins after insert on ${table} referencing new table as neu for each statement execute function suchwoerter_pflegen(${args(columns)})`);
    await knex.raw(`create trigger ${table}_suchwoerter_upd after update on ${table} referencing old table as alt new table as neu for each statement execute function suchwoerter_pflegen(${args(columns)})`);
    await knex.raw(`create trigger ${table}_suchwoerter_del after delete on ${table} referencing old table as alt for each statement execute function suchwoerter_pflegen(${args(columns)})`);
  }

  // The records there are: tenant by tenant, as the tenant (forced row-level security binds the owner too).
  const mandanten: { mandant: string }[] = await knex('mandanten').select('mandant');
  for (const { mandant } of mandanten) {
    await knex.raw(`select set_config('app.mandant', ?, true)`, [mandant]);
    for (const [table, columns] of Object.entries(TABLES)) {
      await knex.raw(
        `insert into suchwoerter (mandant, tabelle, nr, wort)
         select d.mandant, ?, d.nr, w.wort from ?? d cross join lateral suchwoerter_aus(array[${columns.map((c) => `d.${c}::text`).join(', ')}]) w
          where d.mandant = ?
         on conflict do nothing`,
        [table, table, mandant],
      );
    }
  }
  await knex.raw(`select set_config('app.mandant', '', true)`);
  await knex.raw('analyze suchwoerter');
}

export async function down(knex: Knex): Promise<void> {
  for (const table of Object.keys(TABLES)) {
    for (const op of ['ins', 'upd', 'del']) await knex.raw(`drop trigger if exists ${table}_suchwoerter_${op} on ${table}`);
  }
  await knex.raw('drop function if exists suchwoerter_pflegen()');
  await knex.raw('drop function if exists suchwoerter_aus(text[])');
  await knex.schema.dropTableIfExists('suchwoerter');
}
