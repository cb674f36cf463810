// Import codes of the movement-data import: a named mapping per tenant and type (einlieferungen or
// ablieferungen) from a file's columns to a delivery's fields, kept as the text the user wrote. `version`
// protects against lost updates: a save names the version it was based on and is refused (409) if someone
// saved in between. Tenant-owned: `mandant` leads the key; a name is unique per tenant and type.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('import_mappings', (t) => {
    t.string('mandant', 32).notNullable().references('mandant').inTable('mandanten').onDelete('CASCADE');
    t.increments('id', { primaryKey: false });
    t.string('typ', 32).notNullable();
    t.string('name', 100).notNullable();
    t.text('code').notNullable();
    t.integer('version').notNullable().defaultTo(1);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.integer('updated_by').references('id').inTable('benutzer').onDelete('SET NULL');
    t.primary(['mandant', 'id']);
    t.unique(['mandant', 'typ', 'name']);
  });
  await knex.raw("alter table import_mappings add constraint import_mappings_typ_chk check (typ in ('einlieferungen','ablieferungen'))");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('import_mappings');
}
