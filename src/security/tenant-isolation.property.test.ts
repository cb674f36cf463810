// Property: whatever mix of users, tenants, list pages, searches and record numbers arrives at once, every
// answer holds only the caller's tenant's records. Random batches of requests from ADMIN, TADMIN, USER and LESER
// in DEMO and NORD (also in tenants they do not belong to) run concurrently against every list resource the app
// registers (GET /api/<resource> with a GET /api/<resource>/:<key> beside it, so new resources join by
// themselves; a resource must have a tenant-owned table of its name, or be named a platform resource or one
// derived from other tenant tables) and
// their detail route. Each tenant's records are read from the database beforehand; NORD's
// names are marked, so a leak shows even where both tenants use the same numbers (the demo catalogues do).
// FUZZ_SEED=<n> replays a run; PROPERTY_RUNS=<n> runs more.
import fc from 'fast-check';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mandantTables, PLATFORM_TABLES, setTenant } from '../db/rls.js';
import { createTestApp, type TestApp } from '../testing/app.js';
import { apiRoutes } from './routes.js';

const TENANTS = ['DEMO', 'NORD'] as const;
type Tenant = (typeof TENANTS)[number];
const USERS = { ADMIN: 'Admin12345', TADMIN: 'Tadmin12345', USER: 'User12345', LESER: 'Leser12345' } as const;
type Login = keyof typeof USERS;
const NORD_MARK = ' · NORD';
/** List resources that are not a tenant's data, and why (their own tests cover who sees what). */
const PLATFORM_RESOURCES: Record<string, string> = {
  benutzer: 'users are global; administrators see members of their tenant (benutzer.test.ts, cross-tenant.test.ts)',
  mandanten: 'the tenants themselves, for system administrators (mandanten.test.ts)',
  logmeldungen: 'the audit log, for support across the tenants they belong to (logmeldungen.test.ts)',
  'thg-anzeige': 'no list: the current tenant\'s publication, and the public display behind a secret link that names its tenant (thg-anzeige.test.ts)',
  reports: 'the report catalogue (code, the same for every tenant); each report reads through the tenant scope and another tenant\'s numbers are unknown to it (reports.test.ts)',
};

/**
 * List resources whose rows are another resource's tenant tables seen together, and which: their records are
 * those tables' rows (by key).
 */
const DERIVED_RESOURCES: Record<string, { tables: string[]; why: string }> = {
  nachweisverfolgung: { tables: ['ablieferungen', 'einlieferungen'], why: 'the deliveries to trace: both delivery tables (nachweisverfolgung.test.ts)' },
};

interface Resource {
  name: string;
  /** The detail route's parameter, which is also the record's key column and field. */
  key: string;
  /** Per tenant: key → name (null where the table has no name column). */
  records: Record<Tenant, Map<string, string | null>>;
}

interface Call {
  login: Login;
  tenant: Tenant;
  resource: number;
  kind: 'list' | 'detail';
  /** Detail: a key of either tenant, or one of neither. */
  key: { of: Tenant | 'none'; index: number };
  page: number;
  pageSize: number;
  q: string | null;
}

let t: TestApp;
let resources: Resource[];
let tokens: Record<Login, string>;
let members: Record<Login, Set<string>>;
const checked: Record<Tenant, number> = { DEMO: 0, NORD: 0 };
const runs = (n: number) => ({ numRuns: Number(process.env.PROPERTY_RUNS ?? n), ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}) });

beforeAll(async () => {
  t = await createTestApp();
  const knex = t.db.knex;
  const routes = apiRoutes(t.app).filter((r) => r.method === 'get');
  const found: { name: string; key: string }[] = [];
  for (const r of routes) {
    const list = r.path.match(/^\/api\/([a-z][\w-]*)$/)?.[1];
    if (!list) continue;
    const detail = routes.find((d) => new RegExp(`^/api/${list}/:(\\w+)$`).test(d.path));
    if (detail) found.push({ name: list, key: detail.path.split(':')[1] });
  }
  expect(found.map((f) => f.name)).toEqual(expect.arrayContaining(['produkte', 'standorte', 'tauschpartner']));

  resources = [];
  const tenantTables = new Set((await mandantTables(knex)).map((x) => x.table).filter((name) => !(name in PLATFORM_TABLES)));
  for (const { name, key } of found) {
    if (name in PLATFORM_RESOURCES) continue;
    const derived = DERIVED_RESOURCES[name];
    if (derived) {
      const records = { DEMO: new Map(), NORD: new Map() } as Resource['records'];
      for (const table of derived.tables) {
        for (const row of await knex(table).whereIn('mandant', TENANTS).select('mandant', key)) records[row.mandant as Tenant].set(String(row[key]), null);
      }
      expect(records.DEMO.size && records.NORD.size, `${name}: both tenants need records`).toBeGreaterThan(0);
      resources.push({ name, key, records });
      continue;
    }
    expect(tenantTables.has(name), `list resource ${name}: no tenant-owned table of that name (add it to PLATFORM_RESOURCES if it spans tenants)`).toBe(true);
    const columns = Object.keys(await knex(name).columnInfo());
    expect(columns, `list resource ${name}: its table needs a ${key} column`).toContain(key);
    const hasName = columns.includes('name');
    if (hasName) {
      // The owner writes NORD's rows with NORD set (row-level security binds the owner too).
      await knex.transaction(async (trx) => {
        await setTenant(trx, 'NORD');
        await trx(name).where({ mandant: 'NORD' }).update({ name: knex.raw(`name || ?`, [NORD_MARK]) });
      });
    }
    const records = { DEMO: new Map(), NORD: new Map() } as Resource['records'];
    for (const row of await knex(name).whereIn('mandant', TENANTS).select('mandant', key, ...(hasName ? ['name'] : []))) {
      records[row.mandant as Tenant].set(String(row[key]), hasName ? row.name : null);
    }
    expect(records.DEMO.size && records.NORD.size, `${name}: both tenants need records`).toBeGreaterThan(0);
    resources.push({ name, key, records });
  }

  tokens = {} as Record<Login, string>;
  members = {} as Record<Login, Set<string>>;
  for (const [login, password] of Object.entries(USERS) as [Login, string][]) {
    const res = await request(t.app).post('/api/v1/account/login').send({ login, password });
    expect(res.status, `login ${login}`).toBe(200);
    tokens[login] = res.body.token;
    members[login] = new Set(res.body.mandanten.map((m: { mandant: string }) => m.mandant));
  }
  expect(members.ADMIN).toEqual(new Set(['DEMO', 'NORD']));
  expect(members.TADMIN).toEqual(new Set(['DEMO']));
}, 180_000);

