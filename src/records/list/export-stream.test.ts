// The CSV export of a list larger than one chunk: every matching row once, in the page's order, across chunk
// boundaries, and nothing of another tenant.
import { createTestApp, type TestApp } from '../../testing/app.js';
import { signIn } from '../../testing/session.js';
import { EXPORT_CHUNK as CSV_CHUNK } from '../export/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('CSV export of a long list', () => {
  it('holds every matching row once, in the sorted order, over several chunks, and only the own tenant', async () => {
    const count = 2 * CSV_CHUNK + 345;
    const rows = Array.from({ length: count }, (_, i) => ({
      mandant: 'DEMO', nr: `X${String(i).padStart(5, '0')}`,
      // Names that sort differently from the numbers, with ties broken by the number.
      name: `Hvo ${String((i * 7919) % 500).padStart(3, '0')}`, produktgruppe: i % 3 === 0 ? 'diesel' : 'hvo', biogehalt: '100', lcv: '34', lcv_einheit: 'MJ/L',
    }));
    await t.db.knex.batchInsert('produkte', rows, 500);
    await t.db.knex('produkte').insert({ mandant: 'NORD', nr: 'X99999', name: 'Hvo 999', produktgruppe: 'hvo', biogehalt: '100', lcv: '34', lcv_einheit: 'MJ/L' });

    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const res = await agent.get('/de/stammdaten/produkte?produktgruppe=hvo&sort=name:desc&format=csv');
    expect(res.status).toBe(200);
    const lines = res.text.replace(/^\uFEFF/, '').split('\r\n').filter(Boolean).slice(1);
    const exported = lines.map((l) => l.split(';')[0]);

    const expected = (await t.db.knex('produkte').where({ mandant: 'DEMO', produktgruppe: 'hvo' })
      .orderByRaw('lower(name) desc nulls last, nr desc').select('nr')).map((r: { nr: string }) => r.nr);
    expect(expected.length).toBeGreaterThan(CSV_CHUNK);
    expect(exported).toEqual(expected);
    expect(exported).not.toContain('X99999');
  });

  it('that fails after its first line is cut off, never delivered as a file that looks whole', async () => {
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    // The rows' names come from the partners' versions: without the right to read them, the first chunk fails
    // after the header line is out.
    await t.db.knex.raw('revoke select on tauschpartner_versionen from portal_app');
    try {
      const res = await agent.get('/de/bewegungsdaten/einlieferungen?format=csv').buffer(true).then(
        (r) => ({ complete: true, text: r.text }),
        (err: Error & { code?: string }) => ({ complete: false, text: String(err.code ?? err.message) }),
      );
      expect(res.complete, res.text.slice(0, 200)).toBe(false);
    } finally {
      await t.db.knex.raw('grant select on tauschpartner_versionen to portal_app');
    }
    // And whole again once it can be read.
    const ok = await agent.get('/de/bewegungsdaten/einlieferungen?format=csv');
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('Summe');
  });
});
