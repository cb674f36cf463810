// The search of the movement-data lists (issue 20, point 2): partner, location and product by number and name,
// the record's own texts by word, under row-level security, through HTTP as a user and a client see it.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BEWEGUNGSDATEN_ENTITIES } from '../../features/bewegungsdaten/registry.js';
import { bilanzListe } from '../../features/bilanzen/list.js';
import { pocListe } from '../../features/pocs/list.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { signIn } from '../../testing/session.js';
import { isIndexed, type ListSearch } from './search.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const token = async (login: string, password: string) => (await request(t.app).post('/api/v1/account/login').send({ login, password })).body.token as string;
// TADMIN works in DEMO, ADMIN in both tenants.
const as = async (mandant = 'DEMO') => ({ Authorization: await (mandant === 'DEMO' ? token('TADMIN', 'Tadmin12345') : token('ADMIN', 'Admin12345')), 'X-Mandant': mandant });
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
// A day the demo data has no deliveries on: what a search finds there is the test's own delivery.
const DAY = daysAgo(4000);
const onDay = `von=${DAY}&bis=${DAY}`;

describe('search of the movement-data lists', () => {
  const nr = 'SUCH-1';
  beforeAll(async () => {
    const res = await request(t.app).post('/api/einlieferungen').set(await as()).send({
      nr, entladedatum: DAY, entladeneMenge: '1000', unitOfMeasure: 'L',
      // Hansa Mineralöl Handels-GmbH, Tankstelle Bremen-Vegesack, Diesel B7.
      partnerNr: 'TP001', standortNr: '1003', produktNr: 'P001',
      vehicleName: 'HH-XY 4711', contractNumber: 'K-2026/077', kommentar: 'Nachlieferung wegen Sturmflut, Tank 3.',
    });
    expect(res.status).toBe(201);
  });

  const found = async (q: string) => {
    const res = await request(t.app).get(`/api/einlieferungen?q=${encodeURIComponent(q)}&${onDay}`).set(await as());
    expect(res.status).toBe(200);
    return res.body.data.map((d: { nr: string }) => d.nr);
  };

  it('search by partner name finds the delivery (API)', async () => {
    expect(await found('Hansa')).toEqual([nr]);
    expect(await found('hansa')).toEqual([nr]);
    // Any part of a master record's name, and its number.
    expect(await found('Mineralöl')).toEqual([nr]);
    expect(await found('TP001')).toEqual([nr]);
  });

  it('search by partner name finds the delivery (page)', async () => {
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const page = await agent.get(`/de/bewegungsdaten/einlieferungen?q=Hansa&${onDay}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`href="/de/bewegungsdaten/einlieferungen/${nr}"`);
  });

  it('finds location and product by number and name', async () => {
    for (const q of ['Bremen', 'Vegesack', '1003', 'Diesel', 'P001', 'diesel b7']) expect(await found(q), q).toEqual([nr]);
  });

  it('finds the vehicle, contract number, comment and number by the beginning of a word', async () => {
    for (const q of ['HH-XY', '4711', 'K-2026/077', '077', 'Sturmflut', 'sturm', 'Nachlieferung', 'SUCH-1', 'such']) expect(await found(q), q).toEqual([nr]);
    // Prefixes of words, not any part: "flut" is inside "Sturmflut".
    expect(await found('flut')).toEqual([]);
  });

  it('wants every word found, each in any field', async () => {
    expect(await found('Hansa Diesel Sturmflut')).toEqual([nr]);
    expect(await found('Hansa Quatschwort')).toEqual([]);
    // Punctuation alone is no word: nothing is found, rather than everything.
    expect(await found('-')).toEqual([]);
  });

  it('follows changes of the texts in the same transaction', async () => {
    const auth = await as();
    const before = (await request(t.app).get(`/api/einlieferungen/${nr}`).set(auth)).body.data;
    const res = await request(t.app).put(`/api/einlieferungen/${nr}`).set(auth).send({ ...before, kommentar: 'Ersatzlieferung Hochwasser' });
    expect(res.status).toBe(200);
    expect(await found('Sturmflut')).toEqual([]);
    expect(await found('Hochwasser')).toEqual([nr]);
    expect(await found('Hansa')).toEqual([nr]);
  });

  it("does not find another tenant's delivery", async () => {
    const nord = await request(t.app).get(`/api/einlieferungen?q=SUCH&${onDay}`).set(await as('NORD'));
    expect(nord.status).toBe(200);
    expect(nord.body.total).toBe(0);
  });

  it('searches stock, certificates and the other movement lists by product name too', async () => {
    const auth = await as();
    for (const resource of ['bestaende', 'nachweise', 'nachweisbescheinigungen', 'ablieferungen']) {
      const all = await request(t.app).get(`/api/${resource}?pageSize=500`).set(auth);
      expect(all.status, resource).toBe(200);
      const diesel = all.body.data.filter((d: { produktNr: string }) => d.produktNr === 'P001').map((d: { nr: string }) => d.nr);
      const res = await request(t.app).get(`/api/${resource}?q=${encodeURIComponent('Diesel B7')}&pageSize=500`).set(auth);
      expect(res.status, resource).toBe(200);
      // Every record of the product is found by its name (each word a part of it).
      expect(res.body.data.map((d: { nr: string }) => d.nr), resource).toEqual(expect.arrayContaining(diesel));
      expect(res.body.total, resource).toBeGreaterThanOrEqual(diesel.length);
      const none = await request(t.app).get(`/api/${resource}?q=Quatschwort&pageSize=500`).set(auth);
      expect(none.body.total, resource).toBe(0);
    }
  });

  it('refuses a search of too many words with a translated message', async () => {
    const res = await request(t.app).get(`/api/einlieferungen?q=${encodeURIComponent('a b c d e f g h i')}`).set(await as());
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ field: 'q', message: 'Bitte suchen Sie nach höchstens 8 Wörtern.' })]);
  });

  it('shows one empty state when nothing is found', async () => {
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    for (const path of ['einlieferungen', 'bestaende', 'nachweise']) {
      const page = await agent.get(`/de/bewegungsdaten/${path}?q=Quatschwort`);
      expect(page.status).toBe(200);
      const texts = page.text.match(/Keine Einträge[^<]*/g) ?? [];
      expect(texts, path).toEqual(['Keine Einträge passen zu Ihren Filtern.']);
    }
  });
});

describe('the word index', () => {
  it('keeps each piece between white space and each piece between punctuation, in lower case', async () => {
    const { rows } = await t.db.knex.raw('select wort from suchwoerter_aus(array[?, ?, ?, null]) order by wort', ['T-POC-2', 'HH-XY 4711', 'Warum? (Tank 3)']);
    expect(rows.map((r: { wort: string }) => r.wort)).toEqual(['2', '3', '4711', 'hh', 'hh-xy', 'poc', 't', 't-poc-2', 'tank', 'warum', 'xy']);
  });

  it("keeps exactly the columns each list's search names (the migration's triggers)", async () => {
    const { rows } = await t.db.knex.raw(
      `select c.relname as table, pg_get_triggerdef(g.oid) as def from pg_trigger g join pg_class c on c.oid = g.tgrelid where g.tgname like '%\\_suchwoerter\\_ins'`,
    );
    const triggers = new Map<string, string[]>(rows.map((r: { table: string; def: string }) => [r.table, [...r.def.matchAll(/'([a-z_]+)'/g)].map((m) => m[1])]));
    const searches: ListSearch[] = [...BEWEGUNGSDATEN_ENTITIES.map((e) => e.list.search), bilanzListe.search, pocListe.search];
    for (const search of searches) {
      expect(isIndexed(search)).toBe(true);
      if (!isIndexed(search) || !search.words.length) continue;
      expect(triggers.get(search.table), search.table).toEqual([...search.words]);
    }
  });
});
