// Master data: locations (Standorte), products (Produkte), partners (Tauschpartner) with their rules. Each
// entity keeps its current row plus one row per version (who, when, the full record, what changed), so
// movement data that refers to `nr` + `version` always shows the record as it was. Quantities and factors
// are exact decimals (numeric), never floating point.
import type { Knex } from 'knex';

function audited(t: Knex.CreateTableBuilder, knex: Knex) {
  t.integer('version').notNullable().defaultTo(1);
  t.string('status', 16).notNullable().defaultTo('aktiv');
  t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  t.integer('updated_by');
}

function versions(knex: Knex, table: string) {
  return knex.schema.createTable(`${table}_versionen`, (t) => {
    t.string('mandant', 32).notNullable();
    t.string('nr', 32).notNullable();
    t.integer('version').notNullable();
    t.jsonb('data').notNullable();
    t.jsonb('changes').notNullable(); // [{field, before, after}]
    t.timestamp('at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.integer('benutzer_id');
    t.primary(['mandant', 'nr', 'version']);
  });
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('standorte', (t) => {
    t.string('strasse', 200);
    t.string('haus_nr', 20);
    t.string('plz', 20);
    t.string('stadt', 100);
    t.string('land', 100);
    t.string('code', 20); // licence plate
    t.string('anlage', 50); // plant number
    t.boolean('quota').notNullable().defaultTo(false); // quota-obligated
    audited(t, knex);
  });
  await versions(knex, 'standorte');

  await knex.schema.createTable('produkte', (t) => {
    t.string('mandant', 32).notNullable().references('mandant').inTable('mandanten').onDelete('CASCADE');
    t.string('nr', 32).notNullable();
    t.string('name', 200).notNullable();
    t.decimal('biogehalt', 7, 4).notNullable().defaultTo(0); // percent
    t.decimal('lcv', 12, 4); // lower calorific value
    t.string('lcv_einheit', 8); // MJ/kg or MJ/L
    t.text('beschreibung');
    t.string('produktgruppe', 20).notNullable();
    t.string('produkttyp', 100);
    t.text('kommentar');
    audited(t, knex);
    t.primary(['mandant', 'nr']);
  });
  await versions(knex, 'produkte');

  await knex.schema.createTable('tauschpartner', (t) => {
    t.string('mandant', 32).notNullable().references('mandant').inTable('mandanten').onDelete('CASCADE');
    t.string('nr', 32).notNullable();
    t.string('name', 200).notNullable();
    t.string('strasse', 200);
    t.string('haus_nr', 20);
    t.string('plz', 20);
    t.string('stadt', 100);
    t.string('land', 100);
    t.string('email', 254);
    t.string('gruppe', 100);
    t.string('vertrag', 100); // contract number
    audited(t, knex);
    t.primary(['mandant', 'nr']);
  });
  await versions(knex, 'tauschpartner');

  await knex.schema.createTable('tauschpartner_regeln', (t) => {
    t.string('mandant', 32).notNullable();
    t.increments('id');
    t.string('partner_nr', 32).notNullable();
    t.string('standort_nr', 32).notNullable();
    t.integer('prioritaet').notNullable();
    t.decimal('biogehalt', 7, 4); // percent
    t.decimal('biomenge', 18, 3);
    t.string('biomenge_einheit', 4); // L or kg
    t.dropPrimary();
    t.primary(['mandant', 'id']);
    t.foreign(['mandant', 'partner_nr']).references(['mandant', 'nr']).inTable('tauschpartner').onDelete('CASCADE').onUpdate('CASCADE');
    t.foreign(['mandant', 'standort_nr']).references(['mandant', 'nr']).inTable('standorte').onUpdate('CASCADE');
  });
  await knex.raw('create index tauschpartner_regeln_partner_idx on tauschpartner_regeln (mandant, partner_nr, prioritaet)');

  for (const table of ['standorte', 'produkte', 'tauschpartner']) {
    await knex.raw(`alter table ${table} add constraint ${table}_status_chk check (status in ('aktiv','inaktiv'))`);
    await knex.raw(`create index ${table}_name_idx on ${table} (mandant, lower(name))`);
  }
  // A location's number may change (after confirmation): references follow it.
  await knex.schema.alterTable('rollen', (t) => {
    t.dropForeign(['mandant', 'standort_nr']);
    t.foreign(['mandant', 'standort_nr']).references(['mandant', 'nr']).inTable('standorte').onUpdate('CASCADE');
  });
  await knex.schema.alterTable('benutzer_standorte', (t) => {
    t.dropForeign(['mandant', 'standort_nr']);
    t.foreign(['mandant', 'standort_nr']).references(['mandant', 'nr']).inTable('standorte').onDelete('CASCADE').onUpdate('CASCADE');
  });
  await knex.raw(`alter table produkte add constraint produkte_gruppe_chk check (produktgruppe in ('diesel','benzin','biodiesel','bioethanol','hvo','pflanzenoel'))`);
  await knex.raw(`alter table produkte add constraint produkte_bio_chk check (biogehalt between 0 and 100)`);
  await knex.raw(`alter table produkte add constraint produkte_lcv_chk check (lcv_einheit is null or lcv_einheit in ('MJ/kg','MJ/L'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('tauschpartner_regeln');
  for (const table of ['tauschpartner', 'produkte']) {
    await knex.schema.dropTable(`${table}_versionen`);
    await knex.schema.dropTable(table);
  }
  await knex.schema.dropTable('standorte_versionen');
  await knex.schema.alterTable('standorte', (t) => {
    for (const c of ['strasse', 'haus_nr', 'plz', 'stadt', 'land', 'code', 'anlage', 'quota', 'version', 'status', 'created_at', 'updated_at', 'updated_by']) t.dropColumn(c);
  });
}
