// The demo certificates and proofs (src/seeds/nachweise.ts) as every integration test finds them in the seeded
// snapshot: each tenant has its own, every status and warning of issue 14 is there, every figure is what the
// real code computes, the rests add up, the versions tell the story, and each PoS is a PDF to download.
import { createHash } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Produktgruppe } from '../domain/fuels.js';
import { gesetzeswerteAm } from '../features/gesetzeswerte/service.js';
import { heuteInDeutschland } from '../features/zuordnung/service.js';
import { completeNachweis, MERKMALE, nachweisStore, type Nachweis } from '../features/nachweise/nachweis.js';
import { merkmaleAus, nbStore, type Nachweisbescheinigung } from '../features/nachweisbescheinigungen/config.js';
import type { Meta } from '../db/versioned.js';
import type { FileRef } from '../records/files.js';
import { createTestApp, type TestApp } from '../testing/app.js';
import { extractPdfText } from '../testing/pdf-text.js';
import { signIn } from '../testing/session.js';

type Row = Record<string, unknown>;
type N = Nachweis & Meta;
type B = Nachweisbescheinigung & Meta;

let t: TestApp;
const data: Record<string, { nachweise: N[]; nbs: B[] }> = {};
// Today in Germany, the app's today (certificates created through it may be dated so); UTC's is a day behind
// between midnight in Germany and midnight UTC.
const today = () => heuteInDeutschland();
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

beforeAll(async () => {
  t = await createTestApp();
  for (const mandant of ['DEMO', 'NORD']) {
    const nachweise = ((await t.db.knex('nachweise').where({ mandant }).select('*')) as Row[]).map((r) => nachweisStore.fromRow(r));
    const nbs = ((await t.db.knex('nachweisbescheinigungen').where({ mandant }).select('*')) as Row[]).map((r) => nbStore.fromRow(r));
    data[mandant] = { nachweise, nbs };
  }
});
afterAll(() => t.close());

const token = async (login: string, password: string) => (await request(t.app).post('/api/v1/account/login').send({ login, password })).body.token as string;
/** A download as it is sent: its bytes. */
const download = (path: string, headers: Record<string, string>) =>
  request(t.app).get(path).set(headers).buffer(true).parse((r, done) => {
    const chunks: Buffer[] = [];
    r.on('data', (c: Buffer) => chunks.push(c)).on('end', () => done(null, Buffer.concat(chunks)));
  });
/** Warnings compared by what they say: a value in their params by its number (as typed or as stored). */
const befunde = (x: Nachweis) => (x.hinweise ?? []).map((h) => ({
  ...h, params: Object.fromEntries(Object.entries(h.params ?? {}).map(([k, v]) => [k, /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v])),
}));

