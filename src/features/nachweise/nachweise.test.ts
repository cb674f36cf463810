import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zertifikatEingabe } from '../../testing/factories.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { csrfFrom, signIn } from '../../testing/session.js';
import { createUserWithRoles } from '../../testing/users.js';

let t: TestApp;
let zert: Record<string, string>;
let lager: Record<string, string>;
let nord: Record<string, string>;

const token = async (login: string, password: string) => (await request(t.app).post('/api/v1/account/login').send({ login, password })).body.token as string;
const as = async (login: string, password: string, mandant = 'DEMO') => ({ Authorization: await token(login, password), 'X-Mandant': mandant });

beforeAll(async () => {
  t = await createTestApp();
  // Certificates (22) and proofs (15): one user at every location, one at Hamburg (1001) only.
  await createUserWithRoles(t.db.knex, 'ZERT', 'Zertifikat12345', [{ typ: 22, standortNr: null }, { typ: 15, standortNr: null }]);
  await createUserWithRoles(t.db.knex, 'ZLAGER', 'Zertifikat12345', [{ typ: 22, standortNr: '1001' }, { typ: 15, standortNr: '1001' }]);
  zert = await as('ZERT', 'Zertifikat12345');
  lager = await as('ZLAGER', 'Zertifikat12345');
  nord = await as('ADMIN', 'Admin12345', 'NORD');
});
afterAll(() => t.close());

let seq = 0;
/** A valid certificate: 10,000 L of FAME from used cooking oil, E = 10 from its parts (the worked example). */
const zertifikat = (over: Record<string, unknown> = {}) => zertifikatEingabe({ nr: `T-ZERT-${++seq}`, ...over });
const count = async (mandant = 'DEMO') => Number((await t.db.knex('nachweise').where({ mandant }).count({ c: '*' }))[0].c);
const post = (body: Record<string, unknown>, auth = zert) => request(t.app).post('/api/nachweise').set(auth).send(body);

