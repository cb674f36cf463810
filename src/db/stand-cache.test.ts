// The movement lists' filter choices (partners, locations, products) are kept by the process across requests
// while the tenant's master-data stand, read with the session, has not moved (src/db/stand-cache.ts). What a
// user sees must still be the master data as it is now, of their tenant and their locations only.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTenant } from './rls.js';
import { TenantRequest, TenantScope } from './scope.js';
import { createTestApp, type TestApp } from '../testing/app.js';
import { signIn, type Agent } from '../testing/session.js';
import { createUserWithRoles } from '../testing/users.js';

let t: TestApp;
let bearer: Record<string, string>;
const PAGE = '/de/bewegungsdaten/einlieferungen';

beforeAll(async () => {
  t = await createTestApp();
  await createUserWithRoles(t.db.knex, 'STANDLAGER', 'Geheim12345', [1, 3, 5, 9, 11, 13].map((typ) => ({ typ, standortNr: '1001' })));
  const login = await request(t.app).post('/api/v1/account/login').send({ login: 'ADMIN', password: 'Admin12345' });
  bearer = { Authorization: login.body.token, 'X-Mandant': 'DEMO' };
});
afterAll(() => t.close());

/** The options of a filter select on the page: value → text. */
async function options(agent: Agent, name: string): Promise<Map<string, string>> {
  const res = await agent.get(PAGE);
  expect(res.status).toBe(200);
  const select = res.text.match(new RegExp(`<select id="[^"]*" name="${name}"[\\s\\S]*?</select>`))?.[0];
  expect(select, `the ${name} filter`).toBeDefined();
  return new Map([...select!.matchAll(/<option value="([^"]+)"[^>]*>([^<]*)<\/option>/g)].map((m) => [m[1], m[2]]));
}

const stand = async (benutzer: number, mandant: string) =>
  (await t.db.knex.raw('select stammdaten_stand(?, ?) as stand', [benutzer, mandant])).rows[0].stand;

describe('choices kept while the master data stands still', () => {
  it('show a partner added, renamed (by SQL outside the app) and deleted on the very next page', async () => {
    const agent = await signIn(t.app, 'ADMIN', 'Admin12345', 'DEMO');
    expect((await options(agent, 'partnerNr')).has('TPSTAND')).toBe(false);
    expect((await options(agent, 'partnerNr')).has('TPSTAND')).toBe(false);

    const created = await request(t.app).post('/api/tauschpartner').set(bearer).send({ nr: 'TPSTAND', name: 'Stand Erst GmbH', plz: '20457', stadt: 'Hamburg', land: 'Deutschland' });
    expect(created.status).toBe(201);
    expect((await options(agent, 'partnerNr')).get('TPSTAND')).toBe('TPSTAND · Stand Erst GmbH');

    await t.db.knex.transaction(async (trx) => {
      await setTenant(trx, 'DEMO');
      await trx('tauschpartner').where({ mandant: 'DEMO', nr: 'TPSTAND' }).update({ name: 'Stand Zwei GmbH' });
    });
    expect((await options(agent, 'partnerNr')).get('TPSTAND')).toBe('TPSTAND · Stand Zwei GmbH');

    expect((await request(t.app).delete('/api/tauschpartner/TPSTAND').set(bearer)).status).toBe(200);
    expect((await options(agent, 'partnerNr')).has('TPSTAND')).toBe(false);
  });

  it('take a partner added through the API into the filter check of the API at once (the stand read for X-Mandant)', async () => {
    const filtered = () => request(t.app).get('/api/einlieferungen?partnerNr=TPAPI').set(bearer);
    const unknown = await filtered();
    expect(unknown.status).toBe(400);
    expect((await filtered()).status).toBe(400);
    expect((await request(t.app).post('/api/tauschpartner').set(bearer).send({ nr: 'TPAPI', name: 'Api Erst GmbH', plz: '20457', stadt: 'Hamburg', land: 'Deutschland' })).status).toBe(201);
    const known = await filtered();
    expect(known.status).toBe(200);
    expect(known.body.total).toBe(0);
  });

  it('are never handed to another tenant or to a user with other locations', async () => {
    const partnersOf = async (mandant: string) => {
      const rows = await t.db.knex.transaction(async (trx) => {
        await setTenant(trx, mandant);
        return trx('tauschpartner').where({ mandant }).pluck('nr');
      });
      return new Set(rows as string[]);
    };
    const demo = await signIn(t.app, 'ADMIN', 'Admin12345', 'DEMO');
    const nord = await signIn(t.app, 'ADMIN', 'Admin12345', 'NORD');
    for (let i = 0; i < 2; i++) {
      expect(new Set((await options(demo, 'partnerNr')).keys())).toEqual(await partnersOf('DEMO'));
      expect(new Set((await options(nord, 'partnerNr')).keys())).toEqual(await partnersOf('NORD'));
    }
    // ADMIN's page has kept DEMO's locations, all of them; the warehouse user sees their own one.
    expect((await options(demo, 'standortNr')).size).toBeGreaterThan(1);
    const lager = await signIn(t.app, 'STANDLAGER', 'Geheim12345');
    expect([...(await options(lager, 'standortNr')).keys()]).toEqual(['1001']);
  });

  it('is counted per tenant by the database, moves with each commit that changes master data, and is told only to members', async () => {
    const admin = (await t.db.knex('benutzer').where({ login: 'ADMIN' }).first('id')).id as number;
    const lager = (await t.db.knex('benutzer').where({ login: 'STANDLAGER' }).first('id')).id as number;
    const before = Number(await stand(admin, 'DEMO'));
    const nord = Number(await stand(admin, 'NORD'));
    await t.db.knex.transaction(async (trx) => {
      await setTenant(trx, 'DEMO');
      // Two changes in two tables, one transaction: the sum moves once per table.
      await trx('produkte').where({ mandant: 'DEMO', nr: 'P001' }).update({ name: trx.raw('name') });
      await trx('standorte').where({ mandant: 'DEMO', nr: '1001' }).update({ name: trx.raw('name') });
    });
    expect(Number(await stand(admin, 'DEMO'))).toBe(before + 2);
    expect(Number(await stand(admin, 'NORD'))).toBe(nord);
    // A user of one tenant learns nothing of another's.
    expect(await stand(lager, 'NORD')).toBeNull();
  });

  it('are read afresh by a request once it has written', async () => {
    const shared = new TenantRequest(t.db.knex, 'DEMO', { stammdaten: '4711', tabellen: {} });
    const scope = new TenantScope(t.db.knex, 'DEMO', 'all', shared);
    let reads = 0;
    const read = async () => ({ read: ++reads });
    expect(await scope.memoWhileStammdaten('stand-cache-test', read)).toEqual({ read: 1 });
    // A later request at the same stand takes the kept value, frozen.
    const later = new TenantScope(t.db.knex, 'DEMO', 'all', new TenantRequest(t.db.knex, 'DEMO', { stammdaten: '4711', tabellen: {} }));
    const kept = await later.memoWhileStammdaten('stand-cache-test', read);
    expect(kept).toEqual({ read: 1 });
    expect(Object.isFrozen(kept)).toBe(true);
    // Other locations, another stand: not the same value.
    expect(await later.withStandorte(['1001']).memoWhileStammdaten('stand-cache-test', read)).toEqual({ read: 2 });
    const moved = new TenantScope(t.db.knex, 'DEMO', 'all', new TenantRequest(t.db.knex, 'DEMO', { stammdaten: '4712', tabellen: {} }));
    expect(await moved.memoWhileStammdaten('stand-cache-test', read)).toEqual({ read: 3 });
    // A request that writes: its reads after the write may see what it wrote, which the stand does not count.
    const writer = new TenantScope(t.db.knex, 'DEMO', 'all', new TenantRequest(t.db.knex, 'DEMO', { stammdaten: '4712', tabellen: {} }));
    await writer.transaction(async () => {});
    expect(await writer.memoWhileStammdaten('stand-cache-test', read)).toEqual({ read: 4 });
  });
});
