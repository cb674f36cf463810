// Nachrichten: messages from a tenant administrator (or a system administrator) to the users of a tenant, valid
// from one day to another, and who has read which (docs/decisions.md "Nachrichten").
//
// - nachrichten: tenant data under row-level security. A system administrator's message "to all tenants" is one
//   row per tenant, written in one transaction and tied together by `gruppe` (the same uuid), so each tenant's
//   rows stay its own (deleting it in one tenant leaves the others) and no read ever crosses tenants.
// - nachrichten_gelesen: the read marks, one row per message and user, also per tenant under row-level security.
//   Deleting a message deletes its marks.
// - nachrichten_ungelesen(benutzer, mandant, heute): the header's unread count, read in the same statement as
//   the session and its user (src/http/session-store.ts), so it costs no round trip of its own. Like
//   benutzer_standorte_namen() it sets the tenant for its own reads (the session read runs before any tenant
//   transaction), and it counts only for a tenant the user belongs to.
import type { Knex } from 'knex';
import { enableTenantRls } from '../src/db/rls.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('nachrichten', (t) => {
    t.bigIncrements('id');
    t.string('mandant', 32).notNullable().references('mandant').inTable('mandanten').onUpdate('CASCADE').onDelete('CASCADE');
    t.string('titel', 200).notNullable();
    t.text('text').notNullable();
    t.date('gueltig_von').notNullable();
    t.date('gueltig_bis');
    t.uuid('gruppe');
    t.integer('erstellt_von').references('id').inTable('benutzer').onDelete('SET NULL');
    t.timestamp('erstellt_am', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`alter table nachrichten add constraint nachrichten_gueltig_chk check (gueltig_bis is null or gueltig_bis >= gueltig_von)`);
  await knex.raw(`alter table nachrichten add constraint nachrichten_titel_chk check (length(btrim(titel)) > 0)`);
  await knex.raw(`alter table nachrichten add constraint nachrichten_text_chk check (length(text) <= 5000)`);
  await knex.raw('create index nachrichten_mandant_idx on nachrichten (mandant, gueltig_von desc, id desc)');
  await enableTenantRls(knex, 'nachrichten');

  await knex.schema.createTable('nachrichten_gelesen', (t) => {
    t.string('mandant', 32).notNullable().references('mandant').inTable('mandanten').onUpdate('CASCADE').onDelete('CASCADE');
    t.bigInteger('nachricht_id').notNullable().references('id').inTable('nachrichten').onDelete('CASCADE');
    t.integer('benutzer_id').notNullable().references('id').inTable('benutzer').onDelete('CASCADE');
    t.timestamp('gelesen_am', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['mandant', 'benutzer_id', 'nachricht_id']);
  });
  await knex.raw('create index nachrichten_gelesen_nachricht_idx on nachrichten_gelesen (nachricht_id)');
  await enableTenantRls(knex, 'nachrichten_gelesen');

  await knex.raw(`
    create or replace function nachrichten_ungelesen(p_benutzer integer, p_mandant varchar, p_heute date)
    returns integer
    language plpgsql volatile
    as $$
    declare
      vorher text := current_setting('app.mandant', true);
      anzahl integer := 0;
    begin
      if p_benutzer is null or p_mandant is null or p_heute is null then
        return null;
      end if;
      if not exists (select 1 from benutzer_mandanten bm where bm.benutzer_id = p_benutzer and bm.mandant = p_mandant) then
        return null;
      end if;
      perform set_config('app.mandant', p_mandant, true);
      select count(*) into anzahl
        from nachrichten n
       where n.mandant = p_mandant and n.gueltig_von <= p_heute and (n.gueltig_bis is null or n.gueltig_bis >= p_heute)
         and not exists (select 1 from nachrichten_gelesen g where g.mandant = n.mandant and g.nachricht_id = n.id and g.benutzer_id = p_benutzer);
      perform set_config('app.mandant', coalesce(vorher, ''), true);
      return anzahl;
    end $$`);
  await knex.raw('revoke all on function nachrichten_ungelesen(integer, varchar, date) from public');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop function if exists nachrichten_ungelesen(integer, varchar, date)');
  await knex.schema.dropTable('nachrichten_gelesen');
  await knex.schema.dropTable('nachrichten');
}