describe.each(['DEMO', 'NORD'])('the demo certificates of %s', (mandant) => {
  const n = () => data[mandant].nachweise;
  const nbs = () => data[mandant].nbs;
  const codes = (x: N) => (x.hinweise ?? []).map((h) => h.code);

  it('are about 60 certificates and 20 proofs of its own', () => {
    expect(n().length).toBeGreaterThanOrEqual(55);
    expect(n().length).toBeLessThanOrEqual(70);
    // Proofs issued for outbound deliveries are the chain of custody's (src/seeds/lieferkette.test.ts).
    const eigene = nbs().filter((b) => !b.ablieferungNr);
    expect(eigene.length).toBeGreaterThanOrEqual(18);
    expect(eigene.length).toBeLessThanOrEqual(25);
    // The PoS numbers are the tenant's own (parts and proofs are numbered per tenant: TN-…, NB-…).
    const other = mandant === 'DEMO' ? 'NORD' : 'DEMO';
    const own = (m: string) => data[m].nachweise.filter((x) => !x.referenzNachweisNr).map((x) => x.nr);
    expect(own(mandant).filter((nr) => own(other).includes(nr))).toEqual([]);
    for (const x of n()) expect(x.nr).toMatch(x.referenzNachweisNr ? /^TN-\d+$/ : /^[A-Za-z0-9._-]{1,32}$/);
    for (const b of nbs()) expect(b.nr).toMatch(/^NB-\d+$/);
  });

  it('cover the schemes, raw materials, countries, groups, units and threshold bands', () => {
    const set = (f: (x: N) => unknown) => new Set(n().map(f));
    for (const s of ['ISCC EU', 'REDcert-EU', '2BSvs', 'SURE-EU', 'Nabisy']) expect(set((x) => x.zertifizierungssystem)).toContain(s);
    for (const r of ['raps', 'altspeiseoel', 'tierfett', 'mais', 'zuckerruebe', 'weizen', 'sonnenblume', 'soja', 'pome', 'agrarreststoffe']) expect(set((x) => x.rohstoff)).toContain(r);
    for (const l of ['DE', 'FR', 'PL', 'NL', 'AT', 'UA', 'CN', 'US', 'MY', 'ID', 'BR', 'AR']) expect(set((x) => x.herkunftsland)).toContain(l);
    for (const gruppe of ['biodiesel', 'hvo', 'bioethanol', 'pflanzenoel']) expect(set((x) => x.produktgruppe)).toContain(gruppe);
    expect(set((x) => x.einheit)).toEqual(new Set(['L', 'kg']));
    expect(set((x) => x.schwelle)).toEqual(new Set(['50.00', '60.00', '65.00']));
    for (const x of n()) {
      expect(Number(x.menge)).toBeGreaterThanOrEqual(x.referenzNachweisNr ? 1 : 5000);
      expect(Number(x.menge)).toBeLessThanOrEqual(200_000);
      expect(x.ausstellungsdatum! <= today()).toBe(true);
    }
  });

  it('show every status and warning of the pages', () => {
    const parts = n().filter((x) => x.referenzNachweisNr);
    expect(parts.length).toBeGreaterThanOrEqual(4);
    // A part undone: cancelled, nothing left, its quantity back on its parent.
    expect(parts.some((x) => x.storniert && Number(x.mengeVerbleibend) === 0)).toBe(true);
    // A certificate cancelled unused (not a part).
    expect(n().some((x) => !x.referenzNachweisNr && x.storniert && Number(x.mengeVerbleibend) === 0)).toBe(true);
    for (const code of ['EEC_BEI_ABFALL', 'SUMME_WEICHT_AB', 'DICHTE_WEICHT_AB', 'EL_NEGATIV', 'ANLAGE_UNBEKANNT', 'EINSPARUNG_HOCH']) {
      expect(n().filter((x) => codes(x).includes(code as never)).length, code).toBeGreaterThanOrEqual(1);
    }
    expect(n().find((x) => codes(x).includes('ANLAGE_UNBEKANNT'))!.anlageInbetriebnahme).toBeNull();
    const nicht = n().filter((x) => !x.nachhaltig);
    expect(nicht).toHaveLength(1);
    expect(Number(nicht[0].einsparung)).toBeLessThan(Number(nicht[0].schwelle));
    expect(n().filter((x) => x.vorlaeufig && !x.storniert).length).toBeGreaterThanOrEqual(2);
    // Certificates whose whole quantity is used, and unused ones.
    expect(n().some((x) => !x.storniert && Number(x.mengeVerbleibend) === 0)).toBe(true);
    expect(n().some((x) => Number(x.mengeVerbleibend) === Number(x.menge))).toBe(true);
    // Proofs: split ones, two used up by their parts, one cancelled, one made from a part.
    const nbParts = nbs().filter((b) => b.referenzNachweisNr);
    expect(new Set(nbParts.map((b) => b.referenzNachweisNr)).size).toBeGreaterThanOrEqual(2);
    expect(nbs().filter((b) => !b.storniert && Number(b.volumenVerbleibend) === 0 && nbParts.some((p) => p.referenzNachweisNr === b.nr)).length).toBeGreaterThanOrEqual(2);
    expect(nbs().some((b) => b.storniert && Number(b.volumenVerbleibend) === 0)).toBe(true);
    expect(nbs().some((b) => b.nachweisNr.startsWith('TN-'))).toBe(true);
    expect(nbs().some((b) => !b.storniert && Number(b.volumenVerbleibend) > 0)).toBe(true);
  });

  it('carry the figures the real code computes, with the law values of their issue date, and no errors', async () => {
    const gruppen = new Map(((await t.db.knex('produkte').where({ mandant }).select('nr', 'produktgruppe')) as Row[]).map((r) => [String(r.nr), r.produktgruppe as Produktgruppe]));
    for (const x of n()) {
      const werte = await gesetzeswerteAm(t.db.knex, x.ausstellungsdatum!);
      const done = completeNachweis({ ...x }, null, { produktgruppe: gruppen.get(x.produktNr)!, werte, heute: today(), anlageOptional: !x.anlageInbetriebnahme });
      expect(done.errors, x.nr).toEqual([]);
      const c = done.nachweis;
      for (const f of ['thg', 'einsparung', 'schwelle', 'vergleichswert', 'basiswert', 'lcv', 'energiegehalt'] as const) expect(num(x[f]), `${x.nr} ${f}`).toBe(num(c[f]));
      // Tonnes are exact in the engine and kept to six decimals.
      expect(Math.abs(Number(x.thgMinderungT) - Number(c.thgMinderungT)), x.nr).toBeLessThanOrEqual(5e-7);
      expect(x.produktgruppe).toBe(c.produktgruppe);
      expect(befunde(x), x.nr).toEqual(befunde(c));
    }
  });

  it('have parts that copy every characteristic of their parent, their energy their own', () => {
    const byNr = new Map(n().map((x) => [x.nr, x]));
    for (const part of n().filter((x) => x.referenzNachweisNr)) {
      const parent = byNr.get(part.referenzNachweisNr!)!;
      for (const f of [...MERKMALE, 'thg', 'einsparung', 'schwelle', 'hinweise', 'vergleichswert', 'basiswert'] as (keyof N)[]) expect(part[f], `${part.nr} ${String(f)}`).toEqual(parent[f]);
      expect(Number(part.energiegehalt)).toBeCloseTo((Number(parent.energiegehalt) * Number(part.menge)) / Number(parent.menge), 3);
    }
  });

  it('have rests that add up: quantity = rest + live parts + live proofs taken from it', () => {
    for (const x of n()) {
      if (x.storniert) {
        expect(Number(x.mengeVerbleibend), x.nr).toBe(0);
        continue;
      }
      const parts = n().filter((p) => p.referenzNachweisNr === x.nr && !p.storniert).reduce((s, p) => s + Number(p.menge), 0);
      const proofs = nbs().filter((b) => b.nachweisNr === x.nr && !b.referenzNachweisNr && !b.storniert).reduce((s, b) => s + Number(b.volumen), 0);
      expect(Number(x.mengeVerbleibend) + parts + proofs, x.nr).toBeCloseTo(Number(x.menge), 3);
    }
    // A proof issued for an outbound delivery has nothing left: its volume went with the delivery.
    for (const b of nbs().filter((x) => !x.referenzNachweisNr && !x.storniert && !x.ablieferungNr)) {
      const parts = nbs().filter((p) => p.referenzNachweisNr === b.nr && !p.storniert).reduce((s, p) => s + Number(p.volumen), 0);
      expect(Number(b.volumenVerbleibend) + parts, b.nr).toBeCloseTo(Number(b.volumen), 3);
    }
  });

  it('have proofs with the characteristics of their certificate when they were made', async () => {
    const byNr = new Map(n().map((x) => [x.nr, x]));
    const namen = new Map(((await t.db.knex('produkte').where({ mandant }).select('nr', 'name')) as Row[]).map((r) => [String(r.nr), String(r.name)]));
    for (const b of nbs().filter((x) => !x.referenzNachweisNr)) {
      const cert = byNr.get(b.nachweisNr)!;
      const m = merkmaleAus(cert, String(b.volumen), namen.get(cert.produktNr) ?? null);
      for (const [f, v] of Object.entries(m)) {
        if (f === 'volumenVerbleibend') continue;
        const stored = b[f as keyof B];
        expect(typeof v === 'string' && /^-?\d/.test(v) ? num(stored) : stored, `${b.nr} ${f}`).toEqual(typeof v === 'string' && /^-?\d/.test(v) ? num(v) : v);
      }
    }
  });

  it('continue the number ranges: the next part and proof get new numbers', async () => {
    const letzte = async (kreis: string) => Number((await t.db.knex('nummernkreise').where({ mandant, kreis }).first('letzte'))?.letzte ?? 0);
    const highest = (nrs: string[]) => Math.max(...nrs.map((nr) => Number(nr.replace(/^\D+/, ''))));
    expect(await letzte('teilnachweise')).toBeGreaterThanOrEqual(highest(n().filter((x) => x.referenzNachweisNr).map((x) => x.nr)));
    expect(await letzte('nachweisbescheinigungen')).toBeGreaterThanOrEqual(highest(nbs().map((b) => b.nr)));
  });

  it('keep their history as versions written by the demo data, the last one the current state', async () => {
    for (const [table, rows, rest] of [['nachweise', n(), 'mengeVerbleibend'], ['nachweisbescheinigungen', nbs(), 'volumenVerbleibend']] as const) {
      const versions = (await t.db.knex(`${table}_versionen`).where({ mandant }).orderBy('version').select('*')) as Row[];
      for (const r of rows as unknown as (Row & Meta)[]) {
        const own = versions.filter((v) => v.nr === r.nr);
        expect(own.map((v) => v.version), r.nr).toEqual(Array.from({ length: r.version }, (_, i) => i + 1));
        expect(own.every((v) => v.quelle === 'demo' && v.benutzer_id === null)).toBe(true);
        const last = own.at(-1)!.data as Row;
        expect(num(last[rest]), r.nr).toBe(num(r[rest]));
        expect(last.storniert).toBe(r.storniert);
        // Version 1 is the record as it was entered: all of its quantity left, not cancelled.
        const first = own[0].data as Row;
        expect(num(first[rest]), r.nr).toBe(r.ablieferungNr ? 0 : num(r[table === 'nachweise' ? 'menge' : 'volumen']));
        expect(first.storniert).toBe(false);
      }
    }
  });

  it('each have their PoS as a PDF in the tenant\'s files, parts sharing their parent\'s', async () => {
    const byNr = new Map(n().map((x) => [x.nr, x]));
    const files = new Map(((await t.db.knex('dateien').where({ mandant }).select('id', 'sha256', 'groesse', 'inhalt')) as Row[]).map((r) => [String(r.id), r]));
    for (const x of n()) {
      const ref = x.datei as FileRef;
      expect(ref, x.nr).toMatchObject({ type: 'application/pdf', name: `${x.referenzNachweisNr ?? x.nr}.pdf` });
      if (x.referenzNachweisNr) expect(ref).toEqual(byNr.get(x.referenzNachweisNr)!.datei);
      const file = files.get(ref.id)!;
      const inhalt = Buffer.from(file.inhalt as Uint8Array);
      expect(createHash('sha256').update(inhalt).digest('hex')).toBe(ref.sha256);
      expect(Number(file.groesse)).toBe(ref.size);
      expect(inhalt.subarray(0, 5).toString()).toBe('%PDF-');
    }
  });
});

