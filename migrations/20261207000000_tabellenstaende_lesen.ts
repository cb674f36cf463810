// Adds no table: tabellenstaende_von(benutzer, mandant), every change counter of a tenant
// (migrations/20261126010000_tabellenstaende.ts) as one JSON object, read in the same statement as the session
// (src/http/session-store.ts) beside stammdaten_stand(). A list page whose tables' counters still stand where
// they stood when this process last showed the same page shows that page again without asking the database
// (src/records/list/pages.ts). Like stammdaten_stand() the function sets the tenant for its own read (the
// session read runs before any tenant transaction), and answers only for a tenant the user belongs to.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function tabellenstaende_von(p_benutzer integer, p_mandant varchar)
    returns jsonb
    language plpgsql volatile
    as $$
    declare
      vorher text := current_setting('app.mandant', true);
      staende jsonb;
    begin
      if p_benutzer is null or p_mandant is null then
        return null;
      end if;
      if not exists (select 1 from benutzer_mandanten bm where bm.benutzer_id = p_benutzer and bm.mandant = p_mandant) then
        return null;
      end if;
      perform set_config('app.mandant', p_mandant, true);
      -- Counters as text: a bigint is exact in JSON only as a string.
      select coalesce(jsonb_object_agg(t.tabelle, t.stand::text), '{}'::jsonb) into staende
        from tabellenstaende t
       where t.mandant = p_mandant;
      perform set_config('app.mandant', coalesce(vorher, ''), true);
      return staende;
    end $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop function if exists tabellenstaende_von(integer, varchar)');
}
