// Movement data: inbound deliveries (Einlieferungen), outbound deliveries (Ablieferungen) and stock figures
// (Bestände). Deliveries refer to master data by number *and version*, so a delivery keeps showing its partner,
// location and product as they were when it was recorded. Quantities are exact decimals (numeric) with their
// unit; nothing here is floating point. Both delivery tables share one column layout (menge, einheit, datum), so
// one piece of code serves both; the API names the fields as the spec does per entity.
import type { Knex } from 'knex';

const LIEFERSTATUS = ['open', 'inProgress', 'completed', 'locked'];

function versions(knex: Knex, table: string) {
  return knex.schema.createTable(`${table}_versionen`, (t) => {
    t.string('mandant', 32).notNullable();
    t.string('nr', 32).notNullable();
    t.integer('version').notNullable();
    t.jsonb('data').notNullable();
    t.jsonb('changes').notNullable();
    t.timestamp('at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.integer('benutzer_id');
    t.primary(['mandant', 'nr', 'version']);
  });
}

function recordColumns(t: Knex.CreateTableBuilder, knex: Knex) {
  t.integer('version').notNullable().defaultTo(1);
  t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  t.integer('updated_by');
}

async function delivery(knex: Knex, table: string) {
  await knex.schema.createTable(table, (t) => {
    t.string('mandant', 32).notNullable().references('mandant').inTable('mandanten').onDelete('CASCADE');
    t.string('nr', 32).notNullable();
    t.string('typ', 50);
    t.decimal('biogehalt', 7, 4); // percent
    t.decimal('menge', 18, 3).notNullable();
    t.string('einheit', 4).notNullable(); // L or kg
    t.date('datum').notNullable(); // Entladedatum / Lieferdatum
    t.string('status', 16).notNullable().defaultTo('open');
    t.boolean('manuelle_eingabe').notNullable().defaultTo(false);
    t.string('partner_nr', 32).notNullable();
    t.integer('partner_version').notNullable();
    t.string('standort_nr', 32).notNullable();
    t.integer('standort_version').notNullable();
    t.string('produkt_nr', 32).notNullable();
    t.integer('produkt_version').notNullable();
    t.string('produktgruppe', 20).notNullable();
    t.string('contract_number', 100);
    t.string('incoterm', 3);
    t.string('vehicle_name', 100);
    t.text('kommentar');
    t.boolean('storniert').notNullable().defaultTo(false);
    recordColumns(t, knex);
    t.primary(['mandant', 'nr']);
    // Master data that movement data refers to cannot be deleted (it can be deactivated); a renumbered record
    // takes its references along, as its versions move with it.
    t.foreign(['mandant', 'partner_nr']).references(['mandant', 'nr']).inTable('tauschpartner').onUpdate('CASCADE');
    t.foreign(['mandant', 'standort_nr']).references(['mandant', 'nr']).inTable('standorte').onUpdate('CASCADE');
    t.foreign(['mandant', 'produkt_nr']).references(['mandant', 'nr']).inTable('produkte').onUpdate('CASCADE');
  });
  await knex.raw(`alter table ${table} add constraint ${table}_status_chk check (status in (${LIEFERSTATUS.map((s) => `'${s}'`).join(',')}))`);
  await knex.raw(`alter table ${table} add constraint ${table}_einheit_chk check (einheit in ('L','kg'))`);
  await knex.raw(`alter table ${table} add constraint ${table}_menge_chk check (menge > 0)`);
  await knex.raw(`alter table ${table} add constraint ${table}_bio_chk check (biogehalt is null or biogehalt between 0 and 100)`);
  // The lists filter by date range, partner, location, product, group and status and sort by date by default.
  await knex.raw(`create index ${table}_datum_idx on ${table} (mandant, datum desc, nr desc)`);
  for (const column of ['partner_nr', 'standort_nr', 'produkt_nr', 'produktgruppe', 'status']) {
    await knex.raw(`create index ${table}_${column}_idx on ${table} (mandant, ${column}, datum desc)`);
  }
  await versions(knex, table);
}

export async function up(knex: Knex): Promise<void> {
  await delivery(knex, 'einlieferungen');
  await delivery(knex, 'ablieferungen');

  // Number ranges (Nummernkreise) per tenant, for records whose number the portal assigns: consecutive within
  // a tenant, so no tenant learns from its numbers how many records others create (a global sequence would).
  await knex.schema.createTable('nummernkreise', (t) => {
    t.string('mandant', 32).notNullable().references('mandant').inTable('mandanten').onDelete('CASCADE');
    t.string('kreis', 32).notNullable();
    t.bigInteger('letzte').notNullable().defaultTo(0);
    t.primary(['mandant', 'kreis']);
  });

  // Stock of one product at one location on one day. Its number is assigned from the tenant's number range.
  await knex.schema.createTable('bestaende', (t) => {
    t.string('mandant', 32).notNullable().references('mandant').inTable('mandanten').onDelete('CASCADE');
    t.string('nr', 32).notNullable();
    t.date('datum').notNullable();
    t.string('standort_nr', 32).notNullable();
    t.string('produkt_nr', 32).notNullable();
    t.decimal('volumen', 18, 3).notNullable(); // litres
    t.decimal('fuellstand', 5, 2); // percent of the tank capacity
    recordColumns(t, knex);
    t.primary(['mandant', 'nr']);
    t.unique(['mandant', 'standort_nr', 'produkt_nr', 'datum']);
    t.foreign(['mandant', 'standort_nr']).references(['mandant', 'nr']).inTable('standorte').onUpdate('CASCADE');
    t.foreign(['mandant', 'produkt_nr']).references(['mandant', 'nr']).inTable('produkte').onUpdate('CASCADE');
  });
  await knex.raw('alter table bestaende add constraint bestaende_volumen_chk check (volumen >= 0)');
  await knex.raw('alter table bestaende add constraint bestaende_fuellstand_chk check (fuellstand is null or fuellstand between 0 and 100)');
  await knex.raw('create index bestaende_datum_idx on bestaende (mandant, datum desc, nr desc)');
  await knex.raw('create index bestaende_produkt_idx on bestaende (mandant, produkt_nr, datum desc)');
  await versions(knex, 'bestaende');
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['bestaende', 'ablieferungen', 'einlieferungen']) {
    await knex.schema.dropTable(`${table}_versionen`);
    await knex.schema.dropTable(table);
  }
  await knex.schema.dropTable('nummernkreise');
}
