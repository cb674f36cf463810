// Bilanzen through HTTP against the real database: the worked example of certificates-and-balances.md section 4
// step by step (create, positions from the rules, preview, allocate, close with its preview, POCs), the open-one and
// overlap rules (also two creates at once), bad input in both languages, reset, split, closing a single position,
// stale versions, and who may see and change what (locations, tenants, rights). The pages' form path too.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { bilanzBeispiel } from '../../testing/bilanz-beispiel.js';
import { setTenant } from '../../db/rls.js';
import { csrfFrom, signIn } from '../../testing/session.js';
import { createUserWithRoles } from '../../testing/users.js';

let t: TestApp;
let admin: Record<string, string>;
let nord: Record<string, string>;

const token = async (login: string, password: string) => (await request(t.app).post('/api/v1/account/login').send({ login, password })).body.token as string;
const as = async (login: string, password: string, mandant = 'DEMO') => ({ Authorization: await token(login, password), 'X-Mandant': mandant });

let seq = 0;
const api = () => request(t.app);

/** A location of its own with two partners whose rules are the worked example's (no certificates, no deliveries). */
async function schauplatz() {
  const n = ++seq;
  return { ...(await bilanzBeispiel(t.app, admin, `BW${n}`, { nurRegeln: true })), n };
}

/** The worked example at a fresh location (src/testing/bilanz-beispiel.ts). */
async function beispiel() {
  const n = ++seq;
  return { ...(await bilanzBeispiel(t.app, admin, `BW${n}`)), n };
}

async function anlegen(standortNr: string, over: Record<string, unknown> = {}, auth = admin) {
  return api().post('/api/bilanzen').set(auth).send({ standortNr, produktNr: 'P013', zeitraumVon: '2026-01-01', zeitraumBis: '2026-03-31', ...over });
}

const rest = async (nr: string) => String((await t.db.knex('nachweise').where({ mandant: 'DEMO', nr }).first('menge_verbleibend')).menge_verbleibend);
const zeilenIn = async (id: number) => Number((await t.db.knex('bilanz_zeilen').where({ mandant: 'DEMO', bilanz_id: id }).count({ c: '*' }))[0].c);
const stand = async (id: number) => {
  const b = await t.db.knex('bilanzen').where({ mandant: 'DEMO', id }).first();
  const p = await t.db.knex('bilanz_positionen').where({ mandant: 'DEMO', bilanz_id: id }).orderBy('id');
  const z = await t.db.knex('bilanz_zeilen').where({ mandant: 'DEMO', bilanz_id: id }).orderBy('nr');
  const nb = await t.db.knex('nachweisbescheinigungen').where({ mandant: 'DEMO', bilanz_id: id }).orderBy('nr');
  return { b, p, z, nb };
};

beforeAll(async () => {
  t = await createTestApp();
  admin = await as('TADMIN', 'Tadmin12345');
  nord = await as('ADMIN', 'Admin12345', 'NORD');
});
afterAll(() => t.close());

