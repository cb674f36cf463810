// The parameters a user last generated a report with, per user and tenant (the generator prefills them next
// time). A table of its own rather than the user settings: the values name a tenant's partners, locations and
// products, so they belong to the tenant and go under its row-level security; the settings are the user's
// across tenants. One row per user and tenant, replaced on each generation.
import type { Knex } from 'knex';
import { enableTenantRls } from '../src/db/rls.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('report_vorgaben', (t) => {
    t.string('mandant', 32).notNullable().references('mandant').inTable('mandanten').onUpdate('CASCADE').onDelete('CASCADE');
    t.integer('benutzer_id').notNullable().references('id').inTable('benutzer').onDelete('CASCADE');
    t.string('bericht', 64).notNullable();
    t.jsonb('parameter').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['mandant', 'benutzer_id']);
  });
  await enableTenantRls(knex, 'report_vorgaben');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('report_vorgaben');
}