describe('Nachweise (certificates) and their figures', () => {
  it('computes the worked example through the API: 10,000 L FAME, E 10 → S 89.36 %, 330,000 MJ, 27.753 t', async () => {
    const res = await post(zertifikat({ nr: 'T-WORKED' }));
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ nr: 'T-WORKED', produktgruppe: 'biodiesel', thg: '10.00', einsparung: '89.36', schwelle: '60.00', mengeVerbleibend: '10000.000', hinweise: [] });
    expect(Number(res.body.data.energiegehalt)).toBe(330000);
    expect(Number(res.body.data.thgMinderungT)).toBe(27.753);
    // The same figures without parts, from the total default value alone.
    const total = await post(zertifikat({ eec: '', el: '', ep: '', etd: '', eu: '', esca: '', eccs: '', eccr: '', gesamtStandardwert: '10' }));
    expect(total.body.data).toMatchObject({ thg: '10.00', einsparung: '89.36' });
    // The page shows the figures and how each was computed.
    const agent = await signIn(t.app, 'ZERT', 'Zertifikat12345', 'DEMO');
    const page = await agent.get('/de/bewegungsdaten/nachweise/T-WORKED');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Berechnete Werte');
    expect(page.text).toContain('S = (94 − 10,00) / 94 × 100 = 89,36 %');
    expect(page.text).toContain('= 330.000 × (94,1 − 10,00) / 1.000.000 = 27,753 t');
    expect(page.text).toContain('Anlage in Betrieb seit 01.05.2019: Mindesteinsparung 60 %.');
  });

  it.each([
    ['2015-10-05', '50.00'],
    ['2015-10-06', '60.00'],
    ['2020-12-31', '60.00'],
    ['2021-01-01', '65.00'],
  ])('applies the threshold of a plant in operation since %s: %s %%', async (anlage, schwelle) => {
    const res = await post(zertifikat({ anlageInbetriebnahme: anlage }));
    expect(res.status).toBe(201);
    expect(res.body.data.schwelle).toBe(schwelle);
  });

  it('passes a saving exactly at the threshold (E 32.90 → 65.00 %) and refuses 64.99 % unless marked not sustainable', async () => {
    const parts = { eec: '', el: '', ep: '', etd: '', eu: '', esca: '', eccs: '', eccr: '', anlageInbetriebnahme: '2022-01-01' };
    const at = await post(zertifikat({ ...parts, gesamtStandardwert: '32.90' }));
    expect(at.status).toBe(201);
    expect(at.body.data).toMatchObject({ einsparung: '65.00', schwelle: '65.00' });
    const before = await count();
    const below = await post(zertifikat({ ...parts, gesamtStandardwert: '32.91' }));
    expect(below.status).toBe(400);
    expect(below.body.errors).toContainEqual({ field: 'nachhaltig', message: expect.stringContaining('64,99') });
    expect(await count()).toBe(before);
    const marked = await post(zertifikat({ ...parts, gesamtStandardwert: '32.91', nachhaltig: false }));
    expect(marked.status).toBe(201);
    expect(marked.body.data).toMatchObject({ einsparung: '64.99', nachhaltig: false });
  });

  it('requires the plant start on manual entry and the API', async () => {
    const before = await count();
    const res = await post(zertifikat({ anlageInbetriebnahme: '' }));
    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual({ field: 'anlageInbetriebnahme', message: expect.any(String) });
    expect(await count()).toBe(before);
  });

  it('refuses bad input with an error naming the field, in German and English, storing nothing', async () => {
    const before = await count();
    const cases: [Record<string, unknown>, string][] = [
      [{ ep: 'viel' }, 'ep'],
      [{ ep: '250', gesamtStandardwert: '' }, 'ep'],
      [{ menge: '-5' }, 'menge'],
      [{ lieferungVon: '2026-02-20', lieferungBis: '2026-02-10' }, 'lieferungBis'],
      [{ zertifizierungssystem: 'Erfundenes System' }, 'zertifizierungssystem'],
      [{ herkunftsland: 'XY' }, 'herkunftsland'],
      [{ herkunftsland: '' }, 'herkunftsland'],
      [{ rohstoff: 'zuckerruebe' }, 'rohstoff'],
      [{ lieferungVon: '2025-12-20' }, 'lieferungVon'],
      [{ etd: '0', gesamtStandardwert: '6.5' }, 'etd'],
      [{ eec: '', el: '', ep: '', etd: '', eu: '', esca: '', eccs: '', eccr: '', gesamtStandardwert: '' }, 'gesamtStandardwert'],
      // Older than the checks allow (and than the first law value): a field error, not a failed request.
      [{ ausstellungsdatum: '2005-01-01', zeitraumVon: '2005-01-01', zeitraumBis: '2005-03-31', lieferungVon: '2005-02-01', lieferungBis: '2005-02-15' }, 'ausstellungsdatum'],
    ];
    for (const [over, field] of cases) {
      const res = await post(zertifikat(over));
      expect(res.status, JSON.stringify(over)).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field), JSON.stringify(over)).toContain(field);
    }
    const en = await request(t.app).post('/api/nachweise').set({ ...zert, 'Accept-Language': 'en' }).send(zertifikat({ rohstoff: 'zuckerruebe' }));
    expect(en.body.errors.find((e: { field: string }) => e.field === 'rohstoff').message).toMatch(/[a-z]/);
    expect(en.body.errors.find((e: { field: string }) => e.field === 'rohstoff').message).not.toBe(
      (await post(zertifikat({ rohstoff: 'zuckerruebe' }))).body.errors.find((e: { field: string }) => e.field === 'rohstoff').message,
    );
    expect(await count()).toBe(before);
  });

  it('keeps warnings with the certificate, shows them on the page and in the list filter "mit Hinweisen"', async () => {
    // Eec for a waste, and a total that differs from the parts by more than 0.1 g.
    const res = await post(zertifikat({ nr: 'T-HINWEIS', eec: '1', gesamtStandardwert: '10' }));
    expect(res.status).toBe(201);
    expect(res.body.data.hinweise.map((h: { code: string }) => h.code).sort()).toEqual(['EEC_BEI_ABFALL', 'SUMME_WEICHT_AB']);
    const list = await request(t.app).get('/api/nachweise?mitHinweisen=true&pageSize=500').set(zert);
    expect(list.body.data.map((n: { nr: string }) => n.nr)).toContain('T-HINWEIS');
    expect(list.body.data.every((n: { hinweise: unknown[] }) => n.hinweise.length > 0)).toBe(true);
    const ohne = await request(t.app).get('/api/nachweise?mitHinweisen=false&pageSize=500').set(zert);
    expect(ohne.body.data.map((n: { nr: string }) => n.nr)).not.toContain('T-HINWEIS');
    const agent = await signIn(t.app, 'ZERT', 'Zertifikat12345', 'DEMO');
    const page = await agent.get('/de/bewegungsdaten/nachweise?mitHinweisen=true');
    expect(page.text).toContain('T-HINWEIS');
    expect(page.text).toContain('Mit Hinweisen');
    const detail = await agent.get('/de/bewegungsdaten/nachweise/T-HINWEIS');
    expect(detail.text).toContain('alert-warning');
  });

  it('ignores computed fields sent in a body', async () => {
    const res = await post(zertifikat({ nr: 'T-COMPUTED', thg: '1', einsparung: '99', mengeVerbleibend: '1', hinweise: [{ code: 'X' }] }));
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ thg: '10.00', einsparung: '89.36', mengeVerbleibend: '10000.000', hinweise: [] });
  });

  it('keeps the figures of a certificate saved before a law value changes; a later one uses the new value', async () => {
    const old = await post(zertifikat({ nr: 'T-ALT', ausstellungsdatum: '2026-03-02' }));
    expect(old.body.data.einsparung).toBe('89.36');
    // A new comparator valid from 2026-04-01 (as a system administrator would enter it).
    const admin = await as('ADMIN', 'Admin12345');
    const added = await request(t.app).post('/api/gesetzeswerte').set(admin).send({ art: 'fossiler_vergleichswert', gueltigAb: '2026-04-01', wert: '90', kommentar: 'Test' });
    expect(added.status).toBe(201);
    const neu = await post(zertifikat({ nr: 'T-NEU', ausstellungsdatum: '2026-04-15', zeitraumBis: '2026-04-30', lieferungBis: '2026-04-10' }));
    expect(neu.status).toBe(201);
    expect(neu.body.data).toMatchObject({ vergleichswert: '90.000', einsparung: '88.89' });
    expect((await request(t.app).get('/api/nachweise/T-ALT').set(zert)).body.data).toMatchObject({ vergleichswert: '94.000', einsparung: '89.36' });
    // Saving the old certificate again keeps its date, so its law values.
    const resaved = await request(t.app).put('/api/nachweise/T-ALT').set(zert).send({ ...zertifikat({ nr: undefined }), zusatzinfo: 'geprüft', version: 1 });
    expect(resaved.body.data).toMatchObject({ vergleichswert: '94.000', einsparung: '89.36', version: 2 });
  });
});

