// Cross-tenant isolation over every /api route the app registers (enumerated at runtime, so new routes are
// covered without editing this file): a DEMO tenant administrator aims each route at NORD's records, with
// X-Mandant DEMO, NORD, missing and unknown. Nothing may succeed against NORD data, nothing may answer 5xx,
// errors keep the contract's shape, and NORD's rows are byte-for-byte the same afterwards. The same sweep runs
// as a DEMO API key holding every role type (a key needs no X-Mandant: its tenant is its own).
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextNumber } from '../db/numbers.js';
import { TenantScope } from '../db/scope.js';
import { BEWEGUNGSDATEN_ENTITIES } from '../features/bewegungsdaten/registry.js';
import { STAMMDATEN_ENTITIES } from '../features/stammdaten/registry.js';
import { createTestApp, type TestApp } from '../testing/app.js';
import { apiRoutes, expectErrorShape, fillPath, isTenantExempt, paramNames, type ApiRoute } from './routes.js';

const EXCLUDED_TABLES = new Set(['audit_log', 'sessions', 'rate_limits']);
const BODY = {
  nr: 'SEC01', name: 'Sicherheitstest', version: 1, status: 'inaktiv', aktiv: false, login: 'SECTEST', email: 'sec@example.com',
  vorname: 'Sec', nachname: 'Test', prioritaet: 1, biogehalt: '1', typ: 1, data: '{}', mandant: 'NORD', adminKz: true,
};

type Row = Record<string, unknown>;
let t: TestApp;
let routes: ApiRoute[];
let mandantTables: string[];
let nordUserId: number;
let nordRegel: { id: number; partner_nr: string } | undefined;
const nordNr = new Map<string, string>(); // table -> one NORD nr
let nordIdentifiers: string[] = [];
let before: Record<string, string[]>;
let token: string;
let demoKey: string;

const login = async () => (await request(t.app).post('/api/v1/account/login').send({ login: 'TADMIN', password: 'Tadmin12345' })).body.token as string;

async function snapshot(): Promise<Record<string, string[]>> {
  const snap: Record<string, string[]> = {};
  for (const table of mandantTables) {
    const rows: Row[] = await t.db.knex(table).where({ mandant: 'NORD' }).select('*');
    snap[table] = rows.map((r) => JSON.stringify(r)).sort();
  }
  snap['benutzer (NORD-only user)'] = (await t.db.knex('benutzer').where({ id: nordUserId }).select('*')).map((r: Row) => JSON.stringify(r));
  return snap;
}

/** Path parameter values pointing at NORD's data; `nord` lists the parameters that really name a NORD record. */
function nordValues(route: ApiRoute): { values: Record<string, string>; nord: string[] } {
  const segments = route.path.split('/');
  const values: Record<string, string> = {};
  const nord: string[] = [];
  const resourceOf = (name: string) => segments[segments.findIndex((s) => s === `:${name}` || s === `*${name}`) - 1] ?? '';
  for (const name of paramNames(route.path)) {
    const resource = resourceOf(name);
    let value: string | undefined;
    if (name === 'regel' && nordRegel) value = String(nordRegel.id);
    else if (name === 'nr' && resource === 'tauschpartner' && paramNames(route.path).includes('regel') && nordRegel) value = nordRegel.partner_nr;
    else if (resource === 'mandanten') value = 'NORD';
    else if (resource === 'benutzer' || resource === 'berechtigungen' || /user/i.test(name)) value = String(nordUserId);
    else if (name === 'nr' && nordNr.has(resource)) value = nordNr.get(resource);
    if (value !== undefined) nord.push(name);
    else if (name === 'typ') value = '1';
    else if (name === 'entity') value = 'standorte';
    else value = '999999';
    values[name] = value;
  }
  return { values, nord };
}

const RECORD_ENTITIES = [...STAMMDATEN_ENTITIES, ...BEWEGUNGSDATEN_ENTITIES];

