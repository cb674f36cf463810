// Tenant isolation in the database (src/db/rls.ts, src/db/scope.ts): which tables are under row-level security,
// what the app role sees without and with a tenant, that it cannot get around the policies, that the app does
// not start when it could, and how TenantScope runs its queries (role and tenant set, reads sharing one
// transaction, no deadlock on PGlite's single connection).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCurrentUser } from '../auth/current-user.js';
import { bootstrap } from '../bootstrap.js';
import { COUNTDOWN_AFTER_MS, SESSION_IDLE_MS, type Config } from '../config.js';
import { createTestApp, type TestApp } from '../testing/app.js';
import { prepared, readsAlone, withRawConnection } from './knex-internals.js';
import { affectedRows, createDatabase } from './knex.js';
import { migrateLatest } from './migrate.js';
import { APP_ROLE, enableTenantRls, mandantTables, PLATFORM_TABLES, tenantIsolationProblems } from './rls.js';
import { TenantScope } from './scope.js';

let t: TestApp;
let knex: Knex;
let tenantTables: string[];
const probe = `rls_probe_${randomBytes(4).toString('hex')}`;
const probeRoles: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  knex = t.db.knex;
  tenantTables = (await mandantTables(knex)).map((x) => x.table).filter((name) => !(name in PLATFORM_TABLES));
});
afterAll(async () => {
  // Roles belong to the whole cluster: the probes go again.
  for (const role of probeRoles) {
    await knex.raw(`drop owned by ${role}`).catch(() => {});
    await knex.raw(`drop role if exists ${role}`).catch(() => {});
  }
  await t.close();
});

/** Runs `fn` in a transaction that works as `role` (and in `mandant`, if given), then rolls back. */
async function as<R>(role: string, mandant: string | null, fn: (trx: Knex.Transaction) => Promise<R>): Promise<R> {
  let result: R;
  const rollback = new Error('rollback');
  await knex
    .transaction(async (trx) => {
      await trx.raw(`select set_config('role', ?, true), set_config('app.mandant', ?, true)`, [role, mandant ?? '']);
      result = await fn(trx);
      throw rollback;
    })
    .catch((e) => {
      if (e !== rollback) throw e;
    });
  return result!;
}

const countOf = async (q: Knex | Knex.Transaction, table: string, mandant?: string) => {
  const query = q(table).count<{ count: string }[]>({ count: '*' });
  if (mandant) query.where({ mandant });
  return Number((await query.first())?.count ?? 0);
};

describe('which tables are under row-level security', () => {
  it('puts every table with a mandant column under forced RLS with the tenant policy, except the named platform tables', async () => {
    expect(tenantTables).toEqual(expect.arrayContaining([
      'standorte', 'standorte_versionen', 'produkte', 'produkte_versionen', 'tauschpartner', 'tauschpartner_versionen',
      'tauschpartner_regeln', 'import_staging', 'import_staging_rows',
    ]));
    const unprotected = (await mandantTables(knex)).filter((x) => !(x.table in PLATFORM_TABLES) && !(x.enabled && x.forced && x.policy));
    expect(unprotected, 'tenant-owned tables without ENABLE + FORCE ROW LEVEL SECURITY and the tenant policy: call enableTenantRls() in the migration, or name the table in PLATFORM_TABLES with a reason').toEqual([]);
    // The allow-list names real tables that hold a tenant, so it cannot silently cover a renamed one.
    const withMandant = new Set((await mandantTables(knex)).map((x) => x.table));
    expect(Object.keys(PLATFORM_TABLES).filter((name) => !withMandant.has(name))).toEqual([]);
    expect(await tenantIsolationProblems(knex)).toEqual([]);
  });

  it('reports a new tenant table that lacks RLS, and enableTenantRls() protects it', async () => {
    const table = `${probe}_bewegung`;
    await knex.schema.createTable(table, (tb) => {
      tb.string('mandant', 32).notNullable();
      tb.string('nr', 32).notNullable();
      tb.primary(['mandant', 'nr']);
    });
    try {
      expect((await tenantIsolationProblems(knex)).join('\n')).toContain(`tenant-owned table ${table} lacks ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY, policy tenant_isolation`);
      await enableTenantRls(knex, table);
      await enableTenantRls(knex, table); // idempotent
      expect(await tenantIsolationProblems(knex)).toEqual([]);
      await knex.transaction(async (trx) => {
        await trx.raw(`select set_config('app.mandant', 'NORD', true)`);
        await trx(table).insert({ mandant: 'NORD', nr: 'N1' });
      });
      // Granted to the app role by enableTenantRls, visible only in its tenant.
      expect(await as(APP_ROLE, 'NORD', (trx) => countOf(trx, table))).toBe(1);
      expect(await as(APP_ROLE, 'DEMO', (trx) => countOf(trx, table))).toBe(0);
    } finally {
      await knex.schema.dropTable(table);
    }
  });
});

