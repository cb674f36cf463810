// Single sign-on: every id_token the portal accepted, by its SHA-256, until it expires, so that a token is
// accepted once (issue 22: no replay of a captured id_token on POST /api/v1/sso/login or the browser flow).
// Platform data, not a tenant's: a sign-in happens before a tenant is chosen, and the table names no tenant.
// Kept in the database rather than in memory so that every instance of the portal refuses a replay. The
// app's tenant role gets no grant (the default privileges would give it one): only the sign-in code, which runs
// as the connection's user, reads it, as for sessions and rate limits.
import type { Knex } from 'knex';
import { APP_ROLE } from '../src/db/rls.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sso_token_verwendung', (t) => {
    t.string('token_hash', 64).primary();
    t.timestamp('gueltig_bis', { useTz: true }).notNullable();
    t.timestamp('verwendet_am', { useTz: true }).notNullable();
  });
  await knex.raw('create index sso_token_verwendung_gueltig_idx on sso_token_verwendung (gueltig_bis)');
  await knex.raw(`revoke all on sso_token_verwendung from ${APP_ROLE}`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('sso_token_verwendung');
}
