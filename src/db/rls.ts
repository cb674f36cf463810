// Row-level security: the database's own tenant isolation, the second line behind TenantScope (src/db/scope.ts).
// Every tenant-owned table (every table with a `mandant` column except the platform tables below) has RLS
// enabled and forced, with one policy: a row is visible and writable only while `app.mandant` names its
// tenant. TenantScope sets that setting, and switches to the app role, at the start of each of its
// transactions (set_config(…, true): until the end of the transaction, so a pooled connection never carries a
// tenant into the next request). A query that forgot the tenant therefore returns nothing, not everything.
// docs/decisions.md ("Tenant isolation in the database") explains the choices.
import type { Knex } from 'knex';

/**
 * The role the app works as for tenant data: owns no table, is no superuser and has no BYPASSRLS, so the
 * policies always apply to it. NOLOGIN: the connection's own user (the owner, who migrates) switches to it
 * inside each tenant transaction, on the embedded database as on PostgreSQL.
 */
export const APP_ROLE = 'portal_app';

/** The name of the policy enableTenantRls() creates. */
export const TENANT_POLICY = 'tenant_isolation';

/**
 * Tables with a `mandant` column that legitimately span tenants, and why. They are platform data: reached by
 * sign-in (for every tenant of a user at once) and by the administration services, which check who may see
 * what explicitly (src/permissions), and by TenantScope, which filters them by tenant like any other table.
 * Everything else with a `mandant` column is tenant-owned and gets row-level security, including every table
 * later migrations add (src/db/rls.test.ts fails for one that lacks it, and the app refuses to start).
 */
export const PLATFORM_TABLES: Readonly<Record<string, string>> = {
  mandanten: 'the tenants themselves: listed and managed by system administrators, checked at sign-in',
  benutzer_mandanten: 'memberships: read at sign-in for all tenants of a user, managed by administrators',
  rollen: "roles: loaded at sign-in for all of a user's tenants (the permission service), managed by administrators",
  benutzer_standorte: "the locations a user works at: loaded at sign-in for all of a user's tenants",
  audit_log: 'the audit log: entries without a tenant (sign-ins), read by support across the tenants they belong to',
};

/** Key of knex's transaction config that names the tenant whose settings go with BEGIN (src/db/knex.ts). */
export const TENANT_BEGIN = 'tenantBegin';

const TENANT_ID = /^[A-Z0-9_-]{1,32}$/;

/** Tenant ids are upper-case letters, digits, `_` and `-` (the tenant schema); anything else is a bug. */
export function assertTenantId(mandant: string): void {
  if (!TENANT_ID.test(mandant)) throw new Error(`Not a tenant id: ${JSON.stringify(mandant).slice(0, 40)}`);
}

/**
 * The settings of a tenant transaction as one statement with literals, so it can travel in the same round
 * trip as BEGIN (src/db/knex.ts). The tenant id is checked against its pattern first, so the literal is safe.
 */
export function tenantSettingsSql(mandant: string): string {
  assertTenantId(mandant);
  return `select set_config('role', '${APP_ROLE}', true), set_config('app.mandant', '${mandant}', true)`;
}

/** The same settings as a parameterised statement, for a transaction that is already open. */
export function applyTenantSettings(trx: Knex.Transaction, mandant: string) {
  assertTenantId(mandant);
  return trx.raw(`select set_config('role', ?, true), set_config('app.mandant', ?, true)`, [APP_ROLE, mandant]);
}

/**
 * For maintenance code that runs as the owner (seeds, data migrations): FORCE ROW LEVEL SECURITY applies to
 * the owner too, so writing a tenant's rows needs that tenant set, until the end of the transaction.
 */
export function setTenant(trx: Knex.Transaction, mandant: string) {
  assertTenantId(mandant);
  return trx.raw(`select set_config('app.mandant', ?, true)`, [mandant]);
}

/**
 * Puts a tenant-owned table under row-level security: enabled and forced (the owner is bound too), the
 * tenant policy for reading and writing, and the app role's grants. Idempotent. Every migration that
 * creates a table with a `mandant` column calls this (unless the table is added to PLATFORM_TABLES, with a reason).
 */