describe('the app role', () => {
  it('sees nothing of a tenant-owned table with rows when no tenant is set', async () => {
    let tablesWithRows = 0;
    for (const table of tenantTables) {
      if ((await countOf(knex, table)) === 0) continue;
      tablesWithRows += 1;
      expect(await as(APP_ROLE, null, (trx) => countOf(trx, table)), table).toBe(0);
      const rows = await as(APP_ROLE, null, async (trx) => (await trx.raw(`select * from ${table}`)).rows);
      expect(rows, table).toEqual([]);
    }
    expect(tablesWithRows).toBeGreaterThanOrEqual(6);
  });

  it('sees exactly its tenant with the tenant set, and cannot write another tenant\'s rows', async () => {
    for (const table of tenantTables) {
      expect(await as(APP_ROLE, 'DEMO', (trx) => countOf(trx, table)), table).toBe(await countOf(knex, table, 'DEMO'));
    }
    const nord = await knex('standorte').where({ mandant: 'NORD' }).orderBy('nr').first();
    await as(APP_ROLE, 'DEMO', async (trx) => {
      expect(await trx('standorte').where({ mandant: 'NORD' }).update({ name: 'übernommen' })).toBe(0);
      expect(affectedRows(await trx('standorte').where({ mandant: 'NORD' }).delete())).toBe(0);
    });
    await expect(as(APP_ROLE, 'DEMO', (trx) => trx('standorte').insert({ mandant: 'NORD', nr: 'X1', name: 'x' }))).rejects.toThrow(/row-level security/);
    await as(APP_ROLE, 'DEMO', async (trx) => {
      // Moving a DEMO row into NORD is refused by the policy's WITH CHECK.
      await expect(trx('standorte').where({ mandant: 'DEMO', nr: '1001' }).update({ mandant: 'NORD', nr: 'X2' })).rejects.toThrow(/row-level security/);
    });
    expect(await knex('standorte').where({ mandant: 'NORD', nr: nord.nr }).first()).toEqual(nord);
  });

  it('is no superuser, has no BYPASSRLS, owns nothing, cannot switch the policies off nor read secrets', async () => {
    const { rows } = await knex.raw('select rolsuper, rolbypassrls, rolcanlogin from pg_roles where rolname = ?', [APP_ROLE]);
    expect(rows).toEqual([{ rolsuper: false, rolbypassrls: false, rolcanlogin: false }]);
    const owned = await knex.raw(`select count(*)::int as n from pg_class where relowner = (select oid from pg_roles where rolname = ?)`, [APP_ROLE]);
    expect(owned.rows[0].n).toBe(0);
    for (const statement of ['alter table standorte disable row level security', 'alter table standorte no force row level security', 'drop policy tenant_isolation on standorte']) {
      await expect(as(APP_ROLE, 'DEMO', (trx) => trx.raw(statement)), statement).rejects.toThrow(/must be (the )?owner/);
    }
    // Nor can it read the migration bookkeeping, sessions or users' secrets; users' names it may.
    for (const query of ['select * from knex_migrations', 'select * from sessions', 'select password_hash from benutzer', 'select mfa_secret from benutzer', 'update benutzer set admin_kz = true']) {
      await expect(as(APP_ROLE, 'DEMO', (trx) => trx.raw(query)), query).rejects.toThrow(/permission denied/);
    }
    expect(await as(APP_ROLE, 'DEMO', async (trx) => (await trx('benutzer').where({ login: 'ADMIN' }).first('login', 'vorname'))?.login)).toBe('ADMIN');
  });
});

