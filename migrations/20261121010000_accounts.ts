// Accounts: attempt counters for rate limits (in the database, so several app processes share them), the
// SSO subject of a user, and when a password last changed.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('rate_limits', (t) => {
    t.string('key', 300).primary();
    t.integer('points').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
  });
  await knex.raw('create index rate_limits_expires_idx on rate_limits (expires_at)');
  await knex.schema.alterTable('benutzer', (t) => {
    t.string('sso_subject', 255).unique();
    t.timestamp('password_changed_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('benutzer', (t) => {
    t.dropColumn('sso_subject');
    t.dropColumn('password_changed_at');
  });
  await knex.schema.dropTable('rate_limits');
}