describe('the worked example through the API', () => {
  it('creates the Bilanz with its positions from the rules, previews, allocates line by line with reasons, and closes into exactly the previewed POCs', async () => {
    const s = await beispiel();
    const created = await anlegen(s.standortNr);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.id as number;
    expect(created.headers.location).toBe(`/api/bilanzen/${id}`);
    expect(created.body.data).toMatchObject({ standortNr: s.standortNr, produktNr: 'P013', zeitraumVon: '2026-01-01', zeitraumBis: '2026-03-31', status: 'offen', verteilt: false, mengeGesamt: '41000', bioMenge: '45000', zugeordnet: null, restBioMenge: null });
    expect(created.body.data.positionen.map((p: Record<string, unknown>) => [p.partnerNr, p.prioritaet, p.biogehalt, p.bioMenge, p.status])).toEqual([
      [s.tp1, 1, '100', null, 'offen'],
      [s.tp2, 2, null, '8000', 'offen'],
    ]);

    // The preview stores nothing.
    const vorschau = await api().post(`/api/bilanzen/${id}/verteilung?vorschau=1`).set(admin).send({});
    expect(vorschau.status, JSON.stringify(vorschau.body)).toBe(200);
    expect(vorschau.body).toMatchObject({ success: true, vorschau: true });
    expect(await zeilenIn(id)).toBe(0);

    const res = await api().post(`/api/bilanzen/${id}/verteilung`).set(admin).send({ version: created.body.data.version });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const d = res.body.data;
    const zeilen = d.zuordnungen.map((z: Record<string, unknown>) => [z.ablieferungNr, z.nachweisNr, z.menge, z.thg, z.thgMinderungT]);
    expect(zeilen).toEqual([
      [s.A(2), s.N(1), '18000', '12', '48.7674'],
      [s.A(3), s.N(1), '2000', '12', '5.4186'],
      [s.A(3), s.N(2), '10000', '20', '24.453'],
      [s.A(1), s.N(2), '5000', '20', '12.2265'],
      [s.A(1), s.N(3), '1000', '8', '2.8413'],
      [s.A(4), s.N(3), '2000', '8', '5.6826'],
    ]);
    expect(vorschau.body.data.zuordnungen.map((z: Record<string, unknown>) => [z.ablieferungNr, z.nachweisNr, z.menge])).toEqual(zeilen.map((z: unknown[]) => z.slice(0, 3)));
    expect(vorschau.body.data.zuordnungen.map((z: Record<string, unknown>) => z.lieferdatum)).toEqual(['2026-01-25', '2026-02-15', '2026-02-15', '2026-01-20', '2026-01-20', '2026-03-10']);
    expect(d).toMatchObject({ verteilt: true, zugeordnet: '38000', restBioMenge: '7000', bioMenge: '45000', mengeGesamt: '41000', thgMinderungT: '99.3894', biogehalt: '92.68' });
    expect(d.nichtGedeckt).toEqual([{ ablieferungNr: s.A(4), positionId: 2, offen: '3000' }]);
    expect(d.zuordnungen[0].begruendung).toBe(`Priorität 1 für Partner ${s.tp1}; Zertifikat ${s.N(1)} ist das älteste mit Rest 20.000 L`);
    expect(d.zuordnungen[5].begruendung).toBe(`Priorität 2 für Partner ${s.tp2}; Zertifikat ${s.N(3)} ist das älteste mit Rest 9.000 L (${s.N(2)} ist aufgebraucht); Bio-Menge der Position: noch 2.000 L; 3.000 L der Lieferung bleiben offen`);
    // Nothing is issued before closing: the certificates keep their rest.
    expect(await rest(s.N(1))).toBe('20000.000');

    // In English, the reasons speak English.
    const en = await api().get(`/api/bilanzen/${id}`).set(admin).set('Accept-Language', 'en');
    expect(en.body.data.zuordnungen[0].begruendung).toBe(`priority 1 for partner ${s.tp1}; certificate ${s.N(1)} is the oldest with rest 20,000 L`);

    const preview = await api().post(`/api/bilanzen/${id}/abschluss?vorschau=1`).set(admin).send({});
    expect(preview.status).toBe(200);
    const erwartet = preview.body.data.nachweisbescheinigungen.map((p: Record<string, unknown>) => [p.ablieferungNr, p.nachweisNr, p.volumen, p.einheit]);
    expect(erwartet).toEqual(zeilen.map((z: unknown[]) => [z[0], z[1], z[2], 'L']));
    expect((await stand(id)).nb).toEqual([]);

    const closed = await api().post(`/api/bilanzen/${id}/abschluss`).set(admin).send({ version: d.version });
    expect(closed.status, JSON.stringify(closed.body)).toBe(201);
    const { b, p, z, nb } = await stand(id);
    expect(b.status).toBe('geschlossen');
    expect(p.map((x: Record<string, unknown>) => x.status)).toEqual(['geschlossen', 'geschlossen']);
    expect(nb.map((x: Record<string, unknown>) => [x.ablieferung_nr, x.nachweis_nr, String(Number(x.volumen)), x.einheit, x.volumen_verbleibend, x.storniert])).toEqual(
      erwartet.map((e: string[]) => [e[0], e[1], e[2], e[3], '0.000', false]),
    );
    expect(nb.find((x: Record<string, unknown>) => x.ablieferung_nr === s.A(2))).toMatchObject({ thg_emission: '12.00', lieferdatum: '2026-01-25', standort_nr: s.standortNr, bilanz_id: id });
    expect(z.every((x: Record<string, unknown>) => typeof x.nachweisbescheinigung_nr === 'string')).toBe(true);
    expect([await rest(s.N(1)), await rest(s.N(2)), await rest(s.N(3))]).toEqual(['0.000', '0.000', '7000.000']);
    const audit = await t.db.knex('audit_log').where({ mandant: 'DEMO', entity: 'bilanzen', entity_id: String(id) }).orderBy('id').pluck('kind');
    expect(audit).toEqual(['bewegungsdaten.bilanzen.anlegen', 'bewegungsdaten.bilanzen.verteilen', 'bewegungsdaten.bilanzen.abschliessen']);

    // The deliveries show their POCs; a POC cannot be taken back by hand.
    const tab = await api().get(`/api/ablieferungen/${s.A(3)}/nachweise`).set(admin);
    expect(tab.body.zugeordnet.map((x: Record<string, unknown>) => [x.nachweisNr, x.volumen])).toEqual([[s.N(1), '2000.000'], [s.N(2), '10000.000']]);
    expect(tab.body.zertifikatStatus).toBe('mit_endgueltigen');
    expect((await api().delete(`/api/ablieferungen/${s.A(3)}/nachweise/${s.N(1)}`).set(admin)).status).toBe(404);

    // Closed: every write is a 409 and changes nothing.
    const vorher = await stand(id);
    const writes = [
      api().put(`/api/bilanzen/${id}`).set(admin).send({ zeitraumVon: '2026-01-01', zeitraumBis: '2026-02-28' }),
      api().delete(`/api/bilanzen/${id}`).set(admin),
      api().post(`/api/bilanzen/${id}/positionen`).set(admin).send({ partnerNr: s.tp1, prioritaet: 3, biogehalt: '50' }),
      api().put(`/api/bilanzen/${id}/positionen/1`).set(admin).send({ prioritaet: 3, biogehalt: '50' }),
      api().delete(`/api/bilanzen/${id}/positionen/1`).set(admin),
      api().post(`/api/bilanzen/${id}/verteilung`).set(admin).send({}),
      api().post(`/api/bilanzen/${id}/zuruecksetzen`).set(admin).send({}),
      api().post(`/api/bilanzen/${id}/abschluss`).set(admin).send({}),
      api().post(`/api/bilanzen/${id}/positionen/2/teilung`).set(admin).send({ teile: [{ bioMenge: '4000' }, { bioMenge: '4000' }] }),
      api().post(`/api/bilanzen/${id}/positionen/1/abschluss`).set(admin).send({}),
    ];
    for (const w of writes) {
      const r = await w;
      expect(r.status, JSON.stringify(r.body)).toBe(409);
      expect(r.body).toMatchObject({ success: false, code: 'BILANZ_GESCHLOSSEN', message: `Die Bilanz ${id} ist abgeschlossen und kann nicht mehr geändert werden.` });
    }
    expect(await stand(id)).toEqual(vorher);

    // A POC is locked on its own page and in the API.
    const pocNr = nb[0].nr as string;
    const pocPut = await api().put(`/api/nachweisbescheinigungen/${pocNr}`).set(admin).send({ nachweisNr: nb[0].nachweis_nr, volumen: nb[0].volumen, lieferdatum: '2026-01-26' });
    expect(pocPut.status).toBe(409);
  });
});

