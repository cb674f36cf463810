// The chain of custody (Lieferkette): collections (Abholungen) at a supplier's site with the certificates they
// carry, the inbound deliveries (Einlieferungen) they arrived as, and the certificates assigned to outbound
// deliveries (Ablieferungen). What the law and the money depend on is a constraint here as well as code:
// - an Einlieferung belongs to at most one Abholung: the link is one column of the delivery
//   (`einlieferungen.abholung_nr`), so a second collection cannot be recorded for it, with a foreign key so it
//   cannot point to nothing;
// - the certificates of a collection are a versioned list on the collection (`abholungen.nachweise`, what its
//   versions show) and a working table (`abholung_nachweise`) with foreign keys and the reverse index, as the
//   partner's rules are (20261122000000_tauschpartner_regeln);
// - a certificate assigned to an outbound delivery is a Nachweisbescheinigung issued for it
//   (`nachweisbescheinigungen.ablieferung_nr`), its volume taken from the certificate's rest, which can never
//   go below zero (`nachweise_rest_chk`).
import type { Knex } from 'knex';
import { enableTenantRls } from '../src/db/rls.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('abholungen', (t) => {
    t.string('mandant', 32).notNullable().references('mandant').inTable('mandanten').onUpdate('CASCADE').onDelete('CASCADE');
    t.string('nr', 32).notNullable();
    t.string('bilanzierung_nr', 50);
    t.date('lieferdatum').notNullable();
    // Lieferstelle: the tenant's location the collected goods are delivered to (it scopes who may see it).
    t.string('lieferstelle_nr', 32).notNullable();
    t.string('lieferant', 200);
    t.string('ablieferung_nr', 32);
    t.string('produkt_nr', 32);
    t.string('produktgruppe', 20).notNullable();
    t.string('abgang_produkt', 200);
    t.string('produkttyp', 50);
    t.decimal('kraftstoffmenge', 18, 3).notNullable();
    t.decimal('menge', 18, 3);
    t.decimal('volumen', 18, 3);
    t.string('einheit', 4).notNullable().defaultTo('L');
    t.decimal('anteil', 7, 4); // percent
    t.decimal('biogehalt', 7, 4); // percent
    t.jsonb('nachweise').notNullable().defaultTo('[]'); // ["<nachweisNr>", …] as of this version
    t.text('kommentar');
    t.boolean('storniert').notNullable().defaultTo(false);
    t.integer('version').notNullable().defaultTo(1);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.integer('updated_by');
    t.primary(['mandant', 'nr']);
    t.foreign(['mandant', 'lieferstelle_nr']).references(['mandant', 'nr']).inTable('standorte').onUpdate('CASCADE');
    t.foreign(['mandant', 'produkt_nr']).references(['mandant', 'nr']).inTable('produkte').onUpdate('CASCADE');
    t.foreign(['mandant', 'ablieferung_nr']).references(['mandant', 'nr']).inTable('ablieferungen').onUpdate('CASCADE');
  });
  await knex.raw(`alter table abholungen add constraint abholungen_kraftstoffmenge_chk check (kraftstoffmenge > 0)`);
  await knex.raw(`alter table abholungen add constraint abholungen_menge_chk check ((menge is null or menge >= 0) and (volumen is null or volumen >= 0))`);
  await knex.raw(`alter table abholungen add constraint abholungen_einheit_chk check (einheit in ('L','kg'))`);
  await knex.raw(`alter table abholungen add constraint abholungen_prozent_chk check ((anteil is null or anteil between 0 and 100) and (biogehalt is null or biogehalt between 0 and 100))`);
  await knex.raw('create index abholungen_datum_idx on abholungen (mandant, lieferdatum desc, nr desc)');
  for (const column of ['lieferstelle_nr', 'produktgruppe', 'storniert']) {
    await knex.raw(`create index abholungen_${column}_idx on abholungen (mandant, ${column}, lieferdatum desc)`);
  }
  await knex.raw('create index abholungen_ablieferung_idx on abholungen (mandant, ablieferung_nr) where ablieferung_nr is not null');
  await enableTenantRls(knex, 'abholungen');

  await knex.schema.createTable('abholungen_versionen', (t) => {
    t.string('mandant', 32).notNullable();
    t.string('nr', 32).notNullable();
    t.integer('version').notNullable();
    t.jsonb('data').notNullable();
    t.jsonb('changes').notNullable();
    t.timestamp('at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.integer('benutzer_id');
    t.string('quelle', 16);
    t.primary(['mandant', 'nr', 'version']);
  });
  await knex.raw(`alter table abholungen_versionen add constraint abholungen_versionen_quelle_chk check (quelle in ('demo'))`);
  await enableTenantRls(knex, 'abholungen_versionen');
  await knex.raw(`create constraint trigger abholungen_stand after insert or update or delete on abholungen
    deferrable initially deferred for each row execute function tabellenstand_erhoehen()`);

  await knex.schema.createTable('abholung_nachweise', (t) => {
    t.string('mandant', 32).notNullable();
    t.string('abholung_nr', 32).notNullable();
    t.string('nachweis_nr', 32).notNullable();
    t.primary(['mandant', 'abholung_nr', 'nachweis_nr']);
    t.foreign(['mandant', 'abholung_nr']).references(['mandant', 'nr']).inTable('abholungen').onUpdate('CASCADE').onDelete('CASCADE');
    t.foreign(['mandant', 'nachweis_nr']).references(['mandant', 'nr']).inTable('nachweise').onUpdate('CASCADE');
  });
  await knex.raw('create index abholung_nachweise_nachweis_idx on abholung_nachweise (mandant, nachweis_nr)');
  await enableTenantRls(knex, 'abholung_nachweise');

  // An Einlieferung's collection: one column, so at most one.
  await knex.schema.alterTable('einlieferungen', (t) => {
    t.string('abholung_nr', 32);
    t.foreign(['mandant', 'abholung_nr']).references(['mandant', 'nr']).inTable('abholungen').onUpdate('CASCADE');
  });
  await knex.raw('create index einlieferungen_abholung_idx on einlieferungen (mandant, abholung_nr, datum desc)');

  // A proof issued for an outbound delivery: the certificate's quantity assigned to it.
  await knex.schema.alterTable('nachweisbescheinigungen', (t) => {
    t.string('ablieferung_nr', 32);
    t.foreign(['mandant', 'ablieferung_nr']).references(['mandant', 'nr']).inTable('ablieferungen').onUpdate('CASCADE');
  });
  await knex.raw('create index nachweisbescheinigungen_ablieferung_idx on nachweisbescheinigungen (mandant, ablieferung_nr) where ablieferung_nr is not null');
  // One live assignment per delivery and certificate (to change its volume, it is removed and assigned again).
  await knex.raw(`create unique index nachweisbescheinigungen_zuordnung_uq on nachweisbescheinigungen (mandant, ablieferung_nr, nachweis_nr)
    where ablieferung_nr is not null and not storniert`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists nachweisbescheinigungen_zuordnung_uq');
  await knex.schema.alterTable('nachweisbescheinigungen', (t) => {
    t.dropForeign(['mandant', 'ablieferung_nr']);
    t.dropColumn('ablieferung_nr');
  });
  await knex.schema.alterTable('einlieferungen', (t) => {
    t.dropForeign(['mandant', 'abholung_nr']);
    t.dropColumn('abholung_nr');
  });
  await knex.schema.dropTable('abholung_nachweise');
  await knex.raw('drop trigger if exists abholungen_stand on abholungen');
  await knex.schema.dropTable('abholungen_versionen');
  await knex.schema.dropTable('abholungen');
}
