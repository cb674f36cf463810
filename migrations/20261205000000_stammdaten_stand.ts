// Adds no table: the change counter of migrations/20261126010000_tabellenstaende.ts on the three master tables
// movement data refers to (partners, locations, products), and stammdaten_stand(benutzer, mandant), their sum.
// The filter and form choices of movement data are these tables' numbers, names and statuses: a process
// reuses the choices it read while the sum, read in the same statement as the session
// (src/http/session-store.ts), still stands where it stood (src/db/stand-cache.ts). Each counter
// moves at COMMIT of every transaction that inserts, updates or deletes such a row, whoever writes it (form,
// import, seeds, SQL by hand), and only upwards: so does the sum.
// Like nachrichten_ungelesen() the function sets the tenant for its own read (the session read runs before any
// tenant transaction), and answers only for a tenant the user belongs to.
import type { Knex } from 'knex';

const TABLES = ['produkte', 'standorte', 'tauschpartner'];

export async function up(knex: Knex): Promise<void> {
  for (const table of TABLES) {
    await knex.raw(`
      create constraint trigger ${table}_stand after insert or update or delete on ${table}
        deferrable initially deferred for each row execute function tabellenstand_erhoehen()`);
  }
  await knex.raw(`
    create or replace function stammdaten_stand(p_benutzer integer, p_mandant varchar)
    returns bigint
    language plpgsql volatile
    as $$
    declare
      vorher text := current_setting('app.mandant', true);
      summe bigint;
    begin
      if p_benutzer is null or p_mandant is null then
        return null;
      end if;
      if not exists (select 1 from benutzer_mandanten bm where bm.benutzer_id = p_benutzer and bm.mandant = p_mandant) then
        return null;
      end if;
      perform set_config('app.mandant', p_mandant, true);
      select coalesce(sum(t.stand), 0) into summe
        from tabellenstaende t
       where t.mandant = p_mandant and t.tabelle in (${TABLES.map((t) => `'${t}'`).join(', ')});
      perform set_config('app.mandant', coalesce(vorher, ''), true);
      return summe;
    end $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop function if exists stammdaten_stand(integer, varchar)');
  for (const table of TABLES) await knex.raw(`drop trigger if exists ${table}_stand on ${table}`);
}