afterAll(() => t?.close());

function keyOf(r: Resource, key: Call['key']): string {
  if (key.of === 'none') return `ZZ${key.index}`;
  const keys = [...r.records[key.of].keys()];
  return keys[key.index % keys.length];
}

const callArb = (): fc.Arbitrary<Call> =>
  fc.record({
    login: fc.constantFrom(...(Object.keys(USERS) as Login[])),
    tenant: fc.constantFrom(...TENANTS),
    resource: fc.nat({ max: resources.length - 1 }),
    kind: fc.constantFrom('list', 'detail'),
    key: fc.record({ of: fc.constantFrom('DEMO', 'NORD', 'none'), index: fc.nat({ max: 999 }) }),
    page: fc.integer({ min: 1, max: 4 }),
    pageSize: fc.constantFrom(1, 5, 10, 50, 500),
    q: fc.option(fc.constantFrom('NORD', 'Tank', 'Depot', 'P0', '1', 'GmbH', 'a', '·'), { nil: null }),
  });

async function send(c: Call): Promise<void> {
  const r = resources[c.resource];
  const own = r.records[c.tenant];
  let url = `/api/${r.name}`;
  if (c.kind === 'detail') url += `/${encodeURIComponent(keyOf(r, c.key))}`;
  else {
    const params = new URLSearchParams({ page: String(c.page), pageSize: String(c.pageSize) });
    if (c.q) params.set('q', c.q);
    url += `?${params}`;
  }
  const res = await request(t.app).get(url).set('Authorization', tokens[c.login]).set('X-Mandant', c.tenant).set('Accept', 'application/json');
  const ctx = `${c.login} in ${c.tenant}: GET ${url} → ${res.status} ${res.text.slice(0, 300)}`;

  if (!members[c.login].has(c.tenant)) {
    // Not a member: refused, and nothing of that tenant in the answer.
    expect(res.status, ctx).toBe(403);
    expect(res.body.data, ctx).toBeUndefined();
    return;
  }
  expect([200, 403, 404], ctx).toContain(res.status);
  if (res.status !== 200) return;
  expect(res.headers['x-mandant'], ctx).toBe(c.tenant);

  const rows: Record<string, unknown>[] = c.kind === 'list' ? res.body.data : [res.body.data];
  if (c.kind === 'list') {
    expect(res.body.total, ctx).toBeLessThanOrEqual(own.size);
    expect(rows.length, ctx).toBeLessThanOrEqual(c.pageSize);
  } else {
    expect(String(rows[0][r.key]), ctx).toBe(keyOf(r, c.key));
  }
  for (const row of rows) {
    const key = String(row[r.key]);
    expect(own.has(key), `${ctx}\n${r.key} ${key} is not ${c.tenant}'s`).toBe(true);
    const name = own.get(key);
    if (name !== null) expect(row.name, `${ctx}\n${r.key} ${key}: the name is another tenant's`).toBe(name);
    if (c.tenant === 'DEMO') expect(JSON.stringify(row), ctx).not.toContain(NORD_MARK);
    checked[c.tenant] += 1;
  }
}

describe('tenant isolation under interleaved requests', () => {
  it('answers every request with rows of the caller\'s tenant only', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(callArb(), { minLength: 1, maxLength: 8 }), async (calls) => {
        // All at once: the server interleaves tenants, users and their transactions.
        await Promise.all(calls.map(send));
      }),
      runs(30),
    );
    // Not vacuous: records of both tenants were seen and checked.
    expect(checked.DEMO).toBeGreaterThan(0);
    expect(checked.NORD).toBeGreaterThan(0);
  }, 300_000);
});
