// Files of records (a certificate's PDF, a partner's contract): stored in the database, under row-level
// security like every tenant table, so backups, restores and tenant isolation cover them with the records. A
// record's file field holds a reference (id, name, type, size, SHA-256) in its row and in each version; the
// content is written once and never changed, so an older version's file stays as it was.
import type { Knex } from 'knex';
import { enableTenantRls } from '../src/db/rls.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('dateien', (t) => {
    t.string('mandant', 32).notNullable().references('mandant').inTable('mandanten').onUpdate('CASCADE').onDelete('CASCADE');
    t.bigIncrements('id', { primaryKey: false });
    t.string('name', 255).notNullable();
    t.string('typ', 100).notNullable();
    t.integer('groesse').notNullable();
    t.string('sha256', 64).notNullable();
    t.binary('inhalt').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.integer('created_by').nullable();
    t.primary(['mandant', 'id']);
  });
  await knex.raw('alter table dateien add constraint dateien_groesse check (groesse >= 0 and groesse = octet_length(inhalt))');
  await enableTenantRls(knex, 'dateien');
  await knex.schema.alterTable('tauschpartner', (t) => t.jsonb('vertrag_datei').nullable());
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('tauschpartner', (t) => t.dropColumn('vertrag_datei'));
  await knex.schema.dropTable('dateien');
}