describe('the demo certificates through the app', () => {
  it('download as the PoS PDF through the API, in the tenant of the certificate only', async () => {
    const auth = await token('ADMIN', 'Admin12345');
    const sample = data.NORD.nachweise.find((x) => !x.referenzNachweisNr && (x.hinweise ?? []).some((h) => h.code === 'EL_NEGATIV'))!;
    const res = await download(`/api/nachweise/${encodeURIComponent(sample.nr)}/datei`, { Authorization: auth, 'X-Mandant': 'NORD' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect((res.body as Buffer).subarray(0, 5).toString()).toBe('%PDF-');
    const text = (await extractPdfText(res.body as Buffer)).join('\n');
    expect(text).toContain('Nachhaltigkeitsnachweis (Proof of Sustainability)');
    expect(text).toContain(sample.nr);
    expect(text).toContain(String(sample.lieferant));
    // A part's file is its parent's.
    const part = data.NORD.nachweise.find((x) => x.referenzNachweisNr)!;
    const partFile = await download(`/api/nachweise/${part.nr}/datei`, { Authorization: auth, 'X-Mandant': 'NORD' });
    expect(createHash('sha256').update(partFile.body as Buffer).digest('hex')).toBe((part.datei as FileRef).sha256);
    // NORD's certificate is not DEMO's.
    expect((await request(t.app).get(`/api/nachweise/${encodeURIComponent(sample.nr)}`).set({ Authorization: auth, 'X-Mandant': 'DEMO' })).status).toBe(404);
  });

  it('show the one below its threshold as "Nicht erfüllt", and the warnings on the page', async () => {
    const agent = await signIn(t.app, 'ADMIN', 'Admin12345', 'DEMO');
    const nicht = data.DEMO.nachweise.find((x) => !x.nachhaltig)!;
    const page = await agent.get(`/de/bewegungsdaten/nachweise/${encodeURIComponent(nicht.nr)}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Nicht erfüllt');
    const list = await agent.get('/de/bewegungsdaten/nachweise?mitHinweisen=true');
    expect(list.status).toBe(200);
    for (const x of data.DEMO.nachweise.filter((y) => (y.hinweise ?? []).length)) expect(list.text).toContain(x.nr);
  });
});
