// The demo chain of custody (src/seeds/lieferkette.ts) as every integration test and every visitor finds it:
// each tenant has collections, linked and unlinked Einlieferungen, Ablieferungen with and without certificates,
// so every link status, certificate status and tracking label can be seen; and the data keeps the rules the
// services enforce (one collection per Einlieferung, certificates of the bio component's group, never more
// assigned than a delivery's bio quantity or a certificate had), with versions that tell the story.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Produktgruppe } from '../domain/fuels.js';
import { zertifikatGruppe } from '../domain/lieferkette.js';
import { lieferungZertifikatStatus, offen } from '../domain/zuordnung.js';
import type { Einheit } from '../domain/units.js';
import { createTestApp, type TestApp } from '../testing/app.js';

type Row = Record<string, unknown>;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const token = async () => (await request(t.app).post('/api/v1/account/login').send({ login: 'ADMIN', password: 'Admin12345' })).body.token as string;

describe.each(['DEMO', 'NORD'])('the demo chain of custody of %s', (mandant) => {
  const q = () => t.db.knex;

  it('has two pages of collections, each with certificates of its bio component and deliveries of its own group and location', async () => {
    const abholungen = (await q()('abholungen').where({ mandant })) as Row[];
    expect(abholungen.length).toBeGreaterThan(10);
    for (const a of abholungen) {
      const certs = (await q()('abholung_nachweise as an').join('nachweise as n', function () {
        this.on('n.mandant', 'an.mandant').andOn('n.nr', 'an.nachweis_nr');
      }).where({ 'an.mandant': mandant, 'an.abholung_nr': a.nr }).select('n.nr', 'n.produktgruppe')) as Row[];
      expect(certs.length, String(a.nr)).toBeGreaterThan(0);
      // The versioned list and the working table agree.
      expect([...(a.nachweise as string[])].sort(), String(a.nr)).toEqual(certs.map((c) => String(c.nr)).sort());
      for (const c of certs) expect(c.produktgruppe).toBe(zertifikatGruppe(a.produktgruppe as Produktgruppe));
      const ein = (await q()('einlieferungen').where({ mandant, abholung_nr: a.nr })) as Row[];
      expect(ein.length, String(a.nr)).toBeGreaterThan(0);
      for (const e of ein) {
        expect(e.produktgruppe).toBe(a.produktgruppe);
        expect(e.standort_nr).toBe(a.lieferstelle_nr);
      }
    }
  });

  it('shows every link status and every certificate status in the delivery lists', async () => {
    const auth = { Authorization: await token(), 'X-Mandant': mandant };
    for (const s of ['nicht_verknuepft', 'vorlaeufig', 'endgueltig']) {
      const res = await request(t.app).get(`/api/einlieferungen?verknuepfungStatus=${s}&pageSize=1`).set(auth).expect(200);
      expect(res.body.total, s).toBeGreaterThan(0);
    }
    for (const s of ['keine', 'ohne_endgueltige', 'mit_endgueltigen']) {
      const res = await request(t.app).get(`/api/ablieferungen?zertifikatStatus=${s}&pageSize=1`).set(auth).expect(200);
      expect(res.body.total, s).toBeGreaterThan(0);
    }
  });

  it('never assigns more than a delivery\'s bio quantity, and its status is the rule\'s', async () => {
    const nbs = (await q()('nachweisbescheinigungen as b').join('nachweise as n', function () {
      this.on('n.mandant', 'b.mandant').andOn('n.nr', 'b.nachweis_nr');
    }).where({ 'b.mandant': mandant }).whereNotNull('b.ablieferung_nr').select('b.*', 'n.vorlaeufig', 'n.produktgruppe as n_gruppe')) as Row[];
    expect(nbs.length).toBeGreaterThan(5);
    const auth = { Authorization: await token(), 'X-Mandant': mandant };
    for (const nr of new Set(nbs.map((b) => String(b.ablieferung_nr)))) {
      const d = (await q()('ablieferungen').where({ mandant, nr }).first()) as Row;
      const l = { menge: String(d.menge), einheit: d.einheit as Einheit, biogehalt: d.biogehalt == null ? null : String(d.biogehalt), gruppe: d.produktgruppe as Produktgruppe };
      const own = nbs.filter((b) => b.ablieferung_nr === nr);
      for (const b of own) {
        expect(b.n_gruppe).toBe(zertifikatGruppe(l.gruppe));
        expect(b.standort_nr).toBe(d.standort_nr);
        expect(Number(b.volumen_verbleibend)).toBe(0);
      }
      const belegt = own.map((b) => ({ volumen: String(b.volumen), einheit: b.einheit as Einheit, vorlaeufig: Boolean(b.vorlaeufig) }));
      // Everything assigned fits: what is open is never negative, and one more thousandth would not fit.
      expect(Number(offen(l, belegt)), nr).toBeGreaterThanOrEqual(0);
      const row = (await request(t.app).get(`/api/ablieferungen?q=${encodeURIComponent(nr)}`).set(auth).expect(200)).body.data.find((r: Row) => r.nr === nr);
      expect(row.zertifikatStatus, nr).toBe(lieferungZertifikatStatus(l, belegt));
    }
  });

  it('keeps every certificate\'s rest: quantity = rest + live parts + live proofs, never below zero', async () => {
    const certs = (await q()('nachweise').where({ mandant, storniert: false })) as Row[];
    const parts = (await q()('nachweise').where({ mandant, storniert: false }).whereNotNull('referenz_nachweis_nr')) as Row[];
    const nbs = (await q()('nachweisbescheinigungen').where({ mandant, storniert: false }).whereNull('referenz_nachweis_nr')) as Row[];
    for (const c of certs) {
      const taken = parts.filter((p) => p.referenz_nachweis_nr === c.nr).reduce((s, p) => s + Number(p.menge), 0)
        + nbs.filter((b) => b.nachweis_nr === c.nr).reduce((s, b) => s + Number(b.volumen), 0);
      expect(Number(c.menge_verbleibend), String(c.nr)).toBeGreaterThanOrEqual(0);
      expect(Number(c.menge_verbleibend) + taken, String(c.nr)).toBeCloseTo(Number(c.menge), 3);
    }
  });

  it('records each link and each assignment as a version by the demo data', async () => {
    const linked = (await q()('einlieferungen').where({ mandant }).whereNotNull('abholung_nr')) as Row[];
    for (const e of linked) {
      const v = (await q()('einlieferungen_versionen').where({ mandant, nr: e.nr, version: e.version }).first()) as Row;
      expect(v.quelle).toBe('demo');
      expect(v.changes).toEqual([{ field: 'abholungNr', before: null, after: e.abholung_nr }]);
      expect((v.data as Row).abholungNr).toBe(e.abholung_nr);
    }
    const used = (await q()('nachweise').where({ mandant }).whereIn('nr', q()('nachweisbescheinigungen').where({ mandant }).whereNotNull('ablieferung_nr').select('nachweis_nr'))) as Row[];
    for (const c of used) {
      const last = (await q()('nachweise_versionen').where({ mandant, nr: c.nr }).orderBy('version', 'desc').first()) as Row;
      expect(last.version).toBe(c.version);
      expect(Number((last.data as Row).mengeVerbleibend)).toBe(Number(c.menge_verbleibend));
    }
  });

  it('leaves tracing something to find in every state: a delivery without certificates warns', async () => {
    const auth = { Authorization: await token(), 'X-Mandant': mandant };
    const ohne = (await request(t.app).get('/api/ablieferungen?zertifikatStatus=keine&pageSize=1').set(auth).expect(200)).body.data[0];
    const leer = await request(t.app).get(`/api/nachweisverfolgung/${encodeURIComponent(ohne.nr)}?art=ablieferung`).set(auth).expect(200);
    expect(leer.body.data.nachweiseVorhanden).toBe(false);
    const mit = (await request(t.app).get('/api/ablieferungen?zertifikatStatus=mit_endgueltigen&pageSize=1').set(auth).expect(200)).body.data[0];
    const voll = await request(t.app).get(`/api/nachweisverfolgung/${encodeURIComponent(mit.nr)}?art=ablieferung`).set(auth).expect(200);
    expect(voll.body.data.nachweiseVorhanden).toBe(true);
  });
});