describe('one open Bilanz, periods that never overlap', () => {
  it('refuses a second open Bilanz for the location and product with the spec\'s message, and an overlapping period after closing', async () => {
    const s = await schauplatz();
    const first = await anlegen(s.standortNr);
    expect(first.status).toBe(201);
    const second = await anlegen(s.standortNr, { zeitraumVon: '2026-04-01', zeitraumBis: '2026-06-30' });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: 'BILANZ_OFFEN', message: 'Eine neue Verteilung kann nicht angelegt werden, solange eine offene Verteilung für diesen Standort und dieses Produkt besteht.' });
    const en = await anlegen(s.standortNr, { zeitraumVon: '2026-04-01', zeitraumBis: '2026-06-30' }, { ...admin, 'Accept-Language': 'en' });
    expect(en.body.message).toBe('A new balance cannot be created while an open balance exists for this location and product.');
    // Another product at the same location is another Bilanz.
    expect((await anlegen(s.standortNr, { produktNr: 'P016' })).status).toBe(201);

    const id = first.body.data.id;
    await api().post(`/api/bilanzen/${id}/verteilung`).set(admin).send({});
    expect((await api().post(`/api/bilanzen/${id}/abschluss`).set(admin).send({})).status).toBe(201);
    const overlap = await anlegen(s.standortNr, { zeitraumVon: '2026-03-15', zeitraumBis: '2026-05-31' });
    expect(overlap.status).toBe(409);
    expect(overlap.body).toMatchObject({ code: 'ZEITRAUM_UEBERSCHNEIDUNG', errors: [{ field: 'zeitraumVon' }] });
    expect(overlap.body.message).toContain(`Bilanz ${id}`);
    const next = await anlegen(s.standortNr, { zeitraumVon: '2026-04-01', zeitraumBis: '2026-06-30' });
    expect(next.status).toBe(201);
    expect(await t.db.knex('bilanzen').where({ mandant: 'DEMO', standort_nr: s.standortNr, produkt_nr: 'P013' }).count({ c: '*' })).toEqual([{ c: expect.anything() }]);
  });

  it('lets only one of two concurrent creates through', async () => {
    const s = await schauplatz();
    const [a, b] = await Promise.all([anlegen(s.standortNr), anlegen(s.standortNr, { zeitraumVon: '2026-02-01', zeitraumBis: '2026-04-30' })]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    expect(Number((await t.db.knex('bilanzen').where({ mandant: 'DEMO', standort_nr: s.standortNr }).count({ c: '*' }))[0].c)).toBe(1);
  });

  it('holds the rules in the database itself: no overlap, at most 3 months, one open per location and product', async () => {
    const s = await schauplatz();
    const row = (id: number, von: string, bis: string, status = 'geschlossen') => ({ mandant: 'DEMO', id: 900_000 + s.n * 10 + id, standort_nr: s.standortNr, produkt_nr: 'P013', zeitraum_von: von, zeitraum_bis: bis, status });
    const trx = await t.db.knex.transaction();
    try {
      await setTenant(trx, 'DEMO');
      // Each refused insert in a savepoint of its own, so the transaction goes on.
      const refused = async (r: Record<string, unknown>, constraint: RegExp) => {
        await trx.raw('savepoint probe');
        await expect(trx('bilanzen').insert(r)).rejects.toThrow(constraint);
        await trx.raw('rollback to savepoint probe');
      };
      await trx('bilanzen').insert(row(1, '2026-01-01', '2026-03-31'));
      await refused(row(2, '2026-03-01', '2026-04-30'), /bilanzen_zeitraum_ueberschneidung/);
      await refused(row(3, '2026-04-01', '2026-07-01'), /bilanzen_zeitraum_chk/);
      await trx('bilanzen').insert(row(4, '2026-04-01', '2026-06-30', 'offen'));
      await refused(row(5, '2026-07-01', '2026-09-30', 'offen'), /bilanzen_offen_uq/);
      expect(await trx('bilanzen').where({ mandant: 'DEMO', standort_nr: s.standortNr }).orderBy('id').pluck('zeitraum_von')).toEqual(['2026-01-01', '2026-04-01']);
    } finally {
      await trx.rollback();
    }
    expect(await t.db.knex('bilanzen').where({ mandant: 'DEMO', standort_nr: s.standortNr }).first()).toBeUndefined();
  });
});

