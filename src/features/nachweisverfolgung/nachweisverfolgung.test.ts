// Nachweisverfolgung through HTTP against the real database: a chain built here (the collections and the links
// are rows of the shared schema, as the collections and assignment features will write them), traced backwards
// from an Ablieferung and forwards from an Einlieferung, on the page and in the API; the warning without
// certificates; a proof's chain-of-custody tabs; tenants, locations and rights.
//
// The chain (all at location 1001 unless said):
//   N-A  10,000 L, final, supplier "Ölmühle Nord GmbH" DE-ISCC-4711 ── split ──> TN 4,000 L (Teilnachweis)
//   N-B   5,000 L, provisional
//   AB-1 (15,000 L) carries TN and N-B, arrived as E-1 9,000 L and E-2 6,000 L (both completed)
//   AB-2 (10,000 L) carries N-A, arrived as E-3 10,000 L (still open)
//   A-1  10,000 L Biodiesel B30 (bio 3,000 L): NB-1 2,000 L from TN, NB-2 1,000 L from N-B
//   NB-5 1,000 L from N-A, held; its part NB-6 400 L issued for A-3 (1,000 L B100)
//   A-2 at 1001 holds NB-3, from N-C at location 1002
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zertifikatEingabe } from '../../testing/factories.js';
import { TenantScope } from '../../db/scope.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { signIn, type Agent } from '../../testing/session.js';
import { createUserWithRoles } from '../../testing/users.js';
import { heuteInDeutschland, verfolge, type Knoten, type Verfolgung } from './trace.js';

let t: TestApp;
type Auth = Record<string, string>;
let admin: Auth;
let verf: Auth;
let lager: Auth;
let ohne: Auth;
let nordAdmin: Auth;
let agent: Agent;

const PASSWORT = 'Verfolgung12345';
const token = async (login: string, password: string) => (await request(t.app).post('/api/v1/account/login').send({ login, password })).body.token as string;
const as = async (login: string, password: string, mandant = 'DEMO') => ({ Authorization: await token(login, password), 'X-Mandant': mandant });

const vor = (tage: number) => new Date(Date.now() - tage * 86_400_000).toISOString().slice(0, 10);

/** A valid certificate of FAME from used cooking oil (the worked example's figures), dated so it is in time today. */
const zertifikat = (nr: string, over: Record<string, unknown> = {}) =>
  zertifikatEingabe({ nr, ausstellungsdatum: vor(2), zeitraumVon: vor(60), zeitraumBis: vor(2), lieferungVon: vor(50), lieferungBis: vor(40), lieferantZertifikatNr: 'DE-ISCC-4711', ...over });

const N = { A: 'T-NV-NA', B: 'T-NV-NB', C: 'T-NV-NC' };
const E = { e1: 'T-NV-E1', e2: 'T-NV-E2', e3: 'T-NV-E3', fern: 'T-NV-E1002', los: 'T-NV-ELOS', leer: 'T-NV-ELEER' };
const A = { a1: 'T-NV-A1', a2: 'T-NV-A2', a3: 'T-NV-A3', fern: 'T-NV-A1002', doppel: 'T-NV-DOPPEL', nord: 'T-NV-NORD' };
const AB = { ab1: 'T-NV-AB1', ab2: 'T-NV-AB2', leer: 'T-NV-ABLEER' };
let TN = '';
const NB: Record<string, string> = {};

