// A record read by its number (a detail page's, an API GET's) is kept by the process while its table's change
// counter stands where the session's read found it (TenantScope.rememberWhileTable, src/db/versioned.ts get()):
// asked for again, the page costs the session's round trip only. Any change to the table, through the app or
// elsewhere, shows at once; the kept record never crosses a tenant or a location scope; only tables with a
// counter are kept, and the list of them matches the database's triggers.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { TenantRequest, TenantScope } from '../db/scope.js';
import { COUNTED_TABLES } from '../db/stand-cache.js';
import { createTestApp, type TestApp } from '../testing/app.js';
import { signIn, type Agent } from '../testing/session.js';
import { changeElsewhere, shownWithStatements } from '../testing/statements.js';
import { createUserWithRoles } from '../testing/users.js';

let t: TestApp;
let admin: Agent;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app, 'ADMIN', 'Admin12345', 'DEMO');
});
afterAll(() => t.close());

const PAGE = '/de/bewegungsdaten/einlieferungen';

/** The response and every statement the request sent. */
const shown = (agent: Agent, path: string, status = 200) => shownWithStatements(t, agent, path, status);

/** The statements that read the deliveries (the session's read names no movement table). */
const reads = (statements: string[]) => statements.filter((sql) => /einlieferungen/.test(sql));

/** A change made outside this process, in DEMO. */
const elsewhere = (change: (trx: Knex.Transaction) => Promise<unknown>) => changeElsewhere(t, 'DEMO', change);

/** A delivery of DEMO that may still be changed, at the location given or elsewhere. */
async function delivery(where: { at?: string; notAt?: string }): Promise<string> {
  const q = t.db.knex('einlieferungen').where({ mandant: 'DEMO', status: 'open', storniert: false }).orderBy('nr');
  if (where.at) q.where('standort_nr', where.at);
  if (where.notAt) q.whereNot('standort_nr', where.notAt);
  const row = await q.first('nr');
  expect(row).toBeDefined();
  return String(row.nr);
}