beforeAll(async () => {
  // The key's sweep makes some 700 calls within seconds: its rate limit must not answer them instead.
  t = await createTestApp({ apiKeyRateLimit: 100_000 });
  const knex = t.db.knex;
  routes = apiRoutes(t.app);
  const resources = new Set(routes.map((r) => r.path.match(/^\/api\/([^/]+)\/:nr/)?.[1]).filter(Boolean));
  const cols: { table_name: string }[] = (
    await knex.raw(`select distinct table_name from information_schema.columns where column_name = 'mandant' and table_schema = current_schema() order by table_name`)
  ).rows;
  mandantTables = cols.map((c) => c.table_name).filter((n) => !EXCLUDED_TABLES.has(n));
  expect(mandantTables).toEqual(expect.arrayContaining(['standorte', 'produkte', 'tauschpartner']));

  // A user who belongs to NORD only.
  const [{ id }] = await knex('benutzer')
    .insert({ login: 'NORDONLY', email: 'nordonly@nordsee.example', vorname: 'Nora', nachname: 'Nord', password_hash: 'x', admin_kz: false, support_kz: false })
    .returning('id');
  nordUserId = Number(id);
  await knex('benutzer_mandanten').insert({ mandant: 'NORD', benutzer_id: nordUserId, admin_kz: true });

  // One NORD number per table that has one (any stammdaten resource, present or future), and the identifiers
  // that exist only in NORD (numbers and names DEMO does not also have).
  const ids = new Set<string>(['NORDONLY']);
  for (const table of mandantTables) {
    const info = await knex(table).columnInfo();
    const columns = Object.keys(info);
    if (!columns.includes('nr')) continue;
    const row = await knex(table).where({ mandant: 'NORD' }).orderBy('nr').first('nr');
    if (row && resources.has(table)) nordNr.set(table, String(row.nr));
    // A record's number or name is text; an integer `nr` is a line's position within its record (a Bilanz's
    // lines 1, 2, …), not an identifier: how many lines NORD's Bilanz has over DEMO's says nothing of a leak.
    for (const col of ['nr', 'name'].filter((c) => columns.includes(c) && !/int/i.test(String(info[c].type)))) {
      const demo = new Set((await knex(table).where({ mandant: 'DEMO' }).distinct(col)).map((r: Row) => String(r[col])));
      for (const r of await knex(table).where({ mandant: 'NORD' }).distinct(col)) if (r[col] != null && !demo.has(String(r[col]))) ids.add(String(r[col]));
    }
  }
  expect(nordNr.get('standorte')).toBe('2001');
  const produkt = await knex.raw(`select nr from produkte where mandant='NORD' limit 1`);
  nordNr.set('produkte', String(produkt.rows[0].nr));
  expect(nordNr.has('tauschpartner')).toBe(true);
  // Products and partners carry the same numbers in both tenants (P001…, TP001…): with X-Mandant DEMO such a
  // number names DEMO's own record. So each NORD number DEMO also has is replaced by a NORD-only copy, made by
  // the system administrator through the API (GET the NORD record, POST it back under a new number).
  const adminToken = (await request(t.app).post('/api/v1/account/login').send({ login: 'ADMIN', password: 'Admin12345' })).body.token as string;
  const nordAdmin = { Authorization: adminToken, 'X-Mandant': 'NORD' };
  for (const [table, nr] of [...nordNr]) {
    if (!(await knex(table).where({ mandant: 'DEMO', nr }).first('nr'))) continue;
    // Numbers the portal assigns (a stock figure's) cannot be chosen: NORD's range runs far ahead instead, and its
    // record takes the next number from it.
    if (RECORD_ENTITIES.find((e) => e.resource === table)?.generateNr) {
      const far = `${await nextNumber(new TenantScope(knex, 'NORD'), table)}${'0'.repeat(6)}`;
      await knex(table).where({ mandant: 'NORD', nr }).update({ nr: far });
      await knex(`${table}_versionen`).where({ mandant: 'NORD', nr }).update({ nr: far });
      nordNr.set(table, far);
      ids.add(far);
      continue;
    }
    const got = await request(t.app).get(`/api/${table}/${encodeURIComponent(nr)}`).set(nordAdmin);
    expect(got.status, `GET NORD ${table} ${nr} as ADMIN`).toBe(200);
    const { version: _v, status: _s, updatedAt: _u, regeln: _r, ...copy } = got.body.data as Row;
    const clone = `N${table.slice(0, 3).toUpperCase()}9`;
    const made = await request(t.app).post(`/api/${table}`).set(nordAdmin).send({ ...Object.fromEntries(Object.entries(copy).filter(([, x]) => x != null)), nr: clone });
    expect(made.status, `create NORD-only ${table} ${clone}: ${made.text}`).toBe(201);
    nordNr.set(table, clone);
    ids.add(clone);
  }
  // A NORD-only partner rule, so /regeln/:regel routes name a NORD record.
  await request(t.app).post(`/api/tauschpartner/${nordNr.get('tauschpartner')}/regeln`).set(nordAdmin).send({ standortNr: '2001', prioritaet: 1, biogehalt: '10' });
  nordRegel = await knex('tauschpartner_regeln').where({ mandant: 'NORD', partner_nr: nordNr.get('tauschpartner') }).orderBy('id').first('id', 'partner_nr');
  expect(nordRegel, 'a NORD rule on the NORD-only partner').toBeDefined();
  for (let n = 2001; n <= 2012; n++) ids.add(String(n));
  nordIdentifiers = [...ids];

  token = await login();
  const made = await request(t.app).post('/api/api-keys').set({ Authorization: token, 'X-Mandant': 'DEMO' })
    .send({ name: 'Sicherheitstest', rollen: Array.from({ length: 25 }, (_, i) => i + 1) });
  expect(made.status, made.text).toBe(201);
  demoKey = made.body.data.key;
  before = await snapshot();
}, 120_000);

