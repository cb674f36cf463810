// API keys per tenant, the answers kept for idempotent POSTs, and the key's name on audit entries (issue 19,
// points 3 and 4; docs/decisions.md "API keys, idempotency and bulk writes").
//
// - api_keys: tenant data under row-level security. Only the SHA-256 of the secret is stored (`hash`, unique),
//   with the first characters of the key for the list (`praefix`). The key names its tenant in clear
//   (npk_DEMO_…), so the lookup runs as that tenant like any tenant query. `rollen` is the scope (role types),
//   `standorte` null for all locations. Revoked keys stay listed (`widerrufen_am`); names are unique among a
//   tenant's live keys.
// - idempotency_keys: per tenant and caller (`aufrufer`: k<key id> or u<user id>), the Idempotency-Key, the
//   SHA-256 of method, path and canonical body, and once answered its status and JSON body. A row without a
//   status is a reservation: the first request is still running. Rows older than 24 hours are dead and are
//   replaced or swept.
// - audit_log: api_key_id and api_key_name, filled when a key made the change (src/db/audit.ts); every versions
//   table (*_versionen) api_key_name, so a record's history says a key wrote the version (src/records/authors.ts).
//   A later migration that creates a versions table adds the column too.
import type { Knex } from 'knex';
import { enableTenantRls } from '../src/db/rls.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('api_keys', (t) => {
    t.bigIncrements('id');
    t.string('mandant', 32).notNullable().references('mandant').inTable('mandanten').onUpdate('CASCADE').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.string('praefix', 64).notNullable();
    t.string('hash', 64).notNullable().unique();
    t.jsonb('rollen').notNullable();
    t.jsonb('standorte');
    t.integer('erstellt_von').references('id').inTable('benutzer').onDelete('SET NULL');
    t.timestamp('erstellt_am', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('zuletzt_benutzt_am', { useTz: true });
    t.timestamp('widerrufen_am', { useTz: true });
    t.integer('widerrufen_von').references('id').inTable('benutzer').onDelete('SET NULL');
  });
  await knex.raw(`alter table api_keys add constraint api_keys_name_chk check (length(btrim(name)) > 0)`);
  await knex.raw(`alter table api_keys add constraint api_keys_rollen_chk check (jsonb_typeof(rollen) = 'array' and jsonb_array_length(rollen) > 0)`);
  await knex.raw(`create unique index api_keys_name_idx on api_keys (mandant, lower(name)) where widerrufen_am is null`);
  await knex.raw(`create index api_keys_mandant_idx on api_keys (mandant, erstellt_am desc, id desc)`);
  await enableTenantRls(knex, 'api_keys');

  await knex.schema.createTable('idempotency_keys', (t) => {
    t.string('mandant', 32).notNullable().references('mandant').inTable('mandanten').onUpdate('CASCADE').onDelete('CASCADE');
    t.string('aufrufer', 32).notNullable();
    t.string('schluessel', 255).notNullable();
    t.string('anfrage_hash', 64).notNullable();
    t.integer('status');
    t.jsonb('antwort');
    t.timestamp('erstellt_am', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['mandant', 'aufrufer', 'schluessel']);
  });
  await knex.raw(`create index idempotency_keys_alter_idx on idempotency_keys (mandant, erstellt_am)`);
  await enableTenantRls(knex, 'idempotency_keys');

  await knex.schema.alterTable('audit_log', (t) => {
    t.bigInteger('api_key_id');
    t.string('api_key_name', 100);
  });
  for (const table of await versionTables(knex)) await knex.raw('alter table ?? add column api_key_name varchar(100)', [table]);
}

async function versionTables(knex: Knex): Promise<string[]> {
  const rows: { table_name: string }[] = await knex('information_schema.columns')
    .where({ table_schema: knex.raw('current_schema()'), column_name: 'benutzer_id' })
    .andWhere('table_name', 'like', '%\\_versionen')
    .orderBy('table_name')
    .select('table_name');
  return rows.map((r) => r.table_name);
}

export async function down(knex: Knex): Promise<void> {
  for (const table of await versionTables(knex)) await knex.raw('alter table ?? drop column api_key_name', [table]);
  await knex.schema.alterTable('audit_log', (t) => {
    t.dropColumn('api_key_name');
    t.dropColumn('api_key_id');
  });
  await knex.schema.dropTable('idempotency_keys');
  await knex.schema.dropTable('api_keys');
}