describe('remembered records', () => {
  it('are shown again without reading the table while it stands still, and show a change made elsewhere at once', async () => {
    const nr = await delivery({});
    const path = `${PAGE}/${encodeURIComponent(nr)}`;
    const first = await shown(admin, path);
    expect(reads(first.statements).length).toBeGreaterThan(0);
    const again = await shown(admin, path);
    expect(reads(again.statements)).toEqual([]);
    expect(again.html).toContain(`Einlieferung ${nr}`);

    await elsewhere((trx) => trx('einlieferungen').where({ mandant: 'DEMO', nr }).update({ kommentar: 'Von Hand geändert' }));
    const changed = await shown(admin, path);
    expect(reads(changed.statements).length).toBeGreaterThan(0);
    expect(changed.html).toContain('Von Hand geändert');
    // A change to another delivery moves the same counter: read again, and remembered from there.
    const other = await t.db.knex('einlieferungen').where({ mandant: 'DEMO' }).whereNot({ nr }).first('nr');
    await elsewhere((trx) => trx('einlieferungen').where({ mandant: 'DEMO', nr: other.nr }).update({ kommentar: 'anderswo' }));
    expect(reads((await shown(admin, path)).statements).length).toBeGreaterThan(0);
    const kept = await shown(admin, path);
    expect(reads(kept.statements)).toEqual([]);
    expect(kept.html).toContain('Von Hand geändert');
  });

  it('show what the app saved, on the page after saving and in the API', async () => {
    const nr = await delivery({});
    const path = `${PAGE}/${encodeURIComponent(nr)}`;
    await shown(admin, path);
    expect(reads((await shown(admin, path)).statements)).toEqual([]);
    const token = (await request(t.app).post('/api/v1/account/login').send({ login: 'TADMIN', password: 'Tadmin12345' })).body.token as string;
    const auth = { Authorization: token, 'X-Mandant': 'DEMO' };
    const before = await request(t.app).get(`/api/einlieferungen/${encodeURIComponent(nr)}`).set(auth).expect(200);
    const { nr: _nr, version, status: _status, updatedAt: _at, ...fields } = before.body.data as Record<string, unknown>;
    const saved = await request(t.app).put(`/api/einlieferungen/${encodeURIComponent(nr)}`).set(auth).send({ ...fields, kommentar: 'Über die API gespeichert', version });
    expect(saved.status).toBe(200);
    const after = await shown(admin, path);
    expect(after.html).toContain('Über die API gespeichert');
    const api = await request(t.app).get(`/api/einlieferungen/${encodeURIComponent(nr)}`).set(auth).expect(200);
    expect(api.body.data).toMatchObject({ kommentar: 'Über die API gespeichert', version: Number(version) + 1 });
  });

  it('are kept per location scope: a user of one location never gets a record another user\'s read kept', async () => {
    const fremd = await delivery({ notAt: '1001' });
    const eigen = await delivery({ at: '1001' });
    await shown(admin, `${PAGE}/${encodeURIComponent(fremd)}`);
    expect(reads((await shown(admin, `${PAGE}/${encodeURIComponent(fremd)}`)).statements)).toEqual([]);
    await createUserWithRoles(t.db.knex, 'NUREINORT', 'Nureinort12345', [{ typ: 9, standortNr: '1001' }]);
    const leser = await signIn(t.app, 'NUREINORT', 'Nureinort12345', 'DEMO');
    const refused = await shown(leser, `${PAGE}/${encodeURIComponent(fremd)}`, 404);
    expect(refused.html).not.toContain(`Einlieferung ${fremd}`);
    expect((await shown(leser, `${PAGE}/${encodeURIComponent(eigen)}`)).html).toContain(`Einlieferung ${eigen}`);
  });

  it('are kept per tenant, location scope and table, and only under a counter the session read', async () => {
    // Two tenants whose counters happen to stand at the same number: each still reads its own.
    const staende = { stammdaten: '1', tabellen: { einlieferungen: '7', benutzer: '7' } };
    const scopeOf = (mandant: string, standorte: 'all' | string[] = 'all', known: typeof staende | null = staende) =>
      new TenantScope(t.db.knex, mandant, standorte, new TenantRequest(t.db.knex, mandant, known));
    const computed: string[] = [];
    const read = (scope: TenantScope, table = 'einlieferungen') =>
      scope.rememberWhileTable(table, 'nr:X', async () => {
        computed.push(`${scope.mandant} ${JSON.stringify(scope.standorte)} ${table}`);
        return { mandant: scope.mandant };
      });
    expect(await read(scopeOf('DEMO'))).toEqual({ mandant: 'DEMO' });
    expect(await read(scopeOf('DEMO'))).toEqual({ mandant: 'DEMO' });
    expect(await read(scopeOf('NORD'))).toEqual({ mandant: 'NORD' });
    await read(scopeOf('DEMO', ['1001']));
    await read(scopeOf('DEMO', ['1001']));
    // A table without a counter, or a request whose counters are not known (no session, or it has written).
    await read(scopeOf('DEMO'), 'benutzer');
    await read(scopeOf('DEMO'), 'benutzer');
    await read(scopeOf('DEMO', 'all', null));
    const writing = new TenantRequest(t.db.knex, 'DEMO', staende);
    writing.writing();
    await read(new TenantScope(t.db.knex, 'DEMO', 'all', writing));
    expect(computed).toEqual([
      'DEMO "all" einlieferungen', 'NORD "all" einlieferungen', 'DEMO ["1001"] einlieferungen',
      'DEMO "all" benutzer', 'DEMO "all" benutzer', 'DEMO "all" einlieferungen', 'DEMO "all" einlieferungen',
    ]);
    // The counter moved: read again.
    await read(scopeOf('DEMO', 'all', { stammdaten: '1', tabellen: { einlieferungen: '8', benutzer: '7' } }));
    expect(computed).toHaveLength(8);
  });

  it('keep "not found" only until a record of that number exists', async () => {
    const path = `${PAGE}/GIBT-ES-NOCH-NICHT`;
    await shown(admin, path, 404);
    expect(reads((await shown(admin, path, 404)).statements)).toEqual([]);
    const template = await t.db.knex('einlieferungen').where({ mandant: 'DEMO' }).first();
    await elsewhere((trx) => trx('einlieferungen').insert({ ...template, nr: 'GIBT-ES-NOCH-NICHT', version: 1 }));
    expect((await shown(admin, path)).html).toContain('Einlieferung GIBT-ES-NOCH-NICHT');
  });

  it('are kept only for tables with a change counter, and those are exactly the tables the database counts', async () => {
    const triggers = await t.db.knex.raw(`
      select distinct c.relname as tabelle from pg_trigger g join pg_class c on c.oid = g.tgrelid join pg_proc p on p.oid = g.tgfoid
       where p.proname = 'tabellenstand_erhoehen' order by 1`);
    expect(triggers.rows.map((r: { tabelle: string }) => r.tabelle)).toEqual([...COUNTED_TABLES].sort());
  });
});
