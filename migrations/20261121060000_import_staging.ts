// The master-data import keeps a parsed file on the server between preview and confirmation, so the commit
// writes exactly what the user saw and never trusts data posted back by the browser. One row per import
// (who, which entity, the preview's summary, later the result) and its validated rows in chunks of a few
// hundred, so neither the preview nor the commit ever holds a 50,000-row file in one value. Tenant-owned:
// `mandant` leads every key. Imports older than an hour are expired (and deleted on the next preview).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('import_staging', (t) => {
    t.string('mandant', 32).notNullable().references('mandant').inTable('mandanten').onDelete('CASCADE');
    t.uuid('id').notNullable();
    t.integer('benutzer_id').notNullable().references('id').inTable('benutzer').onDelete('CASCADE');
    t.string('entity', 32).notNullable();
    t.string('filename', 255);
    t.jsonb('fields').notNullable(); // the entity's fields that have a column in the file
    t.jsonb('summary').notNullable(); // counts, the first rows, the refused rows and their errors
    t.jsonb('result'); // the counts of the commit, once confirmed
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('committed_at', { useTz: true });
    t.primary(['mandant', 'id']);
  });
  await knex.raw('create index import_staging_created_idx on import_staging (mandant, created_at)');

  await knex.schema.createTable('import_staging_rows', (t) => {
    t.string('mandant', 32).notNullable();
    t.uuid('id').notNullable();
    t.integer('chunk').notNullable();
    t.jsonb('rows').notNullable(); // [{row, nr, values}]
    t.primary(['mandant', 'id', 'chunk']);
    t.foreign(['mandant', 'id']).references(['mandant', 'id']).inTable('import_staging').onDelete('CASCADE');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('import_staging_rows');
  await knex.schema.dropTable('import_staging');
}