describe('bad input changes nothing', () => {
  it('refuses periods over 3 months, an end before the start, unknown locations and products, with the field named, in both languages', async () => {
    const s = await schauplatz();
    const vorher = Number((await t.db.knex('bilanzen').where({ mandant: 'DEMO' }).count({ c: '*' }))[0].c);
    const lang = await anlegen(s.standortNr, { zeitraumVon: '2026-01-01', zeitraumBis: '2026-04-01' });
    expect(lang.status).toBe(400);
    expect(lang.body).toMatchObject({ message: 'Ein Bilanzzeitraum umfasst höchstens 3 Monate.', errors: [{ field: 'zeitraumBis' }] });
    const langEn = await anlegen(s.standortNr, { zeitraumVon: '2026-01-01', zeitraumBis: '2026-04-01' }, { ...admin, 'Accept-Language': 'en' });
    expect(langEn.body.message).toBe('A balance period spans at most 3 months.');
    expect((await anlegen(s.standortNr, { zeitraumVon: '2026-03-01', zeitraumBis: '2026-02-01' })).body.errors).toEqual([expect.objectContaining({ field: 'zeitraumBis', message: 'Das Ende des Zeitraums liegt vor seinem Beginn.' })]);
    expect((await anlegen('GIBT-ES-NICHT')).body.errors).toEqual([expect.objectContaining({ field: 'standortNr' })]);
    expect((await anlegen(s.standortNr, { produktNr: 'NIX' })).body.errors).toEqual([expect.objectContaining({ field: 'produktNr' })]);
    expect((await anlegen(s.standortNr, { zeitraumVon: 'gestern' })).body.errors).toEqual([expect.objectContaining({ field: 'zeitraumVon' })]);
    expect(Number((await t.db.knex('bilanzen').where({ mandant: 'DEMO' }).count({ c: '*' }))[0].c)).toBe(vorher);
  });

  it('refuses a position with neither bio quantity nor bio content, negative or absurd quantities, and a split larger than the position', async () => {
    const s = await schauplatz();
    const id = (await anlegen(s.standortNr)).body.data.id;
    const vorher = await stand(id);
    const ohne = await api().post(`/api/bilanzen/${id}/positionen`).set(admin).send({ partnerNr: s.tp1, prioritaet: 3 });
    expect(ohne.status).toBe(400);
    expect(ohne.body.errors).toEqual([
      { field: 'biogehalt', message: 'Bitte geben Sie eine gültige Bio-Menge und/oder einen Biogehalt an.' },
      { field: 'bioMenge', message: 'Bitte geben Sie eine gültige Bio-Menge und/oder einen Biogehalt an.' },
    ]);
    const ohneEn = await api().put(`/api/bilanzen/${id}/positionen/1`).set(admin).set('Accept-Language', 'en').send({ prioritaet: 1 });
    expect(ohneEn.body.errors[0].message).toBe('Please enter a valid bio quantity and/or bio content.');
    expect((await api().post(`/api/bilanzen/${id}/positionen`).set(admin).send({ partnerNr: s.tp1, prioritaet: 3, bioMenge: '-5' })).body.errors).toEqual([expect.objectContaining({ field: 'bioMenge' })]);
    expect((await api().post(`/api/bilanzen/${id}/positionen`).set(admin).send({ partnerNr: s.tp1, prioritaet: 3, bioMenge: '1e30' })).status).toBe(400);
    expect((await api().post(`/api/bilanzen/${id}/positionen`).set(admin).send({ partnerNr: s.tp1, prioritaet: 3, biogehalt: '101' })).body.errors).toEqual([expect.objectContaining({ field: 'biogehalt' })]);
    expect((await api().post(`/api/bilanzen/${id}/positionen`).set(admin).send({ bioMenge: '5' })).body.errors.map((e: { field: string }) => e.field)).toEqual(['partnerNr', 'prioritaet']);
    const gross = await api().post(`/api/bilanzen/${id}/positionen/2/teilung`).set(admin).send({ teile: [{ bioMenge: '6000' }, { bioMenge: '3000' }] });
    expect(gross.status).toBe(409);
    expect(gross.body.message).toBe('Die Teilung ist größer als die Position: zusammen 9000 L, die Position hält 8000 L.');
    expect((await api().post(`/api/bilanzen/${id}/positionen/2/teilung`).set(admin).send({ teile: [{ bioMenge: '1000' }] })).status).toBe(400);
    expect((await api().post(`/api/bilanzen/${id}/positionen/9/teilung`).set(admin).send({ teile: [{ bioMenge: '1' }, { bioMenge: '1' }] })).status).toBe(404);
    expect((await api().post(`/api/bilanzen/${id}/verteilung?vorschau=vielleicht`).set(admin).send({})).status).toBe(400);
    expect(await stand(id)).toEqual(vorher);
  });
});