describe('Teilung (split)', () => {
  it('splits 10,000 L into 4,000 and 1,000: the parent keeps 5,000, each part its own number and the same E', async () => {
    await post(zertifikat({ nr: 'T-SPLIT' }));
    const res = await request(t.app).post('/api/nachweise/T-SPLIT/teilung').set(zert).send({ teile: [{ menge: '4000' }, { menge: '1000' }] });
    expect(res.status).toBe(201);
    expect(res.body.data).toHaveLength(2);
    for (const [i, menge] of ['4000.000', '1000.000'].entries()) {
      expect(res.body.data[i]).toMatchObject({ menge, mengeVerbleibend: menge, referenzNachweisNr: 'T-SPLIT', thg: '10.00', einsparung: '89.36', rohstoff: 'altspeiseoel', herkunftsland: 'DE' });
      expect(res.body.data[i].nr).toMatch(/^TN-\d+$/);
    }
    expect(Number(res.body.data[0].thgMinderungT)).toBe(11.1012);
    const parent = (await request(t.app).get('/api/nachweise/T-SPLIT').set(zert)).body.data;
    expect(parent.mengeVerbleibend).toBe('5000.000');
    // The chain shows in both directions.
    const agent = await signIn(t.app, 'ZERT', 'Zertifikat12345', 'DEMO');
    const tab = await agent.get('/de/bewegungsdaten/nachweise/T-SPLIT?tab=teilung');
    expect(tab.text).toContain(res.body.data[0].nr);
    const partTab = await agent.get(`/de/bewegungsdaten/nachweise/${res.body.data[0].nr}?tab=teilung`);
    expect(partTab.text).toContain('href="/de/bewegungsdaten/nachweise/T-SPLIT?tab=teilung"');
    // A used certificate keeps its characteristics.
    const edit = await request(t.app).put('/api/nachweise/T-SPLIT').set(zert).send({ ...zertifikat({ nr: undefined }), ep: '7', version: parent.version });
    expect(edit.status).toBe(409);
  });

  it('refuses a split larger than what remains (409), changing nothing', async () => {
    await post(zertifikat({ nr: 'T-SPLIT-2' }));
    const before = await count();
    const res = await request(t.app).post('/api/nachweise/T-SPLIT-2/teilung').set(zert).send({ teile: [{ menge: '6000' }, { menge: '4000.001' }] });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Die Teile ergeben zusammen 10000.001 L, es verbleiben aber nur 10000 L.');
    expect(await count()).toBe(before);
    const bad = await request(t.app).post('/api/nachweise/T-SPLIT-2/teilung').set(zert).send({ teile: [{ menge: '-1' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('teile.0.menge');
    expect((await request(t.app).get('/api/nachweise/T-SPLIT-2').set(zert)).body.data.mengeVerbleibend).toBe('10000.000');
  });

  it('lets only one of two concurrent splits that together exceed the rest win; the other gets 409', async () => {
    await post(zertifikat({ nr: 'T-RACE' }));
    const split = () => request(t.app).post('/api/nachweise/T-RACE/teilung').set(zert).send({ teile: [{ menge: '6000' }] });
    const results = await Promise.all([split(), split()]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect((await request(t.app).get('/api/nachweise/T-RACE').set(zert)).body.data.mengeVerbleibend).toBe('4000.000');
  });

  it('undoes a split while the part is unused, and refuses once it is used', async () => {
    await post(zertifikat({ nr: 'T-UNDO' }));
    const parts = (await request(t.app).post('/api/nachweise/T-UNDO/teilung').set(zert).send({ teile: [{ menge: '3000' }, { menge: '2000' }] })).body.data;
    const undo = await request(t.app).post(`/api/nachweise/${parts[0].nr}/rueckfuehrung`).set(zert).send({});
    expect(undo.status).toBe(200);
    expect(undo.body.data).toMatchObject({ storniert: true, mengeVerbleibend: '0.000' });
    expect((await request(t.app).get('/api/nachweise/T-UNDO').set(zert)).body.data.mengeVerbleibend).toBe('8000.000');
    // The second part is split further: it is used, so its split cannot be undone.
    expect((await request(t.app).post(`/api/nachweise/${parts[1].nr}/teilung`).set(zert).send({ teile: [{ menge: '500' }] })).status).toBe(201);
    const refused = await request(t.app).post(`/api/nachweise/${parts[1].nr}/rueckfuehrung`).set(zert).send({});
    expect(refused.status).toBe(409);
    expect((await request(t.app).get('/api/nachweise/T-UNDO').set(zert)).body.data.mengeVerbleibend).toBe('8000.000');
  });

  it('splits through the page without JavaScript and shows a refused split at its form', async () => {
    await post(zertifikat({ nr: 'T-PAGE' }));
    const agent = await signIn(t.app, 'ZERT', 'Zertifikat12345', 'DEMO');
    const tab = await agent.get('/de/bewegungsdaten/nachweise/T-PAGE?tab=teilung');
    expect(tab.text).toContain('Teil 1 (L)');
    const ok = await agent.post('/de/bewegungsdaten/nachweise/T-PAGE/teilung').type('form').send({ _csrf: csrfFrom(tab.text), menge1: '2500', menge2: '', menge3: '1500' });
    expect(ok.status).toBe(302);
    expect(ok.headers.location).toBe('/de/bewegungsdaten/nachweise/T-PAGE?tab=teilung');
    expect((await t.db.knex('nachweise').where({ mandant: 'DEMO', nr: 'T-PAGE' }).first()).menge_verbleibend).toBe('6000.000');
    const again = await agent.get(ok.headers.location);
    expect(again.text).toContain('Das Zertifikat wurde geteilt.');
    const tooMuch = await agent.post('/de/bewegungsdaten/nachweise/T-PAGE/teilung').type('form').send({ _csrf: csrfFrom(again.text), menge1: '7000' });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.text).toContain('es verbleiben aber nur 6000 L');
    expect(tooMuch.text).toContain('value="7000"');
  });
});

describe('The file of a certificate', () => {
  const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(200, 32), Buffer.from('\n%%EOF\n')]);

  it('stores a PDF under row-level security and downloads it as an attachment; replacing it is a new version', async () => {
    await post(zertifikat({ nr: 'T-DATEI' }));
    const put = await request(t.app).put('/api/nachweise/T-DATEI/datei').set(zert).attach('file', pdf, 'PoS Nord.pdf');
    expect(put.status).toBe(200);
    expect(put.body.data.datei).toMatchObject({ name: 'PoS Nord.pdf', type: 'application/pdf', size: pdf.length });
    expect(put.body.data.version).toBe(2);
    const get = await request(t.app).get('/api/nachweise/T-DATEI/datei').set(zert).buffer(true).parse((r, done) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => done(null, Buffer.concat(chunks)));
    });
    expect(get.status).toBe(200);
    expect(get.headers['content-disposition']).toMatch(/^attachment;/);
    expect(get.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(get.body as Buffer, pdf)).toBe(0);
    // Another tenant does not see it.
    expect((await request(t.app).get('/api/nachweise/T-DATEI/datei').set(nord)).status).toBe(404);
  });

  it('refuses a file that is not what its name says, and one over 10 MB', async () => {
    await post(zertifikat({ nr: 'T-DATEI-2' }));
    const fake = await request(t.app).put('/api/nachweise/T-DATEI-2/datei').set(zert).attach('file', Buffer.from('<html>not a pdf</html>'), 'zertifikat.pdf');
    expect(fake.status).toBe(400);
    expect(fake.body.errors[0].field).toBe('file');
    const big = await request(t.app).put('/api/nachweise/T-DATEI-2/datei').set(zert).attach('file', Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(11 * 1024 * 1024)]), 'gross.pdf');
    expect(big.status).toBe(413);
    expect(big.body.message).toMatch(/10 MB/);
    expect((await request(t.app).get('/api/nachweise/T-DATEI-2').set(zert)).body.data).toMatchObject({ datei: null, version: 1 });
  });
});

