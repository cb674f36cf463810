// Database round trips per page and per API call, counted with knex's 'query' event (every statement sent,
// BEGIN and COMMIT included). Every page of the route tree without a parameter, the master-data detail
// pages, and every GET /api route without a parameter or with a record number are requested twice as ADMIN in
// DEMO; the second request (steady state: no first-touch session write) is counted. The table is printed so a
// change in the numbers shows in the test output. What row-level security promises (docs/decisions.md,
// "Tenant isolation in the database"): a page's tenant-scoped reads run in one transaction, so a page costs
// at most one BEGIN (which carries the role and tenant settings) and one COMMIT more than its queries; reads
// that travel with their BEGIN and COMMIT in one round trip (reads alone, TenantScope.together()) cost none.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGES } from '../permissions/route-tree.js';
import { apiRoutes, isTenantExempt, paramNames } from '../security/routes.js';
import { createTestApp, type TestApp } from '../testing/app.js';
import { signIn, type Agent } from '../testing/session.js';

let t: TestApp;
let agent: Agent;
let bearer: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  agent = await signIn(t.app, 'ADMIN', 'Admin12345', 'DEMO');
  const login = await request(t.app).post('/api/v1/account/login').send({ login: 'ADMIN', password: 'Admin12345' });
  bearer = { Authorization: login.body.token, 'X-Mandant': 'DEMO' };
});
afterAll(() => t.close());

interface Measured {
  path: string;
  status: number;
  queries: number;
  begins: number;
}

async function measure(path: string, run: () => Promise<{ status: number }>): Promise<Measured> {
  await run();
  // The first request's read transaction is committed on the next turn of the event loop.
  await new Promise((resolve) => setTimeout(resolve, 10));
  const statements: string[] = [];
  const listen = (q: { sql: string }) => statements.push(q.sql);
  t.db.knex.on('query', listen);
  try {
    const res = await run();
    await new Promise((resolve) => setTimeout(resolve, 10));
    // A transaction sent whole in one round trip (`BEGIN; …; COMMIT`: a read alone, reads together) is one query.
    const opened = statements.filter((sql) => /^BEGIN/i.test(sql) && !/; COMMIT;?$/i.test(sql));
    return { path, status: res.status, queries: statements.length, begins: opened.length };
  } finally {
    t.db.knex.off('query', listen);
  }
}

const DETAIL: Record<string, string> = { produkte: 'P001', standorte: '1001', tauschpartner: 'TP001' };

describe('round trips', () => {
  it('per page and API call', async () => {
    const rows: Measured[] = [];
    for (const p of PAGES) {
      let path = p.path;
      const resource = path.match(/^stammdaten\/([^/]+)\/:id$/)?.[1];
      if (path.includes(':')) {
        if (!resource || !DETAIL[resource]) continue;
        path = path.replace(':id', DETAIL[resource]);
      }
      rows.push(await measure(`/de/${path}`, () => agent.get(`/de/${path}`)));
    }
    for (const r of apiRoutes(t.app)) {
      if (r.method !== 'get' || isTenantExempt(r.path)) continue;
      const names = paramNames(r.path);
      const resource = r.path.match(/^\/api\/([^/]+)\/:nr/)?.[1];
      if (names.length && !(names.length === 1 && names[0] === 'nr' && resource && DETAIL[resource])) continue;
      const path = r.path.replace(':nr', DETAIL[resource ?? ''] ?? '');
      rows.push(await measure(path, () => request(t.app).get(path).set(bearer)));
    }
    console.log(`queries  BEGIN  status  path\n${rows.map((r) => `${String(r.queries).padStart(7)}  ${String(r.begins).padStart(5)}  ${String(r.status).padStart(6)}  ${r.path}`).join('\n')}`);
    expect(rows.length).toBeGreaterThan(20);
    expect(rows.filter((r) => r.status >= 500)).toEqual([]);
    expect(rows.filter((r) => r.begins > 1), 'pages whose tenant reads took more than one transaction').toEqual([]);
    // The master-data lists: session, user, BEGIN with the settings, count, rows, COMMIT (at most).
    for (const r of rows.filter((x) => /^\/api\/(produkte|standorte|tauschpartner)$/.test(x.path))) expect(r.queries, r.path).toBeLessThanOrEqual(6);
  });
});