describe('reset, split, closing one position, stale versions', () => {
  it('resets to the state before allocation', async () => {
    const s = await beispiel();
    const id = (await anlegen(s.standortNr)).body.data.id;
    const vorher = (await api().get(`/api/bilanzen/${id}`).set(admin)).body.data;
    await api().post(`/api/bilanzen/${id}/verteilung`).set(admin).send({});
    expect(await zeilenIn(id)).toBe(6);
    const res = await api().post(`/api/bilanzen/${id}/zuruecksetzen`).set(admin).send({});
    expect(res.status).toBe(200);
    expect(await zeilenIn(id)).toBe(0);
    const { version: v1, ...a } = vorher;
    const { version: v2, ...b } = res.body.data;
    expect(b).toEqual(a);
    expect(v2).toBe(v1 + 2);
  });

  it('splits a position into two of the same partner whose quantities add up, and allocates them by their priorities', async () => {
    const s = await beispiel();
    const id = (await anlegen(s.standortNr)).body.data.id;
    const res = await api().post(`/api/bilanzen/${id}/positionen/2/teilung`).set(admin).send({ teile: [{ bioMenge: '5000' }, { bioMenge: '3000', prioritaet: 3 }] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.positionen.map((p: Record<string, unknown>) => [p.id, p.partnerNr, p.prioritaet, p.bioMenge])).toEqual([
      [1, s.tp1, 1, null], [2, s.tp2, 2, '5000'], [3, s.tp2, 3, '3000'],
    ]);
    const v = await api().post(`/api/bilanzen/${id}/verteilung`).set(admin).send({});
    // Same 8,000 L for TP2 in all, now as 5,000 L at priority 2 and 3,000 L at priority 3.
    expect(v.body.data).toMatchObject({ zugeordnet: '38000', restBioMenge: '7000' });
    const byPos = (pid: number) => v.body.data.zuordnungen.filter((z: { positionId: number }) => z.positionId === pid).reduce((sum: number, z: { menge: string }) => sum + Number(z.menge), 0);
    expect([byPos(1), byPos(2), byPos(3)]).toEqual([30000, 5000, 3000]);
    const uneven = await api().post(`/api/bilanzen/${id}/positionen/2/teilung`).set(admin).send({ teile: [{ bioMenge: '1000' }, { bioMenge: '1000' }] });
    expect(uneven.status).toBe(400);
    expect(uneven.body.message).toBe('Die Teile ergeben zusammen 2000 L, die Position hält aber 5000 L.');
  });

  it('closes one position into its POCs and keeps the rest of the Bilanz open; its lines stay when allocating again', async () => {
    const s = await beispiel();
    const id = (await anlegen(s.standortNr)).body.data.id;
    expect((await api().post(`/api/bilanzen/${id}/positionen/1/abschluss`).set(admin).send({})).body.code).toBe('NICHT_VERTEILT');
    await api().post(`/api/bilanzen/${id}/verteilung`).set(admin).send({});
    const vorschau = await api().post(`/api/bilanzen/${id}/positionen/1/abschluss?vorschau=1`).set(admin).send({});
    expect(vorschau.body.data.nachweisbescheinigungen.map((p: Record<string, unknown>) => [p.ablieferungNr, p.nachweisNr, p.volumen])).toEqual([
      [s.A(2), s.N(1), '18000'], [s.A(3), s.N(1), '2000'], [s.A(3), s.N(2), '10000'],
    ]);
    const res = await api().post(`/api/bilanzen/${id}/positionen/1/abschluss`).set(admin).send({});
    expect(res.status).toBe(201);
    const { b, p, nb } = await stand(id);
    expect(b.status).toBe('offen');
    expect(p.map((x: Record<string, unknown>) => x.status)).toEqual(['geschlossen', 'offen']);
    expect(nb.map((x: Record<string, unknown>) => x.ablieferung_nr)).toEqual([s.A(2), s.A(3), s.A(3)]);
    expect((await api().put(`/api/bilanzen/${id}/positionen/1`).set(admin).send({ prioritaet: 5, biogehalt: '50' })).body.code).toBe('POSITION_GESCHLOSSEN');
    expect((await api().put(`/api/bilanzen/${id}`).set(admin).send({ zeitraumVon: '2026-01-01', zeitraumBis: '2026-02-28' })).status).toBe(409);
    const again = await api().post(`/api/bilanzen/${id}/verteilung`).set(admin).send({});
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ zugeordnet: '38000', restBioMenge: '7000', bioMenge: '45000', thgMinderungT: '99.3894' });
    expect(again.body.data.zuordnungen.map((z: Record<string, unknown>) => [z.ablieferungNr, z.menge, z.nachweisbescheinigungNr === null])).toEqual([
      [s.A(2), '18000', false], [s.A(3), '2000', false], [s.A(3), '10000', false],
      [s.A(1), '5000', true], [s.A(1), '1000', true], [s.A(4), '2000', true],
    ]);
    expect((await api().delete(`/api/bilanzen/${id}`).set(admin)).body.code).toBe('POSITION_GESCHLOSSEN');
    expect((await api().post(`/api/bilanzen/${id}/abschluss`).set(admin).send({})).status).toBe(201);
    expect((await stand(id)).nb).toHaveLength(6);
  });

  it('refuses a change based on a version someone else has changed since (409), nothing changed', async () => {
    const s = await schauplatz();
    const created = (await anlegen(s.standortNr)).body.data;
    expect((await api().put(`/api/bilanzen/${created.id}/positionen/1`).set(admin).send({ prioritaet: 4, biogehalt: '90', version: created.version })).status).toBe(200);
    const vorher = await stand(created.id);
    for (const r of [
      await api().post(`/api/bilanzen/${created.id}/verteilung`).set(admin).send({ version: created.version }),
      await api().put(`/api/bilanzen/${created.id}/positionen/1`).set(admin).send({ prioritaet: 5, biogehalt: '90', version: created.version }),
      await api().post(`/api/bilanzen/${created.id}/zuruecksetzen`).set(admin).set('If-Match', `"${created.version}"`).send({}),
    ]) {
      expect(r.status).toBe(409);
      expect(r.body.code).toBe('VERSION_CONFLICT');
    }
    expect(await stand(created.id)).toEqual(vorher);
  });
});