describe('start-up check', () => {
  async function role(suffix: string, options: string): Promise<string> {
    const name = `${probe}_${suffix}`;
    await knex.raw(`create role ${name} nologin ${options}`);
    probeRoles.push(name);
    return name;
  }

  it('names a role that is superuser, has BYPASSRLS or owns a table as unfit to work as', async () => {
    expect(await tenantIsolationProblems(knex, await role('super', 'superuser'))).toContainEqual(expect.stringMatching(/is a superuser/));
    expect(await tenantIsolationProblems(knex, await role('bypass', 'bypassrls'))).toContainEqual(expect.stringMatching(/has BYPASSRLS/));
    const owner = await role('owner', '');
    await knex.raw(`create table ${probe}_owned (x int)`);
    try {
      await knex.raw(`alter table ${probe}_owned owner to ${owner}`);
      expect(await tenantIsolationProblems(knex, owner)).toContainEqual(expect.stringMatching(new RegExp(`owns .*${probe}_owned`)));
    } finally {
      await knex.raw(`drop table ${probe}_owned`);
    }
    expect(await tenantIsolationProblems(knex, `${probe}_missing`)).toEqual([`role ${probe}_missing does not exist (run the migrations)`]);
  });

  it('keeps the app from starting when the app role can bypass row-level security (embedded database)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rls-start-'));
    try {
      const db = createDatabase({ kind: 'pglite', dir });
      await migrateLatest(db.knex);
      await db.knex.raw(`alter role ${APP_ROLE} bypassrls`);
      await db.knex.destroy();
      const config: Config = {
        port: 0, env: 'test', db: { kind: 'pglite', dir }, sessionSecret: 'x'.repeat(32), trustProxy: 0,
        sessionIdleMs: SESSION_IDLE_MS, countdownAfterMs: COUNTDOWN_AFTER_MS, sso: null, shutdownTimeoutMs: 10_000,
      };
      await expect(bootstrap(config, { seedIfEmpty: true })).rejects.toThrow(/Refusing to start[\s\S]*portal_app has BYPASSRLS/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('TenantScope', () => {
  it('sees only its tenant even when a query loses its tenant filter', async () => {
    const scope = new TenantScope(knex, 'DEMO');
    const all = await scope.table('standorte').clearWhere().select('mandant', 'nr');
    expect(all.length).toBe(await countOf(knex, 'standorte', 'DEMO'));
    expect(new Set(all.map((r: { mandant: string }) => r.mandant))).toEqual(new Set(['DEMO']));
    expect(await scope.table('standorte').clearWhere().where({ mandant: 'NORD' })).toEqual([]);
    const before = await knex('standorte').where({ mandant: 'NORD' }).orderBy('nr');
    expect(await scope.table('standorte').clearWhere().where({ mandant: 'NORD' }).update({ name: 'übernommen' })).toBe(0);
    expect(affectedRows(await scope.table('standorte').clearWhere().where({ mandant: 'NORD' }).delete())).toBe(0);
    expect(await knex('standorte').where({ mandant: 'NORD' }).orderBy('nr')).toEqual(before);
    // Also inside a transaction, and for a clone.
    await scope.transaction(async (tx) => {
      expect(await tx.table('standorte').clearWhere().where({ mandant: 'NORD' })).toEqual([]);
    });
    expect(await scope.table('standorte').clearWhere().where({ mandant: 'NORD' }).clone()).toEqual([]);
  });

  it('runs consecutive reads in one transaction (BEGIN with the settings, one COMMIT), on PGlite each alone in one call, and writes in their own', async () => {
    const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
    await settle(); // the read transactions of earlier tests are committed
    const statements: string[] = [];
    const listen = (q: { sql: string }) => statements.push(q.sql);
    knex.on('query', listen);
    try {
      const scope = new TenantScope(knex, 'DEMO');
      await scope.table('standorte').count({ n: '*' }).first();
      await scope.table('standorte').orderBy('nr').limit(2);
      await scope.table('produkte').first('nr');
      await settle();
      if (readsAlone(knex)) {
        // The embedded database: each read is one call to its thread, BEGIN, settings and COMMIT included
        // (src/db/pglite-thread.ts), so no read holds its connection while another request is served.
        expect(statements, statements.join('\n')).toEqual([expect.stringMatching(/^select count/), expect.stringMatching(/^select \*/), expect.stringMatching(/^select "nr"/)]);
      } else {
        expect(statements.filter((s) => /^BEGIN/.test(s))).toEqual([`BEGIN; select set_config('role', '${APP_ROLE}', true), set_config('app.mandant', 'DEMO', true)`]);
        expect(statements.filter((s) => /^COMMIT/.test(s)), statements.join('\n')).toHaveLength(1);
        expect(statements).toHaveLength(5);
      }

      statements.length = 0;
      await scope.table('standorte').where({ nr: 'nope' }).update({ name: 'x' });
      await settle();
      expect(statements).toEqual([expect.stringMatching(/^BEGIN; select set_config/), expect.stringMatching(/^update/), 'COMMIT;']);
    } finally {
      knex.off('query', listen);
    }
  });

  it('starts afresh after a failed read', async () => {
    const scope = new TenantScope(knex, 'DEMO');
    await expect(scope.table('standorte').whereRaw('1 / 0 = 1').first()).rejects.toThrow(/division by zero/);
    expect(await scope.table('standorte').where({ nr: '1001' }).first('nr')).toEqual({ nr: '1001' });
  });

  it('runs another scope\'s query inside a transaction in that transaction, and refuses base-connection queries there', async () => {
    const scope = new TenantScope(knex, 'DEMO');
    const other = new TenantScope(knex, 'DEMO', ['1001']);
    // On PGlite (one connection) either would wait for the transaction forever.
    const nr = await scope.transaction(async (tx) => {
      await tx.table('standorte').where({ nr: '1001' }).update({ name: 'Tanklager Hamburg-Waltershof' });
      return (await other.table('standorte').where({ nr: '1001' }).first('nr'))?.nr;
    });
    expect(nr).toBe('1001');
    await expect(scope.transaction(async () => knex('benutzer').first('id'))).rejects.toThrow(/base connection inside TenantScope.transaction/);
    await expect(scope.transaction(async () => new TenantScope(knex, 'NORD').table('standorte').first())).rejects.toThrow(/NORD query inside a DEMO transaction/);
  });

  it('runs a read prepared with generic: true under its generic plan every time, as its tenant; other prepared reads as the database chooses', async () => {
    const scope = new TenantScope(knex, 'DEMO');
    const marker = `generic_probe_${randomBytes(4).toString('hex')}`;
    const read = (generic: boolean, nr: string) =>
      prepared(scope.table('standorte').clearWhere().where('nr', '>=', nr).whereRaw(`'${marker}_${generic}' <> ''`).orderBy('nr').select('mandant', 'nr'), { generic });
    // Unprepared, from a scope of its own: on PostgreSQL its read would leave that scope's shared read
    // transaction open, and prepared reads join an open one (no round trip to save) instead of going alone.
    const expected = await new TenantScope(knex, 'DEMO').table('standorte').orderBy('nr').select('mandant', 'nr');
    for (const nr of ['0', '1', '2', '3', '4', '5', '6', '7']) {
      const generic = await read(true, nr);
      // The same rows as unprepared, and row-level security holds (no where on the tenant, DEMO's rows only).
      expect(generic).toEqual(expected.filter((r: { nr: string }) => r.nr >= nr));
      expect(await read(false, nr)).toEqual(generic);
    }
    // Reads awaited one after another run on the connection the pool lent last (tarn's is last in, first out);
    // on the embedded database every connection is the one session.
    const plans = await withRawConnection(knex, async (c) =>
      ((await c.query(`select statement, generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements where statement like '%${marker}%'`)) as { rows: { statement: string; generic: number; custom: number }[] }).rows);
    const of = (generic: boolean) => plans.find((p) => p.statement.includes(`${marker}_${generic}`));
    expect(of(true)).toMatchObject({ generic: 8, custom: 0 });
    // PostgreSQL's own choice (plan_cache_mode auto) plans the first five executions for their values.
    expect(of(false)!.custom).toBeGreaterThanOrEqual(5);
  });

  it('sends the reads of a together() scope awaited at once as one round trip, as its tenant, each answer as alone', async () => {
    const scope = new TenantScope(knex, 'DEMO');
    const reads = (s: TenantScope) => Promise.all([
      s.table('standorte').clearWhere().orderBy('nr').select('mandant', 'nr'),
      s.table('produkte').orderBy('nr').first('nr', 'name'),
      s.table('standorte').where({ nr: 'nope' }).first('nr'),
      s.scoped(s.knex.select(s.knex.raw("current_setting('app.mandant', true) as mandant, ?::date as tag", ['2026-11-27']))),
    ]);
    const alone = await reads(scope);
    // Row-level security holds: without its where, the first read still sees DEMO's rows only.
    expect(new Set(alone[0].map((r: { mandant: string }) => r.mandant))).toEqual(new Set(['DEMO']));
    expect(alone[3]).toEqual([{ mandant: 'DEMO', tag: '2026-11-27' }]);
    await new Promise((resolve) => setTimeout(resolve, 20)); // the read transaction above is committed
    const statements: string[] = [];
    const listen = (q: { sql: string }) => statements.push(q.sql);
    knex.on('query', listen);
    try {
      // Twice: the first time on a connection the statements are prepared in the same round trip.
      for (let i = 0; i < 2; i++) {
        statements.length = 0;
        expect(await scope.together(reads)).toEqual(alone);
        expect(statements, statements.join("\n")).toHaveLength(1);
        expect(statements[0]).toMatch(/BEGIN; select set_config\('role', 'portal_app', true\), set_config\('app.mandant', 'DEMO', true\); EXECUTE .*; COMMIT$/);
      }
      // Reads awaited one after another go one by one, as they would anyway.
      statements.length = 0;
      const [einzeln, danach] = await scope.together(async (s) => [await s.table('produkte').orderBy('nr').first('nr', 'name'), await s.table('standorte').where({ nr: 'nope' }).first('nr')]);
      expect([einzeln, danach]).toEqual([alone[1], alone[2]]);
      expect(statements.filter((x) => /EXECUTE .*EXECUTE/.test(x))).toEqual([]);
    } finally {
      knex.off('query', listen);
    }
    // When one read fails, each read reports its own answer: the others are not lost with it.
    const neu = (s: TenantScope) => s.table('standorte').where({ nr: '1001' }).first('nr', 'mandant');
    const [good, bad] = await scope.together((s) => Promise.allSettled([neu(s), s.table('standorte').whereRaw('1 / 0 = 1').first()]));
    expect(good).toEqual({ status: 'fulfilled', value: { nr: '1001', mandant: 'DEMO' } });
    expect(bad).toMatchObject({ status: 'rejected', reason: expect.objectContaining({ message: expect.stringMatching(/division by zero/) }) });
    // The statement prepared by the failed round trip is known to be there: used again, it goes together at once.
    const again: string[] = [];
    const listenAgain = (q: { sql: string }) => again.push(q.sql);
    knex.on('query', listenAgain);
    try {
      const pair = await scope.together((s) => Promise.all([neu(s), s.table('produkte').orderBy('nr').first('nr', 'name')]));
      expect(pair).toEqual([{ nr: '1001', mandant: 'DEMO' }, alone[1]]);
      expect(again, again.join('\n')).toHaveLength(1);
    } finally {
      knex.off('query', listenAgain);
    }
    // No transaction stays open, on no connection: a plain read afterwards sees no tenant set.
    expect((await knex.raw("select coalesce(current_setting('app.mandant', true), '') as m")).rows[0].m).toBe('');
    // Inside a transaction the reads run there, seeing what it wrote.
    await scope.transaction(async (tx) => {
      await tx.table('standorte').where({ nr: '1001' }).update({ name: 'Zwischenstand' });
      const [row] = await tx.together((s) => Promise.all([s.table('standorte').where({ nr: '1001' }).first('name')]));
      expect(row).toEqual({ name: 'Zwischenstand' });
      throw new Error('rollback');
    }).catch((err: Error) => expect(err.message).toBe('rollback'));
  });

  it('refuses a tenant id that is not one', () => {
    expect(() => new TenantScope(knex, "DEMO'; reset role; --")).toThrow(/Not a tenant id/);
    expect(() => new TenantScope(knex, 'demo')).toThrow(/Not a tenant id/);
  });
});

describe('sign-in data', () => {
  it('lists a user\'s locations with names for every tenant, also for a role bound by row-level security', async () => {
    const user = await knex('benutzer').where({ login: 'USER' }).first('id');
    const reader = `${probe}_reader`;
    await knex.raw(`create role ${reader} nologin`);
    probeRoles.push(reader);
    await knex.raw(`grant select on all tables in schema public to ${reader}`);
    await knex.raw(`grant execute on function benutzer_standorte_namen(integer) to ${reader}`);
    const asReader = await as(reader, null, async (trx) => ({
      direct: await countOf(trx, 'standorte'),
      user: await loadCurrentUser(trx as unknown as Knex, user.id),
    }));
    expect(asReader.direct).toBe(0);
    expect(asReader.user?.standorte).toEqual((await loadCurrentUser(knex, user.id))?.standorte);
    expect(asReader.user?.standorte.map((s) => s.nr)).toEqual(['1001', '1002', '1003']);
    expect(asReader.user?.standorte[0]).toEqual({ mandant: 'DEMO', nr: '1001', name: 'Tanklager Hamburg-Waltershof' });
    // The app role itself may not use it: tenant code has no way to read across tenants.
    await expect(as(APP_ROLE, 'DEMO', (trx) => trx.raw('select * from benutzer_standorte_namen(?)', [user.id]))).rejects.toThrow(/permission denied/);
  });
});