async function created(res: request.Response, what: string) {
  if (res.status !== 201) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

const lieferung = (art: 'einlieferungen' | 'ablieferungen', nr: string, menge: string, over: Record<string, unknown> = {}) =>
  art === 'einlieferungen'
    ? { nr, entladedatum: vor(30), entladeneMenge: menge, unitOfMeasure: 'L', partnerNr: 'TP001', standortNr: '1001', produktNr: 'P013', status: 'completed', ...over }
    : { nr, lieferdatum: vor(10), menge, uomMenge: 'L', partnerNr: 'TP001', standortNr: '1001', produktNr: 'P016', status: 'completed', ...over };

async function bescheinigung(auth: Auth, nachweisNr: string, volumen: string): Promise<string> {
  return (await created(await request(t.app).post('/api/nachweisbescheinigungen').set(auth).send({ nachweisNr, volumen, lieferdatum: vor(5) }), `proof of ${nachweisNr}`)).nr;
}

/** What the assignment feature will write: the proof issued for the Ablieferung. */
async function zuordnen(mandant: string, nbNr: string, ablieferungNr: string) {
  await new TenantScope(t.db.knex, mandant).transaction((tx) => tx.table('nachweisbescheinigungen').where({ nr: nbNr }).update({ ablieferung_nr: ablieferungNr }));
}

/** What the collections feature will write: the collection, its certificates and its Einlieferungen' link. */
async function abholung(nr: string, kraftstoffmenge: string, nachweise: string[], einlieferungen: string[]) {
  await new TenantScope(t.db.knex, 'DEMO').transaction(async (tx) => {
    await tx.insert('abholungen', { nr, lieferdatum: vor(32), lieferstelle_nr: '1001', lieferant: 'Ölmühle Nord GmbH', produktgruppe: 'biodiesel', kraftstoffmenge, einheit: 'L', nachweise: JSON.stringify(nachweise) });
    if (nachweise.length) await tx.insert('abholung_nachweise', nachweise.map((nachweis_nr) => ({ abholung_nr: nr, nachweis_nr })));
    if (einlieferungen.length) await tx.table('einlieferungen').whereIn('nr', einlieferungen).update({ abholung_nr: nr });
  });
}

beforeAll(async () => {
  t = await createTestApp();
  // VERF traces and sees proofs everywhere; VLAGER traces at Hamburg (1001) only; OHNE has proofs but not the tracing.
  await createUserWithRoles(t.db.knex, 'VERF', PASSWORT, [{ typ: 16, standortNr: null }, { typ: 15, standortNr: null }, { typ: 21, standortNr: null }, { typ: 11, standortNr: null }]);
  await createUserWithRoles(t.db.knex, 'VLAGER', PASSWORT, [{ typ: 16, standortNr: '1001' }]);
  await createUserWithRoles(t.db.knex, 'OHNE', PASSWORT, [{ typ: 15, standortNr: null }]);
  [admin, verf, lager, ohne, nordAdmin] = await Promise.all([
    as('TADMIN', 'Tadmin12345'), as('VERF', PASSWORT), as('VLAGER', PASSWORT), as('OHNE', PASSWORT), as('ADMIN', 'Admin12345', 'NORD'),
  ]);
  agent = await signIn(t.app, 'VERF', PASSWORT);

  const post = (path: string, body: Record<string, unknown>, auth = admin) => request(t.app).post(path).set(auth).send(body);
  await created(await post('/api/nachweise', zertifikat(N.A)), N.A);
  await created(await post('/api/nachweise', zertifikat(N.B, { menge: '5000', vorlaeufig: true, lieferantZertifikatNr: 'DE-ISCC-0815' })), N.B);
  await created(await post('/api/nachweise', zertifikat(N.C, { menge: '2000', standortNr: '1002' })), N.C);
  TN = (await created(await post(`/api/nachweise/${N.A}/teilung`, { teile: [{ menge: '4000' }] }), 'split'))[0].nr;

  await created(await post('/api/einlieferungen', lieferung('einlieferungen', E.e1, '9000')), E.e1);
  await created(await post('/api/einlieferungen', lieferung('einlieferungen', E.e2, '6000')), E.e2);
  await created(await post('/api/einlieferungen', lieferung('einlieferungen', E.e3, '10000', { status: 'open' })), E.e3);
  await created(await post('/api/einlieferungen', lieferung('einlieferungen', E.fern, '500', { standortNr: '1002' })), E.fern);
  await created(await post('/api/einlieferungen', lieferung('einlieferungen', E.los, '700')), E.los);
  await created(await post('/api/einlieferungen', lieferung('einlieferungen', E.leer, '800')), E.leer);
  await created(await post('/api/einlieferungen', lieferung('einlieferungen', A.doppel, '100')), 'Einlieferung with an Ablieferung number');
  await created(await post('/api/ablieferungen', lieferung('ablieferungen', A.a1, '10000')), A.a1);
  await created(await post('/api/ablieferungen', lieferung('ablieferungen', A.a2, '500', { produktNr: 'P013' })), A.a2);
  await created(await post('/api/ablieferungen', lieferung('ablieferungen', A.a3, '1000', { produktNr: 'P013' })), A.a3);
  await created(await post('/api/ablieferungen', lieferung('ablieferungen', A.fern, '300', { standortNr: '1002' })), A.fern);
  await created(await post('/api/ablieferungen', lieferung('ablieferungen', A.doppel, '200')), 'Ablieferung with an Einlieferung number');

  await abholung(AB.ab1, '15000', [TN, N.B], [E.e1, E.e2]);
  await abholung(AB.ab2, '10000', [N.A], [E.e3]);
  await abholung(AB.leer, '800', [], [E.leer]);

  NB.nb1 = await bescheinigung(admin, TN, '2000');
  NB.nb2 = await bescheinigung(admin, N.B, '1000');
  NB.nb3 = await bescheinigung(admin, N.C, '500');
  NB.nb5 = await bescheinigung(admin, N.A, '1000');
  NB.nb6 = (await created(await post(`/api/nachweisbescheinigungen/${NB.nb5}/teilung`, { teile: [{ menge: '400' }] }), 'proof split'))[0].nr;
  await zuordnen('DEMO', NB.nb1, A.a1);
  await zuordnen('DEMO', NB.nb2, A.a1);
  await zuordnen('DEMO', NB.nb3, A.a2);
  await zuordnen('DEMO', NB.nb6, A.a3);

  // Another tenant's delivery with certificate and proof: nothing of it may ever show in DEMO.
  await created(await post('/api/nachweise', zertifikat('T-NV-NORDZ', { standortNr: (await t.db.knex('standorte').where({ mandant: 'NORD' }).first('nr')).nr, produktNr: (await t.db.knex('produkte').where({ mandant: 'NORD', produktgruppe: 'biodiesel' }).first('nr')).nr, lieferant: 'Nordlieferant Geheim' }), nordAdmin), 'NORD certificate');
}, 120_000);
afterAll(() => t?.close());

const api = (nr: string, auth: Auth = verf, query = '') => request(t.app).get(`/api/nachweisverfolgung/${encodeURIComponent(nr)}${query}`).set(auth);

/** Every node of a tree, depth first. */
function alle(k: Knoten): Knoten[] {
  return [k, ...k.kinder.flatMap(alle)];
}
const finde = (v: Verfolgung, typ: Knoten['typ'], nr: string) => alle(v.knoten).filter((k) => k.typ === typ && k.nr === nr);

describe('tracing backwards from an Ablieferung', () => {
  it('lists the chain with quantities and shares that add up (API)', async () => {
    const res = await api(A.a1);
    expect(res.status).toBe(200);
    const v = res.body.data as Verfolgung;
    expect(v).toMatchObject({ art: 'ablieferung', nr: A.a1, richtung: 'rueckwaerts', nachweiseVorhanden: true, grund: null, hinweise: [] });
    // 10,000 L of B30: 3,000 L bio, covered by 2,000 + 1,000 L; one certificate provisional: without final ones.
    expect(v.knoten).toMatchObject({ typ: 'ablieferung', menge: '10000', einheit: 'L', bioMenge: '3000', zugeordnet: '3000', zertifikatStatus: 'ohne_endgueltige' });
    const [nb1, nb2] = v.knoten.kinder;
    expect(nb1).toMatchObject({ typ: 'nachweisbescheinigung', nr: NB.nb1, volumen: '2000', nachweisNr: TN, status: 'verbraucht', anteil: { menge: '2000', prozent: '66.67', von: 'bioMenge', nr: A.a1 } });
    expect(nb2).toMatchObject({ typ: 'nachweisbescheinigung', nr: NB.nb2, volumen: '1000', status: 'ausstehend', anteil: { prozent: '33.33' } });

    // NB-1 ← TN (2,000 of its 4,000 L) ← AB-1 with E-1 and E-2, and ← N-A (TN is 40 % of it) ← AB-2 with E-3, and the supplier.
    const tn = nb1.kinder[0];
    expect(tn).toMatchObject({ typ: 'nachweis', nr: TN, teilVon: N.A, menge: '4000', mengeVerbleibend: '2000', verwendet: '2000', status: 'aktiv', anteil: { menge: '2000', prozent: '50.00', von: 'nachweis', nr: TN } });
    const [ab1, na] = tn.kinder;
    expect(ab1).toMatchObject({ typ: 'abholung', nr: AB.ab1, kraftstoffmenge: '15000', eingeliefert: '15000', lieferant: 'Ölmühle Nord GmbH' });
    expect(ab1.kinder.map((k) => [k.nr, k.anteil?.prozent])).toEqual([[E.e1, '60.00'], [E.e2, '40.00']]);
    // N-A: 10,000 − 4,000 split − 1,000 in NB-5; its collection's Einlieferung E-3 is still open: pending.
    expect(na).toMatchObject({ typ: 'nachweis', nr: N.A, teilVon: null, menge: '10000', mengeVerbleibend: '5000', verwendet: '5000', status: 'ausstehend', thg: '10.00', einsparung: '89.36', anteil: { menge: '4000', prozent: '40.00', nr: N.A } });
    expect(na.kinder.map((k) => [k.typ, k.nr])).toEqual([['abholung', AB.ab2], ['lieferantenzertifikat', 'DE-ISCC-4711']]);
    expect(na.kinder[0].kinder.map((k) => [k.nr, k.anteil?.prozent])).toEqual([[E.e3, '100.00']]);
    // N-B is provisional; it came with AB-1 too.
    expect(nb2.kinder[0]).toMatchObject({ nr: N.B, status: 'ausstehend', vorlaeufig: true, anteil: { prozent: '20.00' } });
    expect(nb2.kinder[0].kinder.map((k) => [k.typ, k.nr])).toEqual([['abholung', AB.ab1], ['lieferantenzertifikat', 'DE-ISCC-0815']]);
    // Shares of the bio quantity add up to 100 %.
    expect(Number(nb1.anteil!.prozent) + Number(nb2.anteil!.prozent)).toBeCloseTo(100, 5);
  });

  it('shows the chain as a nested list with the sums, labels as text and links to each record (page)', async () => {
    const page = await agent.get(`/de/bewegungsdaten/nachweisverfolgung/${A.a1}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`Nachweisverfolgung: Ablieferung ${A.a1}`);
    expect(page.text).toContain('3.000 von 3.000 L Biomenge');
    expect(page.text).toContain('Ohne endgültige Nachweise');
    expect(page.text).toContain(`2.000 L = 66,67 % der Biomenge von ${A.a1}`);
    expect(page.text).toContain(`1.000 L = 33,33 % der Biomenge von ${A.a1}`);
    expect(page.text).toContain(`2.000 L = 50,00 % von Zertifikat ${TN}`);
    expect(page.text).toContain('2.000 von 4.000 L, verbleibend 2.000 L');
    expect(page.text).toContain('15.000 von 15.000 L');
    expect(page.text).toContain(`9.000 L = 60,00 % der Abholung ${AB.ab1}`);
    expect(page.text).toContain('DE-ISCC-4711');
    expect(page.text).toMatch(/<span class="badge badge-success">Aktiv<\/span>/);
    expect(page.text).toMatch(/<span class="badge badge-warning">Ausstehend<\/span>/);
    expect(page.text).toMatch(/<span class="badge badge-neutral">Verbraucht<\/span>/);
    expect(page.text).toContain('<ol class="trace-tree">');
    expect(page.text).toContain('<ol class="trace-children"');
    // Links to the records the user may open (proofs, certificates, Ablieferungen); an Einlieferung the user
    // may not open (no right 9) is named without a link, but can be traced from here.
    expect(page.text).toContain(`href="/de/bewegungsdaten/nachweisbescheinigungen/${NB.nb1}"`);
    expect(page.text).toContain(`href="/de/bewegungsdaten/nachweise/${TN}"`);
    expect(page.text).not.toContain(`href="/de/bewegungsdaten/einlieferungen/${E.e1}"`);
    expect(page.text).toContain(`href="/de/bewegungsdaten/nachweisverfolgung/${E.e1}?art=einlieferung"`);
    // English.
    const en = await agent.get(`/en/bewegungsdaten/nachweisverfolgung/${A.a1}`);
    expect(en.text).toContain(`2,000 L = 66.67 % of the bio quantity of ${A.a1}`);
    expect(en.text).toContain('Without final certificates');
  });
});

describe('tracing forwards from an Einlieferung', () => {
  it('follows the collection to its certificates, their parts and proofs and the Ablieferungen (API)', async () => {
    const v = (await api(E.e1)).body.data as Verfolgung;
    expect(v).toMatchObject({ art: 'einlieferung', nr: E.e1, richtung: 'vorwaerts', nachweiseVorhanden: true });
    expect(v.knoten).toMatchObject({ typ: 'einlieferung', menge: '9000', abholungNr: AB.ab1 });
    const ab1 = v.knoten.kinder[0];
    expect(ab1).toMatchObject({ typ: 'abholung', nr: AB.ab1, eingeliefert: '15000', anteil: { menge: '9000', prozent: '60.00', von: 'abholung' } });
    expect(ab1.kinder.map((k) => k.nr).sort()).toEqual([TN, N.B].sort());
    const tn = ab1.kinder.find((k) => k.nr === TN)!;
    // TN's 2,000 L used all went to NB-1, and NB-1 covers two thirds of A-1's bio quantity.
    expect(tn).toMatchObject({ verwendet: '2000', verteilt: '2000', status: 'aktiv' });
    expect(tn.kinder).toHaveLength(1);
    expect(tn.kinder[0]).toMatchObject({ typ: 'nachweisbescheinigung', nr: NB.nb1, anteil: { menge: '2000', prozent: '50.00', nr: TN } });
    expect(tn.kinder[0].kinder[0]).toMatchObject({ typ: 'ablieferung', nr: A.a1, bioMenge: '3000', anteil: { menge: '2000', prozent: '66.67', von: 'bioMenge' } });
    const nb = ab1.kinder.find((k) => k.nr === N.B)!;
    expect(nb.kinder[0].kinder[0]).toMatchObject({ nr: A.a1, anteil: { prozent: '33.33' } });
  });

  it('follows a certificate into its parts and a proof into the parts split off it', async () => {
    const v = (await api(E.e3)).body.data as Verfolgung;
    const na = v.knoten.kinder[0].kinder[0];
    expect(na).toMatchObject({ nr: N.A, verwendet: '5000', verteilt: '5000', status: 'ausstehend' });
    expect(na.kinder.map((k) => [k.typ, k.nr, k.anteil?.prozent])).toEqual([['nachweis', TN, '40.00'], ['nachweisbescheinigung', NB.nb5, '10.00']]);
    const nb5 = na.kinder[1];
    expect(nb5.kinder.map((k) => [k.typ, k.nr, k.anteil?.prozent])).toEqual([['nachweisbescheinigung', NB.nb6, '40.00']]);
    expect(nb5.kinder[0].kinder[0]).toMatchObject({ typ: 'ablieferung', nr: A.a3, anteil: { menge: '400', prozent: '40.00' } });
    expect(finde(v, 'ablieferung', A.a1)).toHaveLength(1);
  });

  it('shows the forward chain on the page', async () => {
    const page = await agent.get(`/de/bewegungsdaten/nachweisverfolgung/${E.e1}?art=einlieferung`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`Nachweisverfolgung: Einlieferung ${E.e1}`);
    expect(page.text).toContain(`9.000 L = 60,00 % der Abholung ${AB.ab1}`);
    expect(page.text).toContain('2.000 L in Teilen und Bescheinigungen');
    expect(page.text).toContain(`href="/de/bewegungsdaten/nachweisverfolgung/${A.a1}?art=ablieferung"`);
  });

  it('reads a trace in a fixed handful of statements', async () => {
    let count = 0;
    const listener = () => { count += 1; };
    t.db.knex.on('query', listener);
    try {
      const scope = new TenantScope(t.db.knex, 'DEMO');
      await verfolge(scope, 'ablieferung', A.a1, heuteInDeutschland(Date.now()));
      const rueckwaerts = count;
      count = 0;
      await verfolge(new TenantScope(t.db.knex, 'DEMO'), 'einlieferung', E.e3, heuteInDeutschland(Date.now()));
      // Delivery, proofs, chain, collections, Einlieferungen, labels, law values, plus the reads' BEGIN/COMMIT.
      expect(rueckwaerts).toBeLessThanOrEqual(10);
      expect(count).toBeLessThanOrEqual(11);
    } finally {
      t.db.knex.removeListener('query', listener);
    }
  });
});

describe('bounds', () => {
  it('cuts a chain of parts deeper than 20 steps, with a note, both ways', async () => {
    const post = (path: string, body: Record<string, unknown>) => request(t.app).post(path).set(admin).send(body);
    await created(await post('/api/nachweise', zertifikat('T-NV-TIEF', { menge: '100000' })), 'deep chain');
    const kette = ['T-NV-TIEF'];
    for (let i = 1; i <= 22; i++) {
      kette.push((await created(await post(`/api/nachweise/${kette[i - 1]}/teilung`, { teile: [{ menge: String(100000 - 100 * i) }] }), `part ${i}`))[0].nr);
    }
    await created(await post('/api/ablieferungen', lieferung('ablieferungen', 'T-NV-ATIEF', '1000', { produktNr: 'P013' })), 'T-NV-ATIEF');
    await zuordnen('DEMO', await bescheinigung(admin, kette[22], '10'), 'T-NV-ATIEF');
    const rueck = (await api('T-NV-ATIEF')).body.data as Verfolgung;
    expect(rueck.hinweise).toEqual(['gekappt']);
    const gezeigt = alle(rueck.knoten).filter((k) => k.typ === 'nachweis').map((k) => k.nr);
    // The proof's certificate and 20 parents above it; the two oldest are cut.
    expect(gezeigt).toEqual(kette.slice(2).reverse());

    await created(await post('/api/einlieferungen', lieferung('einlieferungen', 'T-NV-ETIEF', '100000')), 'T-NV-ETIEF');
    await abholung('T-NV-ABTIEF', '100000', ['T-NV-TIEF'], ['T-NV-ETIEF']);
    const vor = (await api('T-NV-ETIEF')).body.data as Verfolgung;
    expect(vor.hinweise).toEqual(['gekappt']);
    expect(alle(vor.knoten).filter((k) => k.typ === 'nachweis').map((k) => k.nr)).toEqual(kette.slice(0, 21));
    const page = await agent.get('/de/bewegungsdaten/nachweisverfolgung/T-NV-ETIEF?fortfahren=1');
    expect(page.text).toContain('wurde gekürzt: Es werden höchstens 500 Einträge und 20 Teilungsstufen gezeigt.');
  });
});

describe('a delivery without certificates', () => {
  it.each([
    [E.los, 'einlieferung', `Die Einlieferung ${E.los} ist mit keiner Abholung verknüpft`],
    [E.leer, 'einlieferung', `Die Abholung ${AB.leer}, mit der die Einlieferung ${E.leer} verknüpft ist, trägt keine Nachweise`],
    [A.fern, 'ablieferung', `Der Ablieferung ${A.fern} ist kein Nachweis zugeordnet`],
  ])('%s first asks: "Keine Nachweise verfügbar" with Abbrechen and Trotzdem fortfahren', async (nr, art, warum) => {
    const page = await agent.get(`/de/bewegungsdaten/nachweisverfolgung/${nr}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1 id="warnung-heading">Keine Nachweise verfügbar</h1>');
    expect(page.text).toContain(warum);
    expect(page.text).toContain('<a class="btn btn-secondary" href="/de/bewegungsdaten/nachweisverfolgung">Abbrechen</a>');
    const weiter = `/de/bewegungsdaten/nachweisverfolgung/${nr}?art=${art}&amp;fortfahren=1`;
    expect(page.text).toContain(`<a class="btn btn-primary" href="${weiter}">Trotzdem fortfahren</a>`);
    expect(page.text).not.toContain('class="trace-tree"');
    // Going on shows what chain there is: the delivery alone.
    const trace = await agent.get(weiter.replace('&amp;', '&'));
    expect(trace.status).toBe(200);
    expect(trace.text).toContain('class="trace-tree"');
    expect(trace.text).toContain('Keine Nachweise verfügbar: Die Lieferung wird ohne Nachweise gezeigt.');
    expect(trace.text).toContain(nr);
    // The API answers the trace with the flag and the reason, no confirmation needed.
    const res = await api(nr);
    expect(res.body.data).toMatchObject({ nachweiseVorhanden: false, grund: expect.any(String) });
  });

  it('in English: No certificates available, Cancel, Continue anyway', async () => {
    const page = await agent.get(`/en/bewegungsdaten/nachweisverfolgung/${E.los}`);
    expect(page.text).toContain('No certificates available');
    expect(page.text).toContain('>Cancel</a>');
    expect(page.text).toContain('>Continue anyway</a>');
  });
});

describe('a number that is both an Ablieferung and an Einlieferung', () => {
  it('offers the choice on the page, is a 409 in the API without art, and traces each with art', async () => {
    const page = await agent.get(`/de/bewegungsdaten/nachweisverfolgung/${A.doppel}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`href="/de/bewegungsdaten/nachweisverfolgung/${A.doppel}?art=ablieferung"`);
    expect(page.text).toContain(`href="/de/bewegungsdaten/nachweisverfolgung/${A.doppel}?art=einlieferung"`);
    const res = await api(A.doppel);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ success: false, code: 'ART_MEHRDEUTIG', errors: [{ field: 'art' }] });
    expect(res.body.message).toContain('Ablieferung und als Einlieferung');
    expect((await api(A.doppel, verf, '?art=einlieferung')).body.data).toMatchObject({ art: 'einlieferung', knoten: { menge: '100' } });
    expect((await api(A.doppel, verf, '?art=ablieferung')).body.data).toMatchObject({ art: 'ablieferung', knoten: { menge: '200' } });
  });

  it('refuses a wrong art or parameter with a translated 400, never a 500', async () => {
    const wrong = await api(A.a1, verf, '?art=abholung');
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual([{ field: 'art', message: 'Bitte geben Sie als Art „ablieferung“ oder „einlieferung“ an.' }]);
    const en = await api(A.a1, { ...verf, 'Accept-Language': 'en' }, '?art=abholung');
    expect(en.body.message).toBe('Please give the kind as “ablieferung” or “einlieferung”.');
    expect((await api(A.a1, verf, '?art=ablieferung&art=einlieferung')).status).toBe(400);
    expect((await api(A.a1, verf, '?tiefe=99')).body.errors).toEqual([{ field: 'tiefe', message: 'Unbekannter Parameter „tiefe“.' }]);
    const page = await agent.get(`/de/bewegungsdaten/nachweisverfolgung/${A.a1}?fortfahren=ja`);
    expect(page.status).toBe(400);
    expect(page.text).toContain('„fortfahren“ darf nur 1 oder 0 sein.');
    // A number of the other kind is unknown as that kind.
    expect((await api(E.e1, verf, '?art=ablieferung')).status).toBe(404);
    expect((await api('x'.repeat(200))).status).toBe(404);
  });
});

describe('the index of deliveries to trace', () => {
  it('lists both kinds, filters by kind and searches by number (page and API)', async () => {
    const res = await request(t.app).get('/api/nachweisverfolgung?q=T-NV-&pageSize=100').set(verf);
    expect(res.status).toBe(200);
    const rows = res.body.data as { art: string; nr: string }[];
    expect(rows.map((r) => `${r.art}:${r.nr}`)).toEqual(expect.arrayContaining([`ablieferung:${A.a1}`, `einlieferung:${E.e1}`, `ablieferung:${A.doppel}`, `einlieferung:${A.doppel}`, `einlieferung:${E.fern}`]));
    expect(res.body).toMatchObject({ total: rows.length, page: 1, pageSize: 100 });
    const ab = await request(t.app).get('/api/nachweisverfolgung?q=T-NV-&art=ablieferung&pageSize=100').set(verf);
    expect((ab.body.data as { art: string }[]).every((r) => r.art === 'ablieferung')).toBe(true);
    expect(ab.body.total).toBe(rows.filter((r) => r.art === 'ablieferung').length);
    expect(ab.body.total).toBeLessThan(rows.length);
    expect((await request(t.app).get('/api/nachweisverfolgung?art=abholung').set(verf)).status).toBe(400);
    const page = await agent.get(`/de/bewegungsdaten/nachweisverfolgung?q=${A.a1}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`href="/de/bewegungsdaten/nachweisverfolgung/${A.a1}?art=ablieferung"`);
    expect(page.text).toContain('Ablieferung');
    expect(page.text).not.toContain(`${E.e1}?art=einlieferung`);
    // The exports show what the filters show.
    const csv = await request(t.app).get(`/api/nachweisverfolgung?q=T-NV-A&art=ablieferung&format=csv`).set(verf);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.text).toContain(A.a1);
    expect(csv.text).not.toContain(E.e1);
  });
});

describe('tenants, rights and locations', () => {
  it('another tenant\'s delivery is unknown: 404, and nothing of it in any answer', async () => {
    const nord = await created(await request(t.app).post('/api/ablieferungen').set(nordAdmin).send({
      nr: A.nord, lieferdatum: vor(3), menge: '1000', uomMenge: 'L', status: 'completed',
      partnerNr: (await t.db.knex('tauschpartner').where({ mandant: 'NORD' }).first('nr')).nr,
      standortNr: (await t.db.knex('standorte').where({ mandant: 'NORD' }).first('nr')).nr,
      produktNr: (await t.db.knex('produkte').where({ mandant: 'NORD', produktgruppe: 'biodiesel' }).first('nr')).nr,
    }), A.nord);
    expect(nord.nr).toBe(A.nord);
    const res = await api(A.nord);
    expect(res.status).toBe(404);
    expect(JSON.stringify(res.body)).not.toContain('Nordlieferant');
    const page = await agent.get(`/de/bewegungsdaten/nachweisverfolgung/${A.nord}`);
    expect(page.status).toBe(404);
    expect(page.text).toContain('Datensatz nicht gefunden');
    const list = await request(t.app).get(`/api/nachweisverfolgung?q=${A.nord}`).set(verf);
    expect(list.body.total).toBe(0);
    // NORD's own user sees it, and none of DEMO's.
    expect((await api(A.nord, nordAdmin)).status).toBe(200);
    expect((await api(A.a1, nordAdmin)).status).toBe(404);
    for (const nr of [A.a1, E.e1, E.e3]) expect(JSON.stringify((await api(nr)).body)).not.toMatch(/Nordlieferant|T-NV-NORD/);
  });

  it('without right 16: 403 in the API, the dashboard for the page', async () => {
    for (const path of ['/api/nachweisverfolgung', `/api/nachweisverfolgung/${A.a1}`]) {
      const res = await request(t.app).get(path).set(ohne);
      expect(res.status, path).toBe(403);
      expect(res.body.message).toBe('Zugriff verweigert');
    }
    const page = await (await signIn(t.app, 'OHNE', PASSWORT)).get(`/de/bewegungsdaten/nachweisverfolgung/${A.a1}`);
    expect(page.status).toBe(302);
    expect(page.headers.location).toBe('/de/benutzer/dashboard');
  });

  it('a user limited to one location sees neither deliveries nor certificates of others', async () => {
    // The index: nothing at 1002.
    const list = await request(t.app).get('/api/nachweisverfolgung?q=T-NV-&pageSize=100').set(lager);
    const nrs = (list.body.data as { nr: string }[]).map((r) => r.nr);
    expect(nrs).toContain(A.a1);
    expect(nrs).not.toContain(E.fern);
    expect(nrs).not.toContain(A.fern);
    expect((await api(E.fern, lager)).status).toBe(404);
    expect((await api(A.fern, lager)).status).toBe(404);
    // A-2 lies at 1001, its only proof (from N-C) at 1002: for this user it has no certificates, and says why.
    const v = (await api(A.a2, lager)).body.data as Verfolgung;
    expect(v).toMatchObject({ nachweiseVorhanden: false, hinweise: ['ausgeblendet'], knoten: { kinder: [] } });
    expect(JSON.stringify(v)).not.toMatch(new RegExp(`${N.C}|${NB.nb3}`));
    const page = await (await signIn(t.app, 'VLAGER', PASSWORT)).get(`/de/bewegungsdaten/nachweisverfolgung/${A.a2}?fortfahren=1`);
    expect(page.text).toContain('Teile der Kette liegen an Standorten, die Sie nicht sehen dürfen');
    expect(page.text).not.toContain(N.C);
    // Who may see every location sees the proof and its certificate.
    const alle2 = (await api(A.a2)).body.data as Verfolgung;
    expect(finde(alle2, 'nachweis', N.C)).toHaveLength(1);
    expect(alle2.hinweise).toEqual([]);
  });
});

describe('a proof\'s chain-of-custody tabs', () => {
  const tab = (nr: string, key: string) => agent.get(`/de/bewegungsdaten/nachweisbescheinigungen/${nr}?tab=${key}`);
  const zeilen = (html: string, resource: string) => [...html.matchAll(new RegExp(`href="/de/bewegungsdaten/${resource}/([^"?]+)"`, 'g'))].map((m) => decodeURIComponent(m[1]));

  it('lists the Einlieferungen and collections of its certificate and of that certificate\'s original', async () => {
    const ein = await tab(NB.nb1, 'einlieferungen');
    expect(ein.status).toBe(200);
    // TN is carried by AB-1 (E-1, E-2), its original N-A by AB-2 (E-3).
    expect(zeilen(ein.text, 'einlieferungen').sort()).toEqual([E.e1, E.e2, E.e3].sort());
    expect(ein.text).toContain('9.000 L');
    expect(ein.text).toContain(`href="/de/bewegungsdaten/nachweisverfolgung/${E.e1}?art=einlieferung"`);
    expect(ein.text).toContain('Nachweisverfolgung<span class="visually-hidden">');
    const ab = await tab(NB.nb1, 'abholungen');
    expect(zeilen(ab.text, 'abholungen').sort()).toEqual([AB.ab1, AB.ab2].sort());
    expect(ab.text).toContain('15.000 L');
    // N-B's proof: only AB-1's.
    expect(zeilen((await tab(NB.nb2, 'einlieferungen')).text, 'einlieferungen').sort()).toEqual([E.e1, E.e2].sort());
  });

  it('lists the Ablieferung it was issued for, and those of the parts split off it', async () => {
    const a1 = await tab(NB.nb1, 'ablieferungen');
    expect(zeilen(a1.text, 'ablieferungen')).toEqual([A.a1]);
    expect(a1.text).toContain(`href="/de/bewegungsdaten/nachweisverfolgung/${A.a1}?art=ablieferung"`);
    expect(zeilen((await tab(NB.nb5, 'ablieferungen')).text, 'ablieferungen')).toEqual([A.a3]);
    // A proof linked to nothing says so.
    const leer = await tab(NB.nb3, 'einlieferungen');
    expect(leer.text).toContain('Mit dieser Nachweisbescheinigung ist keine Einlieferung verknüpft.');
  });
});