describe('who sees and changes what', () => {
  it('keeps another tenant\'s and another location\'s Bilanzen out of sight and untouched', async () => {
    const s = await beispiel();
    const id = (await anlegen(s.standortNr)).body.data.id;
    // NORD has no such Bilanz: 404, whatever the id.
    expect((await api().get(`/api/bilanzen/${id}`).set(nord)).status).toBe(404);
    expect((await api().post(`/api/bilanzen/${id}/verteilung`).set(nord).send({})).status).toBe(404);
    expect((await api().get('/api/bilanzen').set(nord)).body.data.some((b: { standortNr: string }) => b.standortNr === s.standortNr)).toBe(false);
    // A user with the Bilanz right at 1001 only does not see one at another location.
    await createUserWithRoles(t.db.knex, `BL${s.n}`, 'Bilanz12345', [{ typ: 24, standortNr: '1001' }]);
    const lokal = await as(`BL${s.n}`, 'Bilanz12345');
    expect((await api().get(`/api/bilanzen/${id}`).set(lokal)).status).toBe(404);
    expect((await api().post(`/api/bilanzen/${id}/verteilung`).set(lokal).send({})).status).toBe(404);
    expect((await anlegen(s.standortNr, { produktNr: 'P016' }, lokal)).body.errors).toEqual([expect.objectContaining({ field: 'standortNr' })]);
    expect((await api().get('/api/bilanzen').set(lokal)).body.data.every((b: { standortNr: string }) => b.standortNr === '1001')).toBe(true);
    // Read right only (23): reads, may not change.
    await createUserWithRoles(t.db.knex, `BR${s.n}`, 'Bilanz12345', [{ typ: 23, standortNr: null }]);
    const leser = await as(`BR${s.n}`, 'Bilanz12345');
    expect((await api().get(`/api/bilanzen/${id}`).set(leser)).status).toBe(200);
    expect((await api().post(`/api/bilanzen/${id}/verteilung`).set(leser).send({})).status).toBe(403);
    expect(await zeilenIn(id)).toBe(0);
  });
});

