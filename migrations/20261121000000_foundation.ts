// Tenants, users, memberships, roles, locations per user, settings, sessions and the audit log.
// Every tenant-owned table carries `mandant` as the first column of its primary key, so rows can never be
// joined across tenants by accident and the schema can later be distributed by tenant (Citus).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('mandanten', (t) => {
    t.string('mandant', 32).primary(); // upper-case tenant id, e.g. DEMO
    t.string('name', 200).notNullable();
    t.string('email', 254);
    t.string('strasse', 200);
    t.string('haus_nr', 20);
    t.string('plz', 20);
    t.string('stadt', 100);
    t.string('land', 100);
    t.string('status', 16).notNullable().defaultTo('active');
    t.string('zertifizierungsnummer', 100);
    t.timestamps(true, true);
  });
  await knex.raw(`alter table mandanten add constraint mandanten_status_chk check (status in ('active','inactive'))`);
  await knex.raw(`alter table mandanten add constraint mandanten_upper_chk check (mandant = upper(mandant))`);

  // Users are global: one person may work for several tenants.
  await knex.schema.createTable('benutzer', (t) => {
    t.increments('id').primary();
    t.string('login', 100).notNullable().unique(); // stored upper-case
    t.string('email', 254).notNullable();
    t.string('vorname', 100).notNullable().defaultTo('');
    t.string('nachname', 100).notNullable().defaultTo('');
    t.text('password_hash').notNullable();
    t.string('status', 16).notNullable().defaultTo('active');
    t.boolean('admin_kz').notNullable().defaultTo(false); // system administrator
    t.boolean('support_kz').notNullable().defaultTo(false); // support staff: never admin
    t.text('mfa_secret');
    t.boolean('mfa_enabled').notNullable().defaultTo(false);
    t.bigInteger('mfa_last_step'); // last accepted TOTP time step: a code is never accepted twice
    t.timestamps(true, true);
  });
  await knex.raw(`create unique index benutzer_email_uq on benutzer (lower(email))`);
  await knex.raw(`alter table benutzer add constraint benutzer_status_chk check (status in ('active','inactive'))`);

  await knex.schema.createTable('benutzer_mandanten', (t) => {
    t.string('mandant', 32).notNullable().references('mandant').inTable('mandanten').onDelete('CASCADE');
    t.integer('benutzer_id').notNullable().references('id').inTable('benutzer').onDelete('CASCADE');
    t.boolean('admin_kz').notNullable().defaultTo(false); // tenant administrator
    t.primary(['mandant', 'benutzer_id']);
  });
  await knex.raw(`create index benutzer_mandanten_user_idx on benutzer_mandanten (benutzer_id)`);

  // Locations. Master data (issue 5) adds its versioned fields to this table.
  await knex.schema.createTable('standorte', (t) => {
    t.string('mandant', 32).notNullable().references('mandant').inTable('mandanten').onDelete('CASCADE');
    t.string('nr', 32).notNullable();
    t.string('name', 200).notNullable();
    t.primary(['mandant', 'nr']);
  });

  // A role grants one role type (1–25, spec section 6) in one tenant, for all locations (standort_nr null)
  // or for one location.
  await knex.schema.createTable('rollen', (t) => {
    t.string('mandant', 32).notNullable().references('mandant').inTable('mandanten').onDelete('CASCADE');
    t.increments('id');
    t.integer('benutzer_id').notNullable().references('id').inTable('benutzer').onDelete('CASCADE');
    t.smallint('typ').notNullable();
    t.string('standort_nr', 32);
    t.dropPrimary();
    t.primary(['mandant', 'id']);
    t.foreign(['mandant', 'standort_nr']).references(['mandant', 'nr']).inTable('standorte');
  });
  await knex.raw(`alter table rollen add constraint rollen_typ_chk check (typ between 1 and 25)`);
  await knex.raw(
    `create unique index rollen_uq on rollen (mandant, benutzer_id, typ, coalesce(standort_nr, ''))`,
  );

  // The locations a user works at, per tenant (the `standorte` of the login response).
  await knex.schema.createTable('benutzer_standorte', (t) => {
    t.string('mandant', 32).notNullable();
    t.integer('benutzer_id').notNullable().references('id').inTable('benutzer').onDelete('CASCADE');
    t.string('standort_nr', 32).notNullable();
    t.primary(['mandant', 'benutzer_id', 'standort_nr']);
    t.foreign(['mandant', 'standort_nr']).references(['mandant', 'nr']).inTable('standorte').onDelete('CASCADE');
  });

  // Personal settings, stored as JSON text per type (type 1: the settings screen).
  await knex.schema.createTable('einstellungen', (t) => {
    t.integer('benutzer_id').notNullable().references('id').inTable('benutzer').onDelete('CASCADE');
    t.smallint('typ').notNullable();
    t.text('data').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['benutzer_id', 'typ']);
  });

  // Server-side sessions: shared by every app process; `benutzer_id` lets logout-everywhere and
  // deactivation end a user's sessions at once.
  await knex.schema.createTable('sessions', (t) => {
    t.string('sid', 128).primary();
    t.integer('benutzer_id').references('id').inTable('benutzer').onDelete('CASCADE');
    t.jsonb('sess').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`create index sessions_user_idx on sessions (benutzer_id)`);
  await knex.raw(`create index sessions_expires_idx on sessions (expires_at)`);

  await knex.schema.createTable('audit_log', (t) => {
    t.bigIncrements('id');
    t.timestamp('at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.string('mandant', 32); // null for events outside a tenant (failed logins)
    t.integer('benutzer_id');
    t.string('kind', 64).notNullable(); // e.g. auth.login.failed, admin.user.update
    t.string('entity', 64);
    t.string('entity_id', 64);
    t.jsonb('before');
    t.jsonb('after');
    t.string('ip', 64);
  });
  await knex.raw(`create index audit_log_at_idx on audit_log (at desc)`);
  await knex.raw(`create index audit_log_mandant_idx on audit_log (mandant, at desc)`);
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'audit_log', 'sessions', 'einstellungen', 'benutzer_standorte', 'rollen', 'standorte',
    'benutzer_mandanten', 'benutzer', 'mandanten',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