afterAll(() => t?.close());

describe('cross-tenant isolation over every /api route', () => {
  it('enumerates the registered routes', () => {
    console.info(`cross-tenant: ${routes.length} /api routes: ${routes.map((r) => `${r.method.toUpperCase()} ${r.path}`).join(', ')}`);
    expect(routes.length).toBeGreaterThanOrEqual(30);
    expect(routes).toContainEqual({ method: 'get', path: '/api/standorte/:nr' });
  });

  /** Aims every route at NORD as `who`; `tenantless` says whether a call without X-Mandant is the caller's own tenant (a key). */
  async function sweep(who: string, auth: () => string, tenantless: boolean, relogin?: () => Promise<void>) {
    const failures: string[] = [];
    const variants: { label: string; mandant: string | null }[] = [
      { label: 'X-Mandant DEMO', mandant: 'DEMO' },
      { label: 'X-Mandant NORD', mandant: 'NORD' },
      { label: 'no X-Mandant', mandant: null },
      { label: 'X-Mandant GIBTSNICHT', mandant: 'GIBTSNICHT' },
    ];
    let calls = 0;
    const statuses: Record<string, number> = {};
    const succeeded: string[] = [];
    for (const route of routes) {
      const { values, nord } = nordValues(route);
      const url = fillPath(route.path, values);
      for (const v of variants) {
        let req = request(t.app)[route.method](url).set('Authorization', auth()).set('Accept', 'application/json');
        if (v.mandant) req = req.set('X-Mandant', v.mandant);
        if (['post', 'put', 'patch'].includes(route.method)) req = req.send(BODY);
        const res = await req;
        calls++;
        statuses[`${v.label} ${res.status}`] = (statuses[`${v.label} ${res.status}`] ?? 0) + 1;
        const ctx = `${who}: ${route.method.toUpperCase()} ${url} (${route.path}) with ${v.label} → ${res.status}`;
        const text = res.text ?? '';
        if (res.status >= 500) failures.push(`${ctx}: server error ${text.slice(0, 300)}`);
        const ok = res.status >= 200 && res.status < 300;
        // Calls the contract exempts from X-Mandant are not tenant-scoped: they may succeed whatever the header says.
        const allowed = nord.length === 0 && (v.mandant === 'DEMO' || (tenantless && v.mandant === null) || isTenantExempt(route.path));
        if (ok && !allowed) failures.push(`${ctx}: succeeded against NORD (${nord.length ? `NORD params ${nord.join(',')}` : v.label}): ${text.slice(0, 300)}`);
        if (ok) {
          succeeded.push(`${route.method.toUpperCase()} ${url} [${v.label}]`);
          const leaked = nordIdentifiers.filter((id) => text.includes(JSON.stringify(id)));
          if (/Nordsee/i.test(text)) leaked.push('Nordsee');
          if (leaked.length) failures.push(`${ctx}: response contains NORD identifiers ${leaked.join(', ')}`);
        } else if (res.status >= 400) {
          try {
            expectErrorShape(res.body, ctx);
          } catch (e) {
            failures.push(`${ctx}: error not in contract shape: ${(res.headers['content-type'] ?? '')} ${text.slice(0, 200)}`);
          }
          if (/Nordsee|Wilhelmshaven|NORDONLY/.test(text)) failures.push(`${ctx}: error message names NORD data: ${text.slice(0, 200)}`);
        }
      }
      await relogin?.();
    }
    console.info(`cross-tenant (${who}): ${calls} calls; statuses ${JSON.stringify(statuses)}; succeeded (allowed): ${succeeded.join(', ')}`);
    expect(failures, failures.join('\n')).toEqual([]);
  }

  it('never lets a DEMO tenant admin read or change NORD data, never 5xx, errors in contract shape', async () => {
    // A route may end the session (logout): carry on signed in.
    await sweep('TADMIN', () => token, false, async () => {
      if ((await request(t.app).get('/api/v1/account/session').set('Authorization', token)).status !== 200) token = await login();
    });
  }, 120_000);

  it('never lets a DEMO API key read or change NORD data, whatever X-Mandant says', async () => {
    await sweep('DEMO API key', () => `Bearer ${demoKey}`, true);
  }, 120_000);

  it("leaves every NORD row unchanged (all tables with a mandant column but audit_log, sessions, rate_limits)", async () => {
    const after = await snapshot();
    for (const table of Object.keys(before)) expect(after[table], `NORD rows of ${table}`).toEqual(before[table]);
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
  });
});
