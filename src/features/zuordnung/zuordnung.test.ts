// Certificates on outbound deliveries, through HTTP against the real database: assigning and removing (API and
// page), the limits, two users at once, the delivery certificate status in the list and on the record, the
// delivery's proof as PDF, and marking a certificate final.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zertifikatEingabe } from '../../testing/factories.js';
import { lieferungZertifikatStatus } from '../../domain/zuordnung.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { extractPdfText } from '../../testing/pdf-text.js';
import { csrfFrom, signIn } from '../../testing/session.js';
import { createUserWithRoles } from '../../testing/users.js';

let t: TestApp;
let admin: Record<string, string>;
let zuord: Record<string, string>;
let leser: Record<string, string>;
let lager: Record<string, string>;

const token = async (login: string, password: string) => (await request(t.app).post('/api/v1/account/login').send({ login, password })).body.token as string;
const as = async (login: string, password: string, mandant = 'DEMO') => ({ Authorization: await token(login, password), 'X-Mandant': mandant });

beforeAll(async () => {
  t = await createTestApp();
  // ZUORD writes outbound deliveries (12) everywhere; LESER only reads them (11); ZLAGER writes them at 1002 only.
  await createUserWithRoles(t.db.knex, 'ZUORD', 'Zuordnung12345', [{ typ: 12, standortNr: null }]);
  await createUserWithRoles(t.db.knex, 'ZLESER', 'Zuordnung12345', [{ typ: 11, standortNr: null }]);
  await createUserWithRoles(t.db.knex, 'ZLAGER', 'Zuordnung12345', [{ typ: 12, standortNr: '1002' }]);
  admin = await as('TADMIN', 'Tadmin12345');
  zuord = await as('ZUORD', 'Zuordnung12345');
  leser = await as('ZLESER', 'Zuordnung12345');
  lager = await as('ZLAGER', 'Zuordnung12345');
});
afterAll(() => t.close());

let seq = 0;
/** A certificate of FAME from used cooking oil at 1001 (E 10, S 89.36 %), 10,000 L unless said otherwise. */
async function zertifikat(over: Record<string, unknown> = {}): Promise<string> {
  const nr = `ZU-N-${++seq}`;
  const res = await request(t.app).post('/api/nachweise').set(admin).send(zertifikatEingabe({ nr, lieferantZertifikatNr: 'EU-ISCC-Cert-DE100-0001', ...over }));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return nr;
}

