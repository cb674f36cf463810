// The demo Tankstelle (src/seeds/tankstelle.ts) as every visitor finds it through the API: DEMO's filling
// station shows all seven states of the traffic light, each tank with a recent Bestand; NORD's has a few tanks.
// The data keeps the chain-of-custody rules: each certificate's rest is its quantity less what was assigned from
// it, the versions are the demo's, and no audit entry is a user's.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { milli } from '../domain/lieferkette.js';
import { TANK_AMPELN } from '../domain/tankampel.js';
import { createTestApp, type TestApp } from '../testing/app.js';
import { TANKSTELLEN } from './tankstelle.js';

type Row = Record<string, unknown>;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const auth = async (mandant: string) => ({
  Authorization: (await request(t.app).post('/api/v1/account/login').send({ login: 'ADMIN', password: 'Admin12345' })).body.token as string,
  'X-Mandant': mandant,
});
const vor = (tage: number) => new Date(Date.now() - tage * 86_400_000).toISOString().slice(0, 10);

describe('the demo filling stations', () => {
  it('DEMO shows all seven states of the traffic light, each tank with a Bestand of the last days', async () => {
    const res = await request(t.app).get(`/api/tankstelle?standortNr=${TANKSTELLEN.DEMO.standortNr}`).set(await auth('DEMO'));
    expect(res.status).toBe(200);
    const tanks = res.body.tanks as Row[];
    expect(tanks.map((x) => x.ampel).sort()).toEqual([...TANK_AMPELN].sort());
    for (const tank of tanks) {
      expect(tank.bestandDatum, String(tank.produktNr)).not.toBeNull();
      expect(String(tank.bestandDatum) >= vor(3), String(tank.produktNr)).toBe(true);
    }
    // Each state as the legend explains it, in the tank's figures.
    const nach = new Map(tanks.map((x) => [x.ampel, x]));
    expect(nach.get('ausreichend')).toMatchObject({ nachfolger: false, reichweiteTage: expect.any(Number) });
    expect(Number(nach.get('ausreichend')!.reichweiteTage)).toBeGreaterThanOrEqual(14);
    expect(nach.get('ausreichend_mit_nachfolger')).toMatchObject({ nachfolger: true });
    expect(Number(nach.get('niedrig_mit_nachfolger')!.reichweiteTage)).toBeLessThan(14);
    expect(nach.get('niedrig_ohne_nachfolger')).toMatchObject({ nachfolger: false });
    expect(nach.get('keine_aktive_lieferung')).toMatchObject({ gedeckt: '0', aktiveEinlieferungNr: null });
    expect(nach.get('keine_lieferungen')).toMatchObject({ gedeckt: '0', aktiveEinlieferungNr: null });
    // The chain view of the tank without deliveries: all of its content has no origin.
    const kette = await request(t.app).get(`/api/tankstelle/lieferkette?standortNr=${TANKSTELLEN.DEMO.standortNr}&produktNr=${nach.get('keine_lieferungen')!.produktNr}`).set(await auth('DEMO'));
    expect(kette.body).toMatchObject({ anteile: [], ohneHerkunft: nach.get('keine_lieferungen')!.bioMenge });
  });

  it('NORD has a few tanks at its filling station', async () => {
    const res = await request(t.app).get(`/api/tankstelle?standortNr=${TANKSTELLEN.NORD.standortNr}`).set(await auth('NORD'));
    expect(res.status).toBe(200);
    expect(res.body.tanks.length).toBeGreaterThanOrEqual(3);
  });

  it.each(Object.entries(TANKSTELLEN))('%s: certificate rests agree with their assignments; versions are the demo\'s, audits none', async (mandant, { standortNr }) => {
    const k = t.db.knex;
    const zertifikate = (await k('nachweise').where({ mandant, standort_nr: standortNr })) as Row[];
    expect(zertifikate.length).toBeGreaterThan(0);
    for (const z of zertifikate) {
      const zugeordnet = (await k('nachweisbescheinigungen').where({ mandant, nachweis_nr: z.nr, storniert: false }).pluck('volumen')) as string[];
      const summe = zugeordnet.reduce((s, v) => s + milli(v), 0n);
      expect(milli(String(z.menge_verbleibend)), String(z.nr)).toBe(milli(String(z.menge)) - summe);
      // Its last version holds its rest.
      const v = await k('nachweise_versionen').where({ mandant, nr: z.nr }).orderBy('version', 'desc').first();
      expect(v.version).toBe(z.version);
      expect(milli(String(v.data.mengeVerbleibend))).toBe(milli(String(z.menge_verbleibend)));
    }
    const alle: string[] = zertifikate.map((z) => String(z.nr));
    for (const [table, spalte] of [['einlieferungen', 'standort_nr'], ['ablieferungen', 'standort_nr'], ['bestaende', 'standort_nr'], ['abholungen', 'lieferstelle_nr'], ['nachweise', 'standort_nr'], ['nachweisbescheinigungen', 'standort_nr']]) {
      const nrs = (await k(table).where({ mandant, [spalte]: standortNr }).pluck('nr')).map(String);
      expect(nrs.length, table).toBeGreaterThan(0);
      const quellen = await k(`${table}_versionen`).where({ mandant }).whereIn('nr', nrs).distinct('quelle').pluck('quelle');
      expect(quellen, table).toEqual(['demo']);
      alle.push(...nrs);
    }
    expect(await k('audit_log').where({ mandant }).whereIn('entity_id', alle).first()).toBeUndefined();
  });
});
