// Bilanzen (mass-balance periods, PoC distributions), their positions and allocation lines, and the proofs
// (POCs) a closed Bilanz issues. What the law and the money depend on is a constraint here as well as code:
// - a period is one continuous range of at most 3 months (`bilanzen_zeitraum_chk`);
// - periods of one location and product never overlap: a constraint trigger that takes a transaction lock per
//   location and product first, so two concurrent creates are serialised and the second sees the first
//   (an exclusion constraint would need the btree_gist extension, which neither database loads by default);
// - at most one open Bilanz per location and product: a partial unique index;
// - a line is never zero or negative, a position has a bio content and/or a bio quantity;
// - a POC is a Nachweisbescheinigung with `bilanz_id`: one live proof per Bilanz, delivery and certificate. The
//   manual assignment's rule (one live proof per delivery and certificate) now holds for manual ones only, so a
//   Bilanz can add to a delivery partly covered by hand from the same certificate.
import type { Knex } from 'knex';
import { enableTenantRls } from '../src/db/rls.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('bilanzen', (t) => {
    t.string('mandant', 32).notNullable().references('mandant').inTable('mandanten').onUpdate('CASCADE').onDelete('CASCADE');
    t.integer('id').notNullable();
    t.string('standort_nr', 32).notNullable();
    t.string('produkt_nr', 32).notNullable();
    t.date('zeitraum_von').notNullable();
    t.date('zeitraum_bis').notNullable();
    t.string('status', 12).notNullable().defaultTo('offen');
    t.string('einheit', 4).notNullable().defaultTo('L');
    // The figures of the last allocation (null: not allocated); frozen when it closes.
    t.timestamp('verteilt_am', { useTz: true });
    t.decimal('menge_gesamt', 18, 3);
    t.decimal('bio_menge', 18, 3);
    t.decimal('zugeordnet', 18, 3);
    t.decimal('rest_bio_menge', 18, 3);
    t.decimal('thg_minderung_t', 18, 4);
    t.jsonb('nicht_gedeckt').notNullable().defaultTo('[]');
    t.timestamp('geschlossen_am', { useTz: true });
    t.text('kommentar');
    t.integer('version').notNullable().defaultTo(1);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.integer('updated_by');
    t.primary(['mandant', 'id']);
    t.foreign(['mandant', 'standort_nr']).references(['mandant', 'nr']).inTable('standorte').onUpdate('CASCADE');
    t.foreign(['mandant', 'produkt_nr']).references(['mandant', 'nr']).inTable('produkte').onUpdate('CASCADE');
  });
  await knex.raw(`alter table bilanzen add constraint bilanzen_status_chk check (status in ('offen','geschlossen'))`);
  await knex.raw(`alter table bilanzen add constraint bilanzen_einheit_chk check (einheit in ('L','kg'))`);
  await knex.raw(`alter table bilanzen add constraint bilanzen_zeitraum_chk check (zeitraum_von <= zeitraum_bis and zeitraum_bis < (zeitraum_von + interval '3 months')::date)`);
  await knex.raw(`alter table bilanzen add constraint bilanzen_rest_chk check (rest_bio_menge is null or rest_bio_menge >= 0)`);
  await knex.raw(`create unique index bilanzen_offen_uq on bilanzen (mandant, standort_nr, produkt_nr) where status = 'offen'`);
  await knex.raw('create index bilanzen_zeitraum_idx on bilanzen (mandant, standort_nr, produkt_nr, zeitraum_von)');
  await knex.raw('create index bilanzen_liste_idx on bilanzen (mandant, zeitraum_von desc, id desc)');
  await knex.raw(`
    create function bilanzen_keine_ueberschneidung() returns trigger language plpgsql as $$
    begin
      perform pg_advisory_xact_lock(hashtext('bilanzen|' || new.mandant || '|' || new.standort_nr || '|' || new.produkt_nr));
      if exists (
        select 1 from bilanzen b
         where b.mandant = new.mandant and b.standort_nr = new.standort_nr and b.produkt_nr = new.produkt_nr and b.id <> new.id
           and b.zeitraum_von <= new.zeitraum_bis and new.zeitraum_von <= b.zeitraum_bis
      ) then
        raise exception 'bilanzen_zeitraum_ueberschneidung' using errcode = '23P01', constraint = 'bilanzen_zeitraum_ueberschneidung';
      end if;
      return null;
    end $$`);
  await knex.raw(`create constraint trigger bilanzen_zeitraum_ueberschneidung after insert or update of zeitraum_von, zeitraum_bis, standort_nr, produkt_nr on bilanzen
    for each row execute function bilanzen_keine_ueberschneidung()`);
  await enableTenantRls(knex, 'bilanzen');
  await knex.raw(`create constraint trigger bilanzen_stand after insert or update or delete on bilanzen
    deferrable initially deferred for each row execute function tabellenstand_erhoehen()`);

  await knex.schema.createTable('bilanz_positionen', (t) => {
    t.string('mandant', 32).notNullable();
    t.integer('bilanz_id').notNullable();
    t.integer('id').notNullable();
    t.string('partner_nr', 32).notNullable();
    t.integer('prioritaet').notNullable();
    t.decimal('biogehalt', 7, 4); // percent of the partner's delivered quantity
    t.decimal('bio_menge', 18, 3); // cap in the Bilanz's unit
    t.string('status', 12).notNullable().defaultTo('offen');
    t.timestamp('geschlossen_am', { useTz: true });
    t.primary(['mandant', 'bilanz_id', 'id']);
    t.foreign(['mandant', 'bilanz_id']).references(['mandant', 'id']).inTable('bilanzen').onDelete('CASCADE');
    t.foreign(['mandant', 'partner_nr']).references(['mandant', 'nr']).inTable('tauschpartner').onUpdate('CASCADE');
  });
  await knex.raw(`alter table bilanz_positionen add constraint bilanz_positionen_bio_chk check (biogehalt is not null or bio_menge is not null)`);
  await knex.raw(`alter table bilanz_positionen add constraint bilanz_positionen_werte_chk check (prioritaet >= 1 and (biogehalt is null or biogehalt between 0 and 100) and (bio_menge is null or bio_menge >= 0))`);
  await knex.raw(`alter table bilanz_positionen add constraint bilanz_positionen_status_chk check (status in ('offen','geschlossen'))`);
  await enableTenantRls(knex, 'bilanz_positionen');

  await knex.schema.createTable('bilanz_zeilen', (t) => {
    t.string('mandant', 32).notNullable();
    t.integer('bilanz_id').notNullable();
    t.integer('nr').notNullable(); // the line's place in the allocation's order
    t.integer('position_id').notNullable();
    t.string('ablieferung_nr', 32).notNullable();
    t.string('nachweis_nr', 32).notNullable();
    t.decimal('menge', 18, 3).notNullable();
    t.decimal('thg', 10, 2);
    t.decimal('thg_minderung_t', 18, 4);
    t.boolean('vorlaeufig').notNullable().defaultTo(false);
    t.jsonb('begruendung').notNullable();
    // The POC this line became when its position or the Bilanz closed.
    t.string('nachweisbescheinigung_nr', 32);
    t.primary(['mandant', 'bilanz_id', 'nr']);
    t.foreign(['mandant', 'bilanz_id', 'position_id']).references(['mandant', 'bilanz_id', 'id']).inTable('bilanz_positionen').onDelete('CASCADE');
    t.foreign(['mandant', 'ablieferung_nr']).references(['mandant', 'nr']).inTable('ablieferungen').onUpdate('CASCADE');
    t.foreign(['mandant', 'nachweis_nr']).references(['mandant', 'nr']).inTable('nachweise').onUpdate('CASCADE');
  });
  await knex.raw(`alter table bilanz_zeilen add constraint bilanz_zeilen_menge_chk check (menge > 0)`);
  await knex.raw('create index bilanz_zeilen_ablieferung_idx on bilanz_zeilen (mandant, ablieferung_nr)');
  await enableTenantRls(knex, 'bilanz_zeilen');

  await knex.schema.alterTable('nachweisbescheinigungen', (t) => {
    t.integer('bilanz_id');
    t.foreign(['mandant', 'bilanz_id']).references(['mandant', 'id']).inTable('bilanzen');
  });
  await knex.raw('drop index nachweisbescheinigungen_zuordnung_uq');
  await knex.raw(`create unique index nachweisbescheinigungen_zuordnung_uq on nachweisbescheinigungen (mandant, ablieferung_nr, nachweis_nr)
    where ablieferung_nr is not null and not storniert and bilanz_id is null`);
  await knex.raw(`create unique index nachweisbescheinigungen_poc_uq on nachweisbescheinigungen (mandant, bilanz_id, ablieferung_nr, nachweis_nr)
    where bilanz_id is not null and not storniert`);
  await knex.raw('create index nachweisbescheinigungen_poc_idx on nachweisbescheinigungen (mandant, lieferdatum desc, nr desc) where bilanz_id is not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists nachweisbescheinigungen_poc_idx');
  await knex.raw('drop index if exists nachweisbescheinigungen_poc_uq');
  await knex.raw('drop index if exists nachweisbescheinigungen_zuordnung_uq');
  await knex.raw(`create unique index nachweisbescheinigungen_zuordnung_uq on nachweisbescheinigungen (mandant, ablieferung_nr, nachweis_nr)
    where ablieferung_nr is not null and not storniert`);
  await knex.schema.alterTable('nachweisbescheinigungen', (t) => {
    t.dropForeign(['mandant', 'bilanz_id']);
    t.dropColumn('bilanz_id');
  });
  await knex.schema.dropTable('bilanz_zeilen');
  await knex.schema.dropTable('bilanz_positionen');
  await knex.raw('drop trigger if exists bilanzen_stand on bilanzen');
  await knex.raw('drop trigger if exists bilanzen_zeitraum_ueberschneidung on bilanzen');
  await knex.schema.dropTable('bilanzen');
  await knex.raw('drop function if exists bilanzen_keine_ueberschneidung()');
}
