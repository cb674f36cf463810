import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app.js';
import { ScaleRefused, seedScale } from './scale.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const countsOf = async (mandant: string) => {
  const out: Record<string, number> = {};
  for (const table of ['einlieferungen', 'ablieferungen', 'bestaende', 'standorte', 'produkte', 'tauschpartner']) {
    out[table] = Number((await t.db.knex(table).where({ mandant }).count({ c: '*' }))[0].c);
  }
  return out;
};

describe('db:seed --scale', () => {
  it('generates exactly N deliveries with master data and stock for its own tenant, touching no other', async () => {
    const demo = await countsOf('DEMO');
    const nord = await countsOf('NORD');
    const result = await seedScale(t.db.knex, { mandant: 'lasttest', deliveries: 2001 });
    expect(result.einlieferungen + result.ablieferungen).toBe(2001);
    const mine = await countsOf('LASTTEST');
    expect(mine).toMatchObject({ einlieferungen: result.einlieferungen, ablieferungen: result.ablieferungen, bestaende: result.bestaende });
    expect(mine.standorte).toBeGreaterThan(0);
    // Every delivery has its first version, and the stock numbers continue from the tenant's number range.
    expect(Number((await t.db.knex('einlieferungen_versionen').where({ mandant: 'LASTTEST' }).count({ c: '*' }))[0].c)).toBe(result.einlieferungen);
    expect(Number((await t.db.knex('nummernkreise').where({ mandant: 'LASTTEST', kreis: 'bestaende' }).first('letzte')).letzte)).toBe(result.bestaende);
    expect(await countsOf('DEMO')).toEqual(demo);
    expect(await countsOf('NORD')).toEqual(nord);
  });

  it('refuses to add to a tenant that has movement data unless told to replace it, and replaces only that', async () => {
    await expect(seedScale(t.db.knex, { mandant: 'LASTTEST', deliveries: 10 })).rejects.toBeInstanceOf(ScaleRefused);
    const demo = await countsOf('DEMO');
    const replaced = await seedScale(t.db.knex, { mandant: 'LASTTEST', deliveries: 10, replace: true });
    expect((await countsOf('LASTTEST')).einlieferungen + (await countsOf('LASTTEST')).ablieferungen).toBe(10);
    expect(replaced.einlieferungen + replaced.ablieferungen).toBe(10);
    expect(await countsOf('DEMO')).toEqual(demo);
    await expect(seedScale(t.db.knex, { mandant: 'x y', deliveries: 10 })).rejects.toThrow('Ungültiger Mandant');
    await expect(seedScale(t.db.knex, { mandant: 'LASTTEST', deliveries: -1, replace: true })).rejects.toThrow('--scale');
  });
});
