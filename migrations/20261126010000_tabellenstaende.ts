// A change counter per tenant and table (Tabellenstand) for the big lists, so a list page can reuse the count
// and sums it computed before instead of counting up to 10,000 rows on every page view: the counter moves
// with every transaction that changes the table's rows of that tenant, and a remembered count is used only
// while the counter still stands where it stood when the count was taken (src/http/list-counts.ts).
//
// How it stays exact, across any number of app instances:
// - a deferred constraint trigger raises the counter at COMMIT of each writing transaction (once per table:
//   a transaction-local flag skips the other rows of an import), so the counter's row lock is held for the
//   moment of the commit only, never while an import runs;
// - the counter is one row per tenant and table, raised by an upsert: concurrent writers queue on that row,
//   so the values follow commit order, and a reader whose snapshot shows value n sees every change of every
//   transaction that raised it to n or below, and none of any other.
// Rows are added by the trigger, as the writer (RLS: its own tenant only).
import type { Knex } from 'knex';
import { enableTenantRls } from '../src/db/rls.js';

const TABLES = ['einlieferungen', 'ablieferungen', 'bestaende'];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('tabellenstaende', (t) => {
    t.string('mandant', 32).notNullable().references('mandant').inTable('mandanten').onUpdate('CASCADE').onDelete('CASCADE');
    t.string('tabelle', 63).notNullable();
    t.bigInteger('stand').notNullable();
    t.primary(['mandant', 'tabelle']);
  });
  await enableTenantRls(knex, 'tabellenstaende');
  await knex.raw(`
    create or replace function tabellenstand_erhoehen() returns trigger language plpgsql as $$
    declare
      row_mandant text := case when tg_op = 'DELETE' then old.mandant else new.mandant end;
      -- A setting's name takes letters and digits only: the tenant by its hash.
      flag text := 'portal.stand_' || tg_table_name || '_' || md5(row_mandant);
      current_tenant text := current_setting('app.mandant', true);
    begin
      if current_setting(flag, true) = 'ja' then
        return null;
      end if;
      -- A tenant deleted in the same transaction has no counter to keep.
      if not exists (select 1 from mandanten where mandant = row_mandant) then
        return null;
      end if;
      -- At COMMIT the tenant setting is whatever the transaction set last; maintenance code (the seeds) writes
      -- several tenants in one transaction. The counter row is written as the row's own tenant (row-level
      -- security), and the setting put back.
      perform set_config('app.mandant', row_mandant, true);
      insert into tabellenstaende (mandant, tabelle, stand) values (row_mandant, tg_table_name, 1)
        on conflict (mandant, tabelle) do update set stand = tabellenstaende.stand + 1;
      perform set_config('app.mandant', coalesce(current_tenant, ''), true);
      perform set_config(flag, 'ja', true);
      return null;
    end $$`);
  for (const table of TABLES) {
    await knex.raw(`
      create constraint trigger ${table}_stand after insert or update or delete on ${table}
        deferrable initially deferred for each row execute function tabellenstand_erhoehen()`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of TABLES) await knex.raw(`drop trigger ${table}_stand on ${table}`);
  await knex.raw('drop function tabellenstand_erhoehen()');
  await knex.schema.dropTable('tabellenstaende');
}