/** An outbound delivery of Biodiesel B30 (P016: 30 % bio) at 1001, 10,000 L (3,000 L bio) unless said otherwise. */
async function lieferung(over: Record<string, unknown> = {}): Promise<string> {
  const nr = `ZU-A-${++seq}`;
  const res = await request(t.app).post('/api/ablieferungen').set(admin).send({
    nr, lieferdatum: '2026-11-20', menge: '10000', uomMenge: 'L', partnerNr: 'TP001', standortNr: '1001', produktNr: 'P016', ...over,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.nr;
}

const zuordnen = (a: string, body: Record<string, unknown>, auth = zuord) => request(t.app).post(`/api/ablieferungen/${a}/nachweise`).set(auth).send(body);
const entfernen = (a: string, n: string, auth = zuord) => request(t.app).delete(`/api/ablieferungen/${a}/nachweise/${n}`).set(auth);
const uebersicht = async (a: string) => (await request(t.app).get(`/api/ablieferungen/${a}/nachweise`).set(zuord)).body;
const rest = async (n: string, mandant = 'DEMO') => String((await t.db.knex('nachweise').where({ mandant, nr: n }).first('menge_verbleibend')).menge_verbleibend);
const proofs = async (a?: string) => Number((await t.db.knex('nachweisbescheinigungen').where(a ? { mandant: 'DEMO', ablieferung_nr: a } : {}).count({ c: '*' }))[0].c);
const audits = async (a: string, kind: string) => t.db.knex('audit_log').where({ mandant: 'DEMO', entity: 'ablieferungen', entity_id: a, kind }).orderBy('id');

describe('assigning certificates to an outbound delivery', () => {
  it('issues a proof for the delivery, lowers the rest, writes versions and the audit entry; unassigning restores the rest exactly', async () => {
    const n = await zertifikat();
    const a = await lieferung();
    const res = await zuordnen(a, { nachweisNr: n, volumen: '1000,5' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ nachweisNr: n, volumen: '1000.500', einheit: 'L', anteil: '33.35', vorlaeufig: false, thg: '10.00', einsparung: '89.36' });
    const nbNr = res.body.data.nachweisbescheinigungNr;
    expect(nbNr).toMatch(/^NB-\d+$/);
    const nb = await t.db.knex('nachweisbescheinigungen').where({ mandant: 'DEMO', nr: nbNr }).first();
    expect(nb).toMatchObject({ nachweis_nr: n, ablieferung_nr: a, volumen: '1000.500', volumen_verbleibend: '0.000', lieferdatum: '2026-11-20', standort_nr: '1001', produktgruppe: 'biodiesel', thg_emission: '10.00', rohstoff: 'altspeiseoel', anbauland: 'DE', storniert: false, version: 1 });
    expect(await rest(n)).toBe('8999.500');
    expect(await t.db.knex('nachweisbescheinigungen_versionen').where({ mandant: 'DEMO', nr: nbNr }).pluck('version')).toEqual([1]);
    expect(await t.db.knex('nachweise_versionen').where({ mandant: 'DEMO', nr: n }).orderBy('version').pluck('version')).toEqual([1, 2]);
    const [entry] = await audits(a, 'bewegungsdaten.ablieferungen.nachweis-zuordnen');
    expect(entry.before).toMatchObject({ zuordnung: null, nachweis: { nr: n, mengeVerbleibend: '10000.000' } });
    expect(entry.after).toMatchObject({ zuordnung: { nachweisNr: n, nachweisbescheinigungNr: nbNr, volumen: '1000.5' }, nachweis: { mengeVerbleibend: '8999.500' } });
    // The delivery itself gets no new version: an assignment changes none of its fields.
    expect((await t.db.knex('ablieferungen').where({ mandant: 'DEMO', nr: a }).first()).version).toBe(1);

    const u = await uebersicht(a);
    expect(u).toMatchObject({ bioMenge: '3000.000', gedeckt: '1000.500', offen: '1999.500', einheit: 'L', zertifikatStatus: 'ohne_endgueltige' });
    expect(u.zugeordnet).toEqual([{ nachweisNr: n, nachweisbescheinigungNr: nbNr, volumen: '1000.500', einheit: 'L', anteil: '33.35', vorlaeufig: false, thg: '10.00', einsparung: '89.36' }]);
    expect(u.verfuegbar.map((v: { nachweisNr: string }) => v.nachweisNr)).not.toContain(n);

    // Assigning the same certificate again is a conflict: remove and assign again to change the amount.
    const again = await zuordnen(a, { nachweisNr: n, volumen: '1' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('BEREITS_ZUGEORDNET');

    const removed = await entfernen(a, n);
    expect(removed.status).toBe(200);
    expect(await rest(n)).toBe('10000.000');
    expect(await t.db.knex('nachweisbescheinigungen').where({ mandant: 'DEMO', nr: nbNr }).first()).toMatchObject({ storniert: true, version: 2 });
    const [gone] = await audits(a, 'bewegungsdaten.ablieferungen.nachweis-entfernen');
    expect(gone.before).toMatchObject({ zuordnung: { nachweisNr: n, nachweisbescheinigungNr: nbNr } });
    expect(gone.after).toMatchObject({ zuordnung: null, nachweis: { mengeVerbleibend: '10000.000' } });
    expect((await uebersicht(a)).zertifikatStatus).toBe('keine');
    expect((await entfernen(a, n)).status).toBe(404);
    // Assigned again after removal (the cancelled proof does not count as live).
    expect((await zuordnen(a, { nachweisNr: n, volumen: '3000' })).status).toBe(201);
    expect(await rest(n)).toBe('7000.000');
  });

  it('offers certificates of the same group and location with rest, oldest first, with the suggestion and the partner rule', async () => {
    const a = await lieferung({ standortNr: '1004' });
    const jung = await zertifikat({ standortNr: '1004', lieferungVon: '2026-02-10' });
    const alt = await zertifikat({ standortNr: '1004', lieferungVon: '2026-02-02', menge: '500' });
    await zertifikat({ standortNr: '1004', produktNr: 'P017', rohstoff: 'altspeiseoel' }); // HVO: another group
    const u = await uebersicht(a);
    const mine = u.verfuegbar.filter((v: { nachweisNr: string }) => [jung, alt].includes(v.nachweisNr));
    expect(mine.map((v: { nachweisNr: string }) => v.nachweisNr)).toEqual([alt, jung]);
    expect(mine[0]).toMatchObject({ mengeVerbleibend: '500.000', vorschlag: '500.000', lieferungVon: '2026-02-02', einheit: 'L' });
    expect(mine[1]).toMatchObject({ mengeVerbleibend: '10000.000', vorschlag: '3000.000' });
    for (const v of u.verfuegbar) expect(v).toMatchObject({ einheit: expect.any(String) });
  });

  it('backs a blend by certificates of its bio component: 10,000 L of B7 take 700 L of a FAME certificate, and no more', async () => {
    const n = await zertifikat();
    const a = await lieferung({ produktNr: 'P001' }); // Diesel B7: group diesel, 7 % FAME
    const u = await uebersicht(a);
    expect(u.bioMenge).toBe('700.000');
    expect(u.verfuegbar.find((v: { nachweisNr: string }) => v.nachweisNr === n)).toMatchObject({ vorschlag: '700.000' });
    expect((await zuordnen(a, { nachweisNr: n, volumen: '700.001' })).body.code).toBe('MEHR_ALS_BIOMENGE');
    const ok = await zuordnen(a, { nachweisNr: n, volumen: '700' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.data).toMatchObject({ anteil: '100.00' });
    expect((await uebersicht(a)).zertifikatStatus).toBe('mit_endgueltigen');
    // A petrol blend is backed by ethanol, not by FAME.
    const e10 = await lieferung({ produktNr: 'P009' });
    const falsch = await zuordnen(e10, { nachweisNr: n, volumen: '100' });
    expect(falsch.status).toBe(400);
    expect(falsch.body.errors[0]).toMatchObject({ field: 'nachweisNr' });
  });

  it('refuses what the rules forbid with a clear text in German and English, changing nothing', async () => {
    const n = await zertifikat({ menge: '2000' });
    const a = await lieferung();
    const before = { proofs: await proofs(), rest: await rest(n) };

    const mehrAlsRest = await zuordnen(a, { nachweisNr: n, volumen: '2000.001' });
    expect(mehrAlsRest.status).toBe(409);
    expect(mehrAlsRest.body).toMatchObject({ code: 'MEHR_ALS_REST' });
    expect(mehrAlsRest.body.message).toContain('2000 L');
    expect(mehrAlsRest.body.errors[0]).toMatchObject({ field: 'volumen' });

    const gross = await zertifikat();
    const mehrAlsBio = await zuordnen(a, { nachweisNr: gross, volumen: '3000.001' });
    expect(mehrAlsBio.status).toBe(409);
    expect(mehrAlsBio.body.code).toBe('MEHR_ALS_BIOMENGE');
    expect(mehrAlsBio.body.message).toContain('3000 L');
    const en = await request(t.app).post(`/api/ablieferungen/${a}/nachweise`).set({ ...zuord, 'Accept-Language': 'en' }).send({ nachweisNr: gross, volumen: '3000.001' });
    expect(en.body.message).toMatch(/open bio quantity/);

    const hvo = await zertifikat({ produktNr: 'P017' });
    const gruppe = await zuordnen(a, { nachweisNr: hvo, volumen: '1' });
    expect(gruppe.status).toBe(400);
    expect(gruppe.body.errors).toEqual([{ field: 'nachweisNr', message: expect.stringContaining(hvo) }]);
    expect(gruppe.body.errors[0].message).toContain('hvo');

    const woanders = await zertifikat({ standortNr: '1002' });
    const standort = await zuordnen(a, { nachweisNr: woanders, volumen: '1' });
    expect(standort.status).toBe(400);
    expect(standort.body.code).toBe('ANDERER_STANDORT');

    const nicht = await zertifikat({ nachhaltig: false });
    expect((await zuordnen(a, { nachweisNr: nicht, volumen: '1' })).body.code).toBe('NICHT_NACHHALTIG');

    // Period ended in 2024: expired on 15 April 2025.
    const alt = await zertifikat({ ausstellungsdatum: '2024-10-02', zeitraumVon: '2024-07-01', zeitraumBis: '2024-09-30', lieferungVon: '2024-08-01', lieferungBis: '2024-08-15' });
    const abgelaufen = await zuordnen(a, { nachweisNr: alt, volumen: '1' });
    expect(abgelaufen.status).toBe(409);
    expect(abgelaufen.body.message).toContain('2025-04-15');
    expect((await uebersicht(a)).verfuegbar.map((v: { nachweisNr: string }) => v.nachweisNr)).not.toContain(alt);

    for (const [body, field] of [[{ nachweisNr: n, volumen: '0' }, 'volumen'], [{ nachweisNr: n, volumen: 'viel' }, 'volumen'], [{ nachweisNr: n }, 'volumen'], [{ volumen: '1' }, 'nachweisNr']] as const) {
      const res = await zuordnen(a, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    expect((await zuordnen(a, { nachweisNr: 'GIBT-ES-NICHT', volumen: '1' })).status).toBe(404);
    expect((await zuordnen('GIBT-ES-NICHT', { nachweisNr: n, volumen: '1' })).status).toBe(404);
    expect(await proofs()).toBe(before.proofs);
    expect(await rest(n)).toBe(before.rest);
  });

  it("keeps tenants apart: another tenant's certificate or delivery is 404 and nothing changes", async () => {
    const a = await lieferung();
    const n = await zertifikat();
    const nordN = await t.db.knex('nachweise').where({ mandant: 'NORD', storniert: false }).where('menge_verbleibend', '>', 0)
      .whereNotIn('nr', t.db.knex('nachweise').where({ mandant: 'DEMO' }).select('nr')).first('nr', 'menge_verbleibend');
    // A delivery of NORD under a number DEMO does not have (both tenants' demo data use the same numbers).
    const muster = await t.db.knex('ablieferungen').where({ mandant: 'NORD' }).first('partner_nr', 'standort_nr', 'produkt_nr');
    const nordAuth = await as('ADMIN', 'Admin12345', 'NORD');
    const created = await request(t.app).post('/api/ablieferungen').set(nordAuth)
      .send({ nr: 'ZU-NORD-1', lieferdatum: '2026-11-20', menge: '1000', uomMenge: 'L', partnerNr: muster.partner_nr, standortNr: muster.standort_nr, produktNr: muster.produkt_nr });
    expect(created.status).toBe(201);
    const nordA = { nr: 'ZU-NORD-1' };
    const before = { demo: await proofs(), nord: Number((await t.db.knex('nachweisbescheinigungen').where({ mandant: 'NORD' }).count({ c: '*' }))[0].c) };
    const fremd = await zuordnen(a, { nachweisNr: nordN.nr, volumen: '1' });
    expect(fremd.status).toBe(404);
    expect(fremd.body.message).not.toContain('NORD');
    expect((await zuordnen(nordA.nr, { nachweisNr: n, volumen: '1' })).status).toBe(404);
    expect((await request(t.app).get(`/api/ablieferungen/${nordA.nr}/nachweise`).set(zuord)).status).toBe(404);
    expect((await request(t.app).get(`/api/ablieferungen/${nordA.nr}/nachweisbescheinigung.pdf`).set(zuord)).status).toBe(404);
    expect(await proofs()).toBe(before.demo);
    expect(Number((await t.db.knex('nachweisbescheinigungen').where({ mandant: 'NORD' }).count({ c: '*' }))[0].c)).toBe(before.nord);
    expect(await rest(nordN.nr, 'NORD')).toBe(String(nordN.menge_verbleibend));
    // A user limited to location 1002 does not see a delivery at 1001.
    expect((await zuordnen(a, { nachweisNr: n, volumen: '1' }, lager)).status).toBe(404);
  });

  it('lets readers look but not change: 403 on the API, the no-permission dialog on the page', async () => {
    const n = await zertifikat();
    const a = await lieferung();
    expect((await request(t.app).get(`/api/ablieferungen/${a}/nachweise`).set(leser)).status).toBe(200);
    const post = await zuordnen(a, { nachweisNr: n, volumen: '1' }, leser);
    expect(post.status).toBe(403);
    expect((await zuordnen(a, { nachweisNr: n, volumen: '1' })).status).toBe(201);
    expect((await entfernen(a, n, leser)).status).toBe(403);
    const agent = await signIn(t.app, 'ZLESER', 'Zuordnung12345', 'DEMO');
    const tab = await agent.get(`/de/bewegungsdaten/ablieferungen/${a}?tab=nachweise`);
    expect(tab.status).toBe(200);
    expect(tab.text).not.toContain('>Entfernen<');
    const page = await agent.post(`/de/bewegungsdaten/ablieferungen/${a}/nachweise/${n}/entfernen`).type('form').send({ _csrf: csrfFrom(tab.text) });
    expect(page.status).toBe(302);
    expect(await proofs(a)).toBe(1);
    expect(await rest(n)).toBe('9999.000');
  });

  it('assigns to a completed delivery (certificates often arrive later) but not to a cancelled one, and a delivery with certificates cannot be cancelled', async () => {
    const n = await zertifikat();
    const fertig = await lieferung({ status: 'completed' });
    expect((await zuordnen(fertig, { nachweisNr: n, volumen: '100' })).status).toBe(201);
    const storno = await request(t.app).post(`/api/ablieferungen/${fertig}/storno`).set(zuord).send({});
    expect(storno.status).toBe(409);

    const offen = await lieferung();
    expect((await zuordnen(offen, { nachweisNr: n, volumen: '100' })).status).toBe(201);
    expect((await request(t.app).post(`/api/ablieferungen/${offen}/storno`).set(zuord).send({})).body.code).toBe('ZUORDNUNGEN_VORHANDEN');
    // Nor edited away from what its certificates were checked against: location, group, a bio quantity below the cover.
    const stored = (await request(t.app).get(`/api/ablieferungen/${offen}`).set(zuord)).body.data;
    for (const [change, field] of [[{ standortNr: '1002' }, 'standortNr'], [{ produktNr: 'P017', produktgruppe: '' }, 'produktgruppe'], [{ menge: '300' }, 'menge'], [{ storniert: true }, 'storniert']] as const) {
      const res = await request(t.app).put(`/api/ablieferungen/${offen}`).set(zuord).send({ ...stored, ...change });
      expect(res.status, JSON.stringify(change)).toBe(409);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    // 334 L of B30 still hold 100.2 L of bio: enough for the 100 L assigned.
    expect((await request(t.app).put(`/api/ablieferungen/${offen}`).set(zuord).send({ ...stored, menge: '334' })).status).toBe(200);
    expect((await entfernen(offen, n)).status).toBe(200);
    expect((await request(t.app).post(`/api/ablieferungen/${offen}/storno`).set(zuord).send({})).status).toBe(200);
    const danach = await zuordnen(offen, { nachweisNr: n, volumen: '100' });
    expect(danach.status).toBe(409);
    expect(danach.body.code).toBe('LIEFERUNG_STORNIERT');
  });
});

describe('two users at once', () => {
  it('two deliveries drawing on one certificate beyond its rest: one wins, the other gets 409, the rest never goes below zero', async () => {
    const n = await zertifikat({ menge: '1000' });
    const [a1, a2] = [await lieferung(), await lieferung()];
    const results = await Promise.all([zuordnen(a1, { nachweisNr: n, volumen: '600' }), zuordnen(a2, { nachweisNr: n, volumen: '600' })]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.status === 409)!.body.code).toBe('MEHR_ALS_REST');
    expect(await rest(n)).toBe('400.000');
    expect((await proofs(a1)) + (await proofs(a2))).toBe(1);
  });

  it('two certificates for one delivery beyond its bio quantity: one of them is refused', async () => {
    const a = await lieferung({ menge: '1000', produktNr: 'P013' }); // B100: 1,000 L bio
    const [n1, n2] = [await zertifikat(), await zertifikat()];
    const results = await Promise.all([zuordnen(a, { nachweisNr: n1, volumen: '600' }), zuordnen(a, { nachweisNr: n2, volumen: '600' })]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.status === 409)!.body.code).toBe('MEHR_ALS_BIOMENGE');
    expect((await uebersicht(a)).gedeckt).toBe('600.000');
    expect(Number(await rest(n1)) + Number(await rest(n2))).toBe(19_400);
  });
});

describe('the delivery certificate status', () => {
  it('is keine, then ohne_endgueltige (partly covered or provisional), then mit_endgueltigen, in the list column and filter alike', async () => {
    const keine = await lieferung({ nr: 'ZS-KEINE', menge: '1000', produktNr: 'P013' });
    const teil = await lieferung({ nr: 'ZS-TEIL', menge: '1000', produktNr: 'P013' });
    const vorl = await lieferung({ nr: 'ZS-VORL', menge: '1000', produktNr: 'P013' });
    const voll = await lieferung({ nr: 'ZS-VOLL', menge: '1000', produktNr: 'P013' });
    const final = await zertifikat();
    const provisional = await zertifikat({ vorlaeufig: true });
    expect((await zuordnen(teil, { nachweisNr: final, volumen: '999.999' })).status).toBe(201);
    expect((await zuordnen(vorl, { nachweisNr: provisional, volumen: '1000' })).status).toBe(201);
    // Covered in two steps, the second from a certificate in kg (892 kg of biodiesel are 1,000 L).
    expect((await zuordnen(voll, { nachweisNr: final, volumen: '500' })).status).toBe(201);
    const kg = await zertifikat({ einheit: 'kg', menge: '5000' });
    expect((await uebersicht(voll)).verfuegbar.find((v: { nachweisNr: string }) => v.nachweisNr === kg).vorschlag).toBe('446.000');
    expect((await zuordnen(voll, { nachweisNr: kg, volumen: '446' })).status).toBe(201);

    const expected: Record<string, string> = { [keine]: 'keine', [teil]: 'ohne_endgueltige', [vorl]: 'ohne_endgueltige', [voll]: 'mit_endgueltigen' };
    const list = await request(t.app).get('/api/ablieferungen?q=ZS-&pageSize=50').set(zuord);
    expect(Object.fromEntries(list.body.data.map((r: { nr: string; zertifikatStatus: string }) => [r.nr, r.zertifikatStatus]))).toEqual(expected);
    // The list's SQL says what the pure rule says of the same assignments.
    for (const nr of Object.keys(expected)) {
      const u = await uebersicht(nr);
      const row = list.body.data.find((r: { nr: string }) => r.nr === nr);
      const rule = lieferungZertifikatStatus(
        { menge: row.menge, einheit: row.uomMenge, biogehalt: row.biogehalt, gruppe: row.produktgruppe },
        u.zugeordnet.map((z: { volumen: string; einheit: 'L' | 'kg'; vorlaeufig: boolean }) => ({ volumen: z.volumen, einheit: z.einheit, vorlaeufig: z.vorlaeufig })),
      );
      expect(rule).toBe(expected[nr]);
      expect(u.zertifikatStatus).toBe(expected[nr]);
      // The record itself carries it too (the contract's status field on records).
      expect((await request(t.app).get(`/api/ablieferungen/${nr}`).set(zuord)).body.data.zertifikatStatus).toBe(expected[nr]);
    }
    for (const status of ['keine', 'ohne_endgueltige', 'mit_endgueltigen']) {
      const filtered = await request(t.app).get(`/api/ablieferungen?q=ZS-&zertifikatStatus=${status}`).set(zuord);
      expect(filtered.status).toBe(200);
      expect(filtered.body.data.map((r: { nr: string }) => r.nr).sort()).toEqual(Object.keys(expected).filter((nr) => expected[nr] === status).sort());
      expect(filtered.body.total).toBe(Object.values(expected).filter((s) => s === status).length);
    }
    expect((await request(t.app).get('/api/ablieferungen?zertifikatStatus=irgendwas').set(zuord)).status).toBe(400);

    // On the pages: the column's badges, the filter, and the record.
    const agent = await signIn(t.app, 'ZUORD', 'Zuordnung12345', 'DEMO');
    const page = await agent.get('/de/bewegungsdaten/ablieferungen?q=ZS-&zertifikatStatus=mit_endgueltigen');
    expect(page.status).toBe(200);
    expect(page.text).toContain('ZS-VOLL');
    expect(page.text).not.toContain('ZS-TEIL');
    expect(page.text).toContain('mit endgültigen');
    expect(page.text).toContain('<option value="ohne_endgueltige"');
    const en = await agent.get('/en/bewegungsdaten/ablieferungen?q=ZS-');
    expect(en.text).toContain('without final');
    expect(en.text).toContain('with final');
    // A fully covered delivery offers no form to assign more.
    const covered = await agent.get(`/de/bewegungsdaten/ablieferungen/${voll}?tab=nachweise`);
    expect(covered.text).toContain('Bio-Menge gedeckt');
    expect(covered.text).not.toContain('name="volumen"');
    const record = await agent.get(`/de/bewegungsdaten/ablieferungen/${teil}`);
    expect(record.text).toContain('ohne endgültige');
    expect(record.text).toContain(`?tab=nachweise`);

    // Marking the provisional certificate final: the delivery it fully covers turns to mit_endgueltigen.
    const done = await request(t.app).post(`/api/nachweise/${provisional}/endgueltig`).set(admin).send({});
    expect(done.status).toBe(200);
    expect(done.body.data.vorlaeufig).toBe(false);
    expect((await uebersicht(vorl)).zertifikatStatus).toBe('mit_endgueltigen');
    const after = await request(t.app).get('/api/ablieferungen?q=ZS-&zertifikatStatus=mit_endgueltigen').set(zuord);
    expect(after.body.data.map((r: { nr: string }) => r.nr).sort()).toEqual([voll, vorl].sort());
  });
});

describe('marking a certificate final', () => {
  it('marks the certificate and its parts (at any depth) final in one go, also when it is used; offered only while provisional', async () => {
    const n = await zertifikat({ vorlaeufig: true });
    const split = await request(t.app).post(`/api/nachweise/${n}/teilung`).set(admin).send({ teile: [{ menge: '1000' }] });
    expect(split.status).toBe(201);
    const teil = split.body.data[0].nr;
    const enkel = (await request(t.app).post(`/api/nachweise/${teil}/teilung`).set(admin).send({ teile: [{ menge: '100' }] })).body.data[0].nr;
    const a = await lieferung({ menge: '100', produktNr: 'P013' });
    expect((await zuordnen(a, { nachweisNr: enkel, volumen: '100' })).status).toBe(201);
    expect((await uebersicht(a)).zertifikatStatus).toBe('ohne_endgueltige');
    // A part becomes final with its original, not on its own.
    expect((await request(t.app).post(`/api/nachweise/${teil}/endgueltig`).set(admin).send({})).status).toBe(409);
    expect((await request(t.app).post(`/api/nachweise/${n}/endgueltig`).set(leser).send({})).status).toBe(403);

    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345', 'DEMO');
    const detail = await agent.get(`/de/bewegungsdaten/nachweise/${n}`);
    expect(detail.text).toContain('Als endgültig markieren');
    const res = await agent.post(`/de/bewegungsdaten/nachweise/${n}/endgueltig`).type('form').send({ _csrf: csrfFrom(detail.text) });
    expect(res.status).toBe(302);
    const flags = await t.db.knex('nachweise').where({ mandant: 'DEMO' }).whereIn('nr', [n, teil, enkel]).pluck('vorlaeufig');
    expect(flags).toEqual([false, false, false]);
    expect((await t.db.knex('nachweise_versionen').where({ mandant: 'DEMO', nr: enkel }).orderBy('version', 'desc').first()).changes).toEqual([{ field: 'vorlaeufig', before: true, after: false }]);
    expect((await t.db.knex('audit_log').where({ mandant: 'DEMO', kind: 'bewegungsdaten.nachweise.endgueltig', entity_id: n }).first()).after).toMatchObject({ vorlaeufig: false, teile: [teil, enkel].sort() });
    expect((await uebersicht(a)).zertifikatStatus).toBe('mit_endgueltigen');
    expect((await agent.get(`/de/bewegungsdaten/nachweise/${n}`)).text).not.toContain('Als endgültig markieren');
    expect((await request(t.app).post(`/api/nachweise/${n}/endgueltig`).set(admin).send({})).status).toBe(409);
  });
});

describe('the certificates tab', () => {
  it('assigns and removes through plain forms, with the problem shown on the tab when refused', async () => {
    const n = await zertifikat({ menge: '800' });
    const a = await lieferung();
    const agent = await signIn(t.app, 'ZUORD', 'Zuordnung12345', 'DEMO');
    const tab = await agent.get(`/de/bewegungsdaten/ablieferungen/${a}?tab=nachweise`);
    expect(tab.status).toBe(200);
    expect(tab.text).toContain('Verfügbare Nachweise');
    expect(tab.text).toContain('<caption class="visually-hidden">Nachweise, die der Ablieferung');
    // The suggestion: the certificate's whole rest (less than the open 3,000 L), typed the German way.
    expect(tab.text).toMatch(new RegExp(`name="nachweisNr" value="${n}">[\\s\\S]*?<label for="zv-${n}"[^>]*>[^<]+</label>\\s*<input id="zv-${n}" name="volumen"[^>]*value="800"`));
    // Partner TP001 has no rule at 1001 in the demo data, or shows it.
    expect(tab.text).toContain('Regel des Partners an diesem Standort');
    const csrf = csrfFrom(tab.text);

    const tooMuch = await agent.post(`/de/bewegungsdaten/ablieferungen/${a}/nachweise`).type('form').send({ _csrf: csrf, nachweisNr: n, volumen: '900' });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.text).toContain('Mehr als die verbleibende Menge von Nachweis');
    expect(tooMuch.text).toContain('aria-invalid="true"');
    expect(await proofs(a)).toBe(0);

    const ok = await agent.post(`/de/bewegungsdaten/ablieferungen/${a}/nachweise`).type('form').send({ _csrf: csrf, nachweisNr: n, volumen: '750,5' });
    expect(ok.status).toBe(302);
    expect(ok.headers.location).toBe(`/de/bewegungsdaten/ablieferungen/${a}?tab=nachweise`);
    const shown = await agent.get(ok.headers.location);
    expect(shown.text).toContain('Der Nachweis wurde zugeordnet');
    expect(shown.text).toContain(`href="/de/bewegungsdaten/nachweise/${n}"`);
    expect(shown.text).toMatch(/750,5\u00a0L/);
    expect(shown.text).toContain('25,02\u00a0%');
    expect(shown.text).toContain('Nachweisbescheinigung (PDF)');
    expect(shown.text).toContain(`/de/bewegungsdaten/ablieferungen/${a}/nachweisbescheinigung.pdf`);

    const removed = await agent.post(`/de/bewegungsdaten/ablieferungen/${a}/nachweise/${n}/entfernen`).type('form').send({ _csrf: csrf });
    expect(removed.status).toBe(302);
    expect(await rest(n)).toBe('800.000');
    const missing = await agent.post(`/de/bewegungsdaten/ablieferungen/${a}/nachweise/${n}/entfernen`).type('form').send({ _csrf: csrf });
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('ist dieser Ablieferung nicht zugeordnet');
  });
});

describe("the delivery's Nachweisbescheinigung (PDF)", () => {
  it('names the delivery, each proof with quantity, share and E, and the chain back to the supplier, in German and English', async () => {
    const n = await zertifikat();
    const teil = (await request(t.app).post(`/api/nachweise/${n}/teilung`).set(admin).send({ teile: [{ menge: '2000' }] })).body.data[0].nr;
    const a = await lieferung({ menge: '4000', produktNr: 'P013' });
    const nb = (await zuordnen(a, { nachweisNr: teil, volumen: '1500' })).body.data.nachweisbescheinigungNr;

    const agent = await signIn(t.app, 'ZUORD', 'Zuordnung12345', 'DEMO');
    const de = await agent.get(`/de/bewegungsdaten/ablieferungen/${a}/nachweisbescheinigung.pdf`).buffer(true).parse((res, cb) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => cb(null, Buffer.concat(chunks)));
    });
    expect(de.status).toBe(200);
    expect(de.headers['content-type']).toBe('application/pdf');
    // Words as a reader finds them (a long line wraps in the document).
    const text = (await extractPdfText(de.body as Buffer)).join(' ').replace(/\s+/g, ' ');
    expect(text).toContain('Nachweisbescheinigung');
    expect(text).toContain(a);
    expect(text).toContain(nb);
    expect(text).toContain('1.500 L');
    expect(text).toContain('4.000 L');
    expect(text).toContain('37,50 %');
    expect(text).toContain('10,00');
    expect(text).toContain('89,36 %');
    expect(text).toContain('20.11.2026');
    expect(text).toContain('Altspeiseöl');
    // The chain, however its line wraps.
    expect(text.replace(/\s/g, '')).toContain(`${nb}<-${teil}<-${n}<-ÖlmühleNordGmbH(EU-ISCC-Cert-DE100-0001)`);

    const en = await request(t.app).get(`/api/ablieferungen/${a}/nachweisbescheinigung.pdf`).set({ ...zuord, 'Accept-Language': 'en' }).buffer(true).parse((res, cb) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => cb(null, Buffer.concat(chunks)));
    });
    expect(en.status).toBe(200);
    const textEn = (await extractPdfText(en.body as Buffer)).join(' ').replace(/\s+/g, ' ');
    expect(textEn).toContain('Proof of sustainability for delivery');
    expect(textEn).toContain(a);
    expect(textEn).toContain(nb);
    expect(textEn).toContain('1,500 L');
    expect(textEn).toContain('37.50 %');
    expect(textEn).toContain('10.00');
    expect(textEn).toContain('2026-11-20');

    // No assignment: no empty document, a clear 409.
    const leer = await lieferung();
    const none = await request(t.app).get(`/api/ablieferungen/${leer}/nachweisbescheinigung.pdf`).set(zuord);
    expect(none.status).toBe(409);
    expect(none.body.message).toContain('keine Nachweise zugeordnet');
    const nonePage = await agent.get(`/en/bewegungsdaten/ablieferungen/${leer}/nachweisbescheinigung.pdf`);
    expect(nonePage.status).toBe(409);
    expect(nonePage.text).toContain('no proof to print');
    expect((await request(t.app).get(`/api/ablieferungen/${a}/nachweisbescheinigung.pdf`).set(leser)).status).toBe(200);
  });
});