describe('Tenant and location scope', () => {
  it('never shows another tenant\'s certificate: 404 and nothing changed', async () => {
    const n = await request(t.app).post('/api/nachweise').set(nord).send(zertifikat({ nr: 'T-NORD', standortNr: '2001', produktNr: 'P013' }));
    expect(n.status).toBe(201);
    expect((await request(t.app).get('/api/nachweise/T-NORD').set(zert)).status).toBe(404);
    expect((await request(t.app).post('/api/nachweise/T-NORD/teilung').set(zert).send({ teile: [{ menge: '1' }] })).status).toBe(404);
    expect((await request(t.app).get('/api/nachweise?q=T-NORD').set(zert)).body.total).toBe(0);
    expect((await request(t.app).get('/api/nachweise/T-NORD').set(nord)).body.data.mengeVerbleibend).toBe('10000.000');
  });

  it('limits a user with one location to certificates there', async () => {
    await post(zertifikat({ nr: 'T-1002', standortNr: '1002' }));
    expect((await request(t.app).get('/api/nachweise/T-1002').set(lager)).status).toBe(404);
    const list = await request(t.app).get('/api/nachweise?pageSize=500').set(lager);
    expect(new Set(list.body.data.map((n: { standortNr: string }) => n.standortNr))).toEqual(new Set(['1001']));
    const create = await post(zertifikat({ standortNr: '1002' }), lager);
    expect(create.status).toBe(400);
    expect(create.body.errors[0].field).toBe('standortNr');
  });

  it('lets a reader read but not write (403)', async () => {
    const user = await as('USER', 'User12345');
    expect((await request(t.app).get('/api/nachweise/T-WORKED').set(user)).status).toBe(200);
    expect((await request(t.app).post('/api/nachweise').set(user).send(zertifikat())).status).toBe(403);
  });
});

