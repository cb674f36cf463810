// A list remembers its count and sums only while the table's change counter (Tabellenstand) stands where it
// stood when they were taken: what a user sees is the count of the data as it is, whoever changed it, through
// this app process or another (here: straight in the database, as the app role in the tenant).
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyTenantSettings, setTenant } from '../../db/rls.js';
import { TenantScope } from '../../db/scope.js';
import { einlieferungConfig } from '../../features/lieferungen/einlieferungen.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { explain } from '../../testing/plans.js';
import { signIn } from '../../testing/session.js';
import { parseListState, pageStatement, type ListDefinition } from './engine.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const headers = async () => ({
  Authorization: (await request(t.app).post('/api/v1/account/login').send({ login: 'TADMIN', password: 'Tadmin12345' })).body.token as string,
  'X-Mandant': 'DEMO',
});
const stand = async () => (await t.db.knex('tabellenstaende').where({ mandant: 'DEMO', tabelle: 'einlieferungen' }).first('stand'))?.stand;
/** Changes made outside this process: a transaction of its own, as the app role in the tenant. */
const elsewhere = (change: (trx: import('knex').Knex.Transaction) => Promise<unknown>) =>
  t.db.knex.transaction(async (trx) => {
    await setTenant(trx, 'DEMO');
    await change(trx);
  });

describe('remembered list counts', () => {
  it('show the data as it is after every change: through the app, made elsewhere, and not after one rolled back', async () => {
    const h = await headers();
    const list = async () => (await request(t.app).get('/api/einlieferungen?status=open&pageSize=5').set(h).expect(200)).body as { total: number; totals: { summeLiter: string } };
    const before = await list();
    expect(before.total).toBeGreaterThan(0);
    // The same again (remembered): the same figures.
    expect(await list()).toMatchObject({ total: before.total, totals: before.totals });

    // Through the app: one more open delivery of 1,000 litres.
    const created = await request(t.app).post('/api/einlieferungen').set(h)
      .send({ nr: 'ZAEHL-1', entladedatum: '2026-11-01', entladeneMenge: '1000', unitOfMeasure: 'L', partnerNr: 'TP001', standortNr: '1001', produktNr: 'P016', status: 'open' });
    expect(created.status).toBe(201);
    const afterCreate = await list();
    expect(afterCreate.total).toBe(before.total + 1);
    expect(Number(afterCreate.totals.summeLiter)).toBe(Number(before.totals.summeLiter) + 1000);

    // Elsewhere: cancelled by someone on another instance; it leaves the sum at once.
    await elsewhere((trx) => trx('einlieferungen').where({ mandant: 'DEMO', nr: 'ZAEHL-1' }).update({ storniert: true }));
    expect(Number((await list()).totals.summeLiter)).toBe(Number(before.totals.summeLiter));

    // A change that was rolled back moves nothing, not even the counter.
    const counter = await stand();
    await expect(elsewhere(async (trx) => {
      await trx('einlieferungen').where({ mandant: 'DEMO', nr: 'ZAEHL-1' }).update({ storniert: false });
      throw new Error('rolled back');
    })).rejects.toThrow('rolled back');
    expect(await stand()).toBe(counter);
    expect(Number((await list()).totals.summeLiter)).toBe(Number(before.totals.summeLiter));
  });

  it('raise the counter once per transaction and table, however many rows it writes, and only for its tenant', async () => {
    const demo = await stand();
    const nord = (await t.db.knex('tabellenstaende').where({ mandant: 'NORD', tabelle: 'einlieferungen' }).first('stand'))?.stand ?? null;
    await elsewhere((trx) => trx('einlieferungen').where({ mandant: 'DEMO' }).whereIn('status', ['open', 'planned']).update({ kommentar: 'gesehen' }));
    expect(Number(await stand())).toBe(Number(demo) + 1);
    expect((await t.db.knex('tabellenstaende').where({ mandant: 'NORD', tabelle: 'einlieferungen' }).first('stand'))?.stand ?? null).toBe(nord);
  });

  it('count for each tenant a transaction writes, as the app role under row-level security', async () => {
    const counterOf = async (mandant: string) => Number((await t.db.knex('tabellenstaende').where({ mandant, tabelle: 'einlieferungen' }).first('stand'))?.stand ?? 0);
    const [demo, nord] = [await counterOf('DEMO'), await counterOf('NORD')];
    // Maintenance code (the seeds) writes several tenants in one transaction; at COMMIT the tenant setting is
    // the last one set, NORD, when DEMO's counter is raised.
    await t.db.knex.transaction(async (trx) => {
      for (const mandant of ['DEMO', 'NORD']) {
        await applyTenantSettings(trx, mandant);
        await trx('einlieferungen').where({ mandant }).whereIn('nr', trx('einlieferungen').where({ mandant }).limit(1).select('nr')).update({ kommentar: 'Wartung' });
      }
    });
    expect([await counterOf('DEMO'), await counterOf('NORD')]).toEqual([demo + 1, nord + 1]);
  });

  it('are what the page shows too', async () => {
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const shown = async () => /von ([\d.]+) Ergebnissen/.exec((await agent.get('/de/bewegungsdaten/einlieferungen?status=completed').expect(200)).text)?.[1];
    const first = await shown();
    expect(first).toMatch(/^\d/);
    const one = await t.db.knex('einlieferungen').where({ mandant: 'DEMO', status: 'completed' }).first('nr');
    await elsewhere((trx) => trx('einlieferungen').where({ mandant: 'DEMO', nr: one.nr }).update({ status: 'locked' }));
    expect(Number((await shown())!.replace('.', ''))).toBe(Number(first!.replace('.', '')) - 1);
  });

  it('are not counted again by the database while the counter stands where it was', async () => {
    const def = einlieferungConfig.list as unknown as ListDefinition<unknown>;
    const { state } = parseListState(def, { status: 'open' }, 10);
    // The list follows the tables its computed columns read too (a delivery's link status): their counters' sum.
    const followed = ([] as string[]).concat(def.countsFollow ?? []);
    const stands = await t.db.knex('tabellenstaende').where({ mandant: 'DEMO' }).whereIn('tabelle', followed).pluck('stand');
    const counter = String(stands.reduce((sum: number, s: unknown) => sum + Number(s), 0));
    // How often the count's aggregate ran: 0 when the database skipped it.
    const loopsOfCount = async (known?: string) =>
      new TenantScope(t.db.knex, 'DEMO').transaction(async (tx) =>
        (await explain(tx, pageStatement(def, tx, state, 10_000, known), { analyze: true })).nodes
          .filter((n) => n['Node Type'] === 'Aggregate')
          .map((n) => n['Actual Loops']),
      );
    expect(await loopsOfCount()).toEqual([1]);
    expect(await loopsOfCount(counter)).toEqual([0]);
    expect(await loopsOfCount(String(Number(counter) - 1))).toEqual([1]);
  });
});
