// Row-level security on every tenant-owned table, as a second line of tenant isolation behind TenantScope
// (src/db/rls.ts, docs/decisions.md "Tenant isolation in the database").
//
// Tenant-owned: every table with a `mandant` column — master data and their versions, partner rules, import
// staging, and whatever later migrations add (movement data and its import tables, …) — except the platform
// tables named in PLATFORM_TABLES (tenants, memberships, roles, users' locations, audit log), which sign-in and
// the administration services read across tenants with explicit checks. The tables are found in the catalogue
// here rather than listed, so tables created by earlier migrations on other branches are covered too; tables
// created later call enableTenantRls() in their own migration (rls.test.ts and the start-up check catch one
// that does not).
//
// The app works as `portal_app` for tenant data: a role without login that owns nothing and cannot bypass RLS;
// the connecting user (the owner, who runs this) switches to it inside each tenant transaction. Roles belong to
// the whole PostgreSQL cluster and test databases migrate concurrently, so it is created idempotently.
import type { Knex } from 'knex';
import { APP_ROLE, disableTenantRls, enableTenantRls, mandantTables, PLATFORM_TABLES } from '../src/db/rls.js';

const BOOKKEEPING = ['knex_migrations', 'knex_migrations_lock'];
/** Platform tables that only sign-in and the account services (working as the owner) touch. */
const NOT_FOR_TENANT_WORK = ['sessions', 'rate_limits', 'einstellungen'];
const USER_COLUMNS = ['id', 'login', 'email', 'vorname', 'nachname', 'status', 'admin_kz', 'support_kz', 'mfa_enabled', 'created_at', 'updated_at'];

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    do $$
    begin
      if not exists (select 1 from pg_roles where rolname = '${APP_ROLE}') then
        create role ${APP_ROLE} nologin nosuperuser nobypassrls noinherit;
      end if;
    exception
      -- Another database of the same cluster created it in the meantime.
      when duplicate_object or unique_violation then null;
    end $$`);
  // A connecting user that is no superuser must be a member to switch to the role (superusers always may).
  await knex.raw(`
    do $$
    begin
      if not pg_has_role(session_user, '${APP_ROLE}', 'MEMBER') then
        execute format('grant ${APP_ROLE} to %I', session_user);
      end if;
    exception when unique_violation then null;
    end $$`);

  // Only what the app needs for tenant work: the data, never the schema, the migration bookkeeping, sessions
  // or users' secrets.
  await knex.raw(`grant usage on schema ${await schema(knex)} to ${APP_ROLE}`);
  await knex.raw(`grant select, insert, update, delete on all tables in schema ${await schema(knex)} to ${APP_ROLE}`);
  for (const table of [...BOOKKEEPING, ...NOT_FOR_TENANT_WORK]) await knex.raw(`revoke all on ?? from ${APP_ROLE}`, [table]);
  // Tenant data names its users (versions, members): their public columns, never secrets.
  await knex.raw(`revoke all on benutzer from ${APP_ROLE}`);
  await knex.raw(`grant select (${USER_COLUMNS.join(', ')}) on benutzer to ${APP_ROLE}`);
  await knex.raw(`grant usage, select on all sequences in schema ${await schema(knex)} to ${APP_ROLE}`);
  // Tables and sequences created later by the same owner get the same grants.
  await knex.raw(`alter default privileges in schema ${await schema(knex)} grant select, insert, update, delete on tables to ${APP_ROLE}`);
  await knex.raw(`alter default privileges in schema ${await schema(knex)} grant usage, select on sequences to ${APP_ROLE}`);

  for (const t of await mandantTables(knex)) {
    if (!(t.table in PLATFORM_TABLES)) await enableTenantRls(knex, t.table);
  }

  // Sign-in returns the user's locations with their names for every tenant of the user (spec section 3). That
  // is the one read of tenant-owned rows across tenants on the platform side; it reads each tenant with that
  // tenant set, so it works for any role under FORCE ROW LEVEL SECURITY without a bypass. Not for the app role.
  await knex.raw(`
    create or replace function benutzer_standorte_namen(p_benutzer integer)
    returns table (mandant varchar, nr varchar, name varchar)
    language plpgsql volatile
    as $$
    #variable_conflict use_column
    declare
      m varchar;
      vorher text := current_setting('app.mandant', true);
    begin
      for m in select distinct bs.mandant from benutzer_standorte bs where bs.benutzer_id = p_benutzer order by 1 loop
        perform set_config('app.mandant', m, true);
        return query
          select s.mandant, s.nr, s.name
            from benutzer_standorte bs join standorte s on s.mandant = bs.mandant and s.nr = bs.standort_nr
           where bs.benutzer_id = p_benutzer and bs.mandant = m;
      end loop;
      perform set_config('app.mandant', coalesce(vorher, ''), true);
    end $$`);
  await knex.raw('revoke all on function benutzer_standorte_namen(integer) from public');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop function if exists benutzer_standorte_namen(integer)');
  for (const t of await mandantTables(knex)) {
    if (!(t.table in PLATFORM_TABLES)) await disableTenantRls(knex, t.table);
  }
  const s = await schema(knex);
  await knex.raw(`alter default privileges in schema ${s} revoke all on tables from ${APP_ROLE}`);
  await knex.raw(`alter default privileges in schema ${s} revoke all on sequences from ${APP_ROLE}`);
  await knex.raw(`revoke all on all tables in schema ${s} from ${APP_ROLE}`);
  await knex.raw(`revoke all on all sequences in schema ${s} from ${APP_ROLE}`);
  await knex.raw(`revoke all on schema ${s} from ${APP_ROLE}`);
  // The role stays: it belongs to the cluster, and other databases may use it.
}

async function schema(knex: Knex): Promise<string> {
  const { rows } = await knex.raw('select quote_ident(current_schema()) as s');
  return rows[0].s;
}