describe('Nachweisbescheinigungen', () => {
  it('issues a proof from a certificate, taking its volume from the certificate in the same transaction', async () => {
    await post(zertifikat({ nr: 'T-NB' }));
    const res = await request(t.app).post('/api/nachweisbescheinigungen').set(zert).send({ nachweisNr: 'T-NB', volumen: '2500', lieferdatum: '2026-03-10' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ nachweisNr: 'T-NB', volumen: '2500.000', volumenVerbleibend: '2500.000', thgEmission: '10.00', rohstoff: 'altspeiseoel', anbauland: 'DE', zertifizierungssystem: 'ISCC EU', produktgruppe: 'biodiesel', attributAnnexIx: true });
    expect(res.body.data.nr).toMatch(/^NB-\d+$/);
    expect(Number(res.body.data.nnwEnergie)).toBe(82500);
    expect((await request(t.app).get('/api/nachweise/T-NB').set(zert)).body.data.mengeVerbleibend).toBe('7500.000');
    // More than remains: refused at the field, nothing taken.
    const tooMuch = await request(t.app).post('/api/nachweisbescheinigungen').set(zert).send({ nachweisNr: 'T-NB', volumen: '7500.001', lieferdatum: '2026-03-10' });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.errors).toEqual([{ field: 'volumen', message: 'Mehr als die verbleibende Menge des Zertifikats T-NB (7500.000 L).' }]);
    // Split and cancel: the cancelled proof gives its volume back.
    const nb = res.body.data.nr;
    const parts = await request(t.app).post(`/api/nachweisbescheinigungen/${nb}/teilung`).set(zert).send({ teile: [{ menge: '500' }] });
    expect(parts.status).toBe(201);
    expect(parts.body.data[0]).toMatchObject({ referenzNachweisNr: nb, volumen: '500.000', thgEmission: '10.00' });
    expect(Number(parts.body.data[0].nnwEnergie)).toBe(16500);
    expect((await request(t.app).post(`/api/nachweisbescheinigungen/${nb}/storno`).set(zert).send({})).status).toBe(409);
    expect((await request(t.app).post(`/api/nachweisbescheinigungen/${parts.body.data[0].nr}/rueckfuehrung`).set(zert).send({})).status).toBe(200);
    expect((await request(t.app).post(`/api/nachweisbescheinigungen/${nb}/storno`).set(zert).send({})).status).toBe(200);
    expect((await request(t.app).get('/api/nachweise/T-NB').set(zert)).body.data.mengeVerbleibend).toBe('10000.000');
  });

  it('shows the four tabs of the spec without JavaScript', async () => {
    await post(zertifikat({ nr: 'T-NB-TABS' }));
    const nb = (await request(t.app).post('/api/nachweisbescheinigungen').set(zert).send({ nachweisNr: 'T-NB-TABS', volumen: '100', lieferdatum: '2026-03-10' })).body.data.nr;
    const agent = await signIn(t.app, 'ZERT', 'Zertifikat12345', 'DEMO');
    const page = await agent.get(`/de/bewegungsdaten/nachweisbescheinigungen/${nb}`);
    expect(page.status).toBe(200);
    for (const label of ['Allgemein', 'Einlieferungen', 'Abholungen', 'Ablieferungen', 'Teilung', 'Versionen']) expect(page.text).toContain(label);
    expect(page.text).toContain('Merkmale aus dem Zertifikat');
    for (const tab of ['einlieferungen', 'abholungen', 'ablieferungen']) {
      const res = await agent.get(`/de/bewegungsdaten/nachweisbescheinigungen/${nb}?tab=${tab}`);
      expect(res.status).toBe(200);
      expect(res.text).toContain('aria-current="page"');
    }
    expect((await agent.get(`/de/bewegungsdaten/nachweisbescheinigungen/${nb}?tab=unbekannt`)).status).toBe(404);
  });
});