describe('the page, without JavaScript', () => {
  it('creates, allocates, previews the close and closes through plain forms', async () => {
    const s = await beispiel();
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const neu = await agent.get('/de/bewegungsdaten/bilanzen/neu');
    expect(neu.status).toBe(200);
    const created = await agent.post('/de/bewegungsdaten/bilanzen').type('form').send({ _csrf: csrfFrom(neu.text), standortNr: s.standortNr, produktNr: 'P013', zeitraumVon: '01.01.2026', zeitraumBis: '31.03.2026' });
    expect(created.status).toBe(302);
    const hier = created.headers.location as string;
    expect(hier).toMatch(/^\/de\/bewegungsdaten\/bilanzen\/\d+$/);
    let page = await agent.get(hier);
    expect(page.text).toContain('Die Bilanz wurde angelegt.');
    expect(page.text).toContain('Nicht verteilt');
    expect(page.text).toContain('45.000');
    const verteilt = await agent.post(`${hier}/verteilung`).type('form').send({ _csrf: csrfFrom(page.text) });
    expect(verteilt.headers.location).toBe(hier);
    page = await agent.get(hier);
    expect(page.text).toContain('Die Bilanz wurde verteilt.');
    expect(page.text).toContain(`Zertifikat ${s.N(1)} ist das älteste mit Rest 20.000 L`);
    expect(page.text).toContain('38.000');
    // A refused change: the page again, the problem at its form.
    const refused = await agent.post(`${hier}/positionen`).type('form').send({ _csrf: csrfFrom(page.text), partnerNr: s.tp1, prioritaet: '' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Bitte geben Sie eine gültige Bio-Menge und/oder einen Biogehalt an.');
    const preview = await agent.get(`${hier}/abschluss`);
    expect(preview.status).toBe(200);
    expect(preview.text).toContain('Beim Abschließen entstehen diese 6 POCs');
    expect((await stand(Number(hier.split('/').pop()))).nb).toEqual([]);
    const closed = await agent.post(`${hier}/abschluss`).type('form').send({ _csrf: csrfFrom(preview.text) });
    expect(closed.headers.location).toBe(hier);
    page = await agent.get(hier);
    expect(page.text).toContain('Die Bilanz wurde abgeschlossen; ihre POCs wurden ausgestellt.');
    expect(page.text).not.toContain(`action="${hier}/verteilung"`);
    expect((await stand(Number(hier.split('/').pop()))).nb).toHaveLength(6);
    const list = await agent.get('/de/bewegungsdaten/bilanzen');
    expect(list.status).toBe(200);
    expect(list.text).toContain(`href="${hier}"`);
  });

  it('asks before deleting a position or the Bilanz: the first post and cancelling change nothing, the confirmed post deletes', async () => {
    const s = await beispiel();
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const id = (await anlegen(s.standortNr)).body.data.id;
    const hier = `/de/bewegungsdaten/bilanzen/${id}`;
    const page = await agent.get(hier);
    const vorher = await stand(id);
    expect(vorher.p).toHaveLength(2);

    const fragePosition = await agent.post(`${hier}/positionen/2/loeschen`).type('form').send({ _csrf: csrfFrom(page.text), version: String(vorher.b.version) });
    expect(fragePosition.status).toBe(200);
    expect(fragePosition.text).toContain(`Position 2 der Bilanz ${id} löschen?`);
    expect(fragePosition.text).toContain(`Die Position 2 für ${s.tp2}`);
    expect(fragePosition.text).toContain('name="bestaetigt" value="ja"');
    expect(fragePosition.text).toContain(`href="${hier}#positionen-heading"`);
    expect(await stand(id)).toEqual(vorher);
    // Cancelling is the link back to the Bilanz: it shows the page and changes nothing.
    expect((await agent.get(hier)).status).toBe(200);
    expect(await stand(id)).toEqual(vorher);
    const positionWeg = await agent.post(`${hier}/positionen/2/loeschen`).type('form').send({ _csrf: csrfFrom(fragePosition.text), version: String(vorher.b.version), bestaetigt: 'ja' });
    expect(positionWeg.status).toBe(302);
    const danach = await stand(id);
    expect(danach.p.map((x: Record<string, unknown>) => x.id)).toEqual([1]);

    const frage = await agent.post(`${hier}/loeschen`).type('form').send({ _csrf: csrfFrom(page.text), version: String(danach.b.version) });
    expect(frage.status).toBe(200);
    expect(frage.text).toContain(`Bilanz ${id} löschen?`);
    expect(frage.text).toContain(`wird mit ihrer Position und deren Zuordnungen gelöscht`);
    expect(frage.text).toContain(`href="${hier}"`);
    expect(await stand(id)).toEqual(danach);
    const geloescht = await agent.post(`${hier}/loeschen`).type('form').send({ _csrf: csrfFrom(frage.text), version: String(danach.b.version), bestaetigt: 'ja' });
    expect(geloescht.status).toBe(302);
    expect(geloescht.headers.location).toBe('/de/bewegungsdaten/bilanzen');
    expect(await t.db.knex('bilanzen').where({ mandant: 'DEMO', id }).first()).toBeUndefined();
  });

  it('splits a position through its form, and refuses a part as large as the position', async () => {
    const s = await beispiel();
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const id = (await anlegen(s.standortNr)).body.data.id;
    const form = await agent.get(`/de/bewegungsdaten/bilanzen/${id}/positionen/2/teilung`);
    expect(form.status).toBe(200);
    expect(form.text).toContain('8.000');
    const zuGross = await agent.post(`/de/bewegungsdaten/bilanzen/${id}/positionen/2/teilung`).type('form').send({ _csrf: csrfFrom(form.text), bioMenge: '8000' });
    expect(zuGross.status).toBe(400);
    expect(zuGross.text).toContain('Die neue Position muss kleiner sein als die bisherige');
    const ok = await agent.post(`/de/bewegungsdaten/bilanzen/${id}/positionen/2/teilung`).type('form').send({ _csrf: csrfFrom(form.text), bioMenge: '2500,5', prioritaet: '4' });
    expect(ok.status).toBe(302);
    expect((await stand(id)).p.map((x: Record<string, unknown>) => [x.partner_nr, x.prioritaet, x.bio_menge])).toEqual([[s.tp1, 1, null], [s.tp2, 2, '5499.500'], [s.tp2, 4, '2500.500']]);
  });
});