export async function enableTenantRls(knex: Knex, table: string): Promise<void> {
  await knex.raw('alter table ?? enable row level security', [table]);
  await knex.raw('alter table ?? force row level security', [table]);
  await knex.raw(`drop policy if exists ${TENANT_POLICY} on ??`, [table]);
  await knex.raw(
    `create policy ${TENANT_POLICY} on ?? using (mandant = current_setting('app.mandant', true)) with check (mandant = current_setting('app.mandant', true))`,
    [table],
  );
  await knex.raw(`grant select, insert, update, delete on ?? to ${APP_ROLE}`, [table]);
}

export async function disableTenantRls(knex: Knex, table: string): Promise<void> {
  await knex.raw(`drop policy if exists ${TENANT_POLICY} on ??`, [table]);
  await knex.raw('alter table ?? no force row level security', [table]);
  await knex.raw('alter table ?? disable row level security', [table]);
}

/** Tables of the current schema with a `mandant` column, with their RLS state. */
export async function mandantTables(knex: Knex): Promise<{ table: string; enabled: boolean; forced: boolean; policy: boolean }[]> {
  const { rows } = await knex.raw(`
    select c.relname as table, c.relrowsecurity as enabled, c.relforcerowsecurity as forced,
           exists (select 1 from pg_policies p
                    where p.schemaname = n.nspname and p.tablename = c.relname and p.policyname = '${TENANT_POLICY}'
                      and p.cmd = 'ALL' and p.permissive = 'PERMISSIVE'
                      and p.qual like '%current_setting(''app.mandant''%' and p.with_check like '%current_setting(''app.mandant''%') as policy
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = current_schema() and c.relkind in ('r', 'p')
       and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'mandant' and a.attnum > 0 and not a.attisdropped)
     order by c.relname`);
  return rows;
}

/**
 * Why the app must not start, if anything: the app role missing, able to bypass row-level security (superuser,
 * BYPASSRLS, owner or member of a table's owner), not reachable from the connection's user, or a tenant-owned
 * table without forced row-level security and its policy. Empty when all is well.
 */
export async function tenantIsolationProblems(knex: Knex, role = APP_ROLE): Promise<string[]> {
  const problems: string[] = [];
  const { rows: roles } = await knex.raw('select rolsuper, rolbypassrls from pg_roles where rolname = ?', [role]);
  if (!roles.length) return [`role ${role} does not exist (run the migrations)`];
  if (roles[0].rolsuper) problems.push(`role ${role} is a superuser and bypasses row-level security`);
  if (roles[0].rolbypassrls) problems.push(`role ${role} has BYPASSRLS`);
  const { rows: owned } = await knex.raw(
    `select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind in ('r', 'p') and pg_has_role(?, c.relowner, 'MEMBER')
      order by 1`,
    [role],
  );
  if (owned.length && !roles[0].rolsuper) problems.push(`role ${role} owns (or is a member of the owner of) ${owned.map((r: { relname: string }) => r.relname).join(', ')}`);
  const { rows: reach } = await knex.raw(`select pg_has_role(session_user, ?, 'MEMBER') as ok`, [role]);
  if (!reach[0].ok) problems.push(`the database user cannot switch to role ${role} (grant ${role} to it)`);
  for (const t of await mandantTables(knex)) {
    if (t.table in PLATFORM_TABLES) continue;
    const missing = [!t.enabled && 'ENABLE ROW LEVEL SECURITY', !t.forced && 'FORCE ROW LEVEL SECURITY', !t.policy && `policy ${TENANT_POLICY}`].filter(Boolean);
    if (missing.length) problems.push(`tenant-owned table ${t.table} lacks ${missing.join(', ')} (call enableTenantRls in its migration)`);
  }
  return problems;
}

/** Refuses to go on (the app does not start) when tenant isolation in the database is not in force. */
export async function assertTenantIsolation(knex: Knex): Promise<void> {
  const problems = await tenantIsolationProblems(knex);
  if (problems.length) throw new Error(`Refusing to start: tenant isolation in the database is not in force:\n- ${problems.join('\n- ')}`);
}
