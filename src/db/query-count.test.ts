// Database round trips per page are deterministic, so the budget of the slow-connection issue (at most 4 for
// any page) is held here; how long they take is measured by `npm run bench` only.
import { createTestApp, type TestApp } from '../testing/app.js';
import { rawRequest, signInWithForms, type CookieJar } from '../testing/page-weight.js';
import { ISLAND_PAGE, LIST, LOGIN_PAGE, TANKSTELLE, THG_PAGE } from '../testing/perf-pages.js';
import { readsAlone } from './knex-internals.js';
import { QUERY_COUNTS_PATH, type QueryCounts } from './query-count.js';

const MAX_ROUND_TRIPS = 4;

let t: TestApp;
let base: string;
let admin: CookieJar;

beforeAll(async () => {
  t = await createTestApp({ countQueries: true });
  base = await t.listen();
  admin = await signInWithForms(base, 'ADMIN', 'Admin12345', 'DEMO');
});

afterAll(async () => {
  await t?.close();
});

async function counts(): Promise<Record<string, QueryCounts>> {
  return JSON.parse((await rawRequest(`${base}${QUERY_COUNTS_PATH}`)).body.toString());
}

describe('database round trips per request', () => {
  it(`stay at ${MAX_ROUND_TRIPS} or fewer for every page, signed in or not, and for the list API`, async () => {
    const leser = await t.db.knex('benutzer').where({ login: 'LESER' }).first('id');
    const login = await rawRequest(`${base}/api/v1/account/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: 'ADMIN', password: 'Admin12345' }),
    });
    const bearer = { authorization: JSON.parse(login.body.toString()).token, 'x-mandant': 'DEMO' };
    await counts();
    // The bench's page 50 lies beyond the end of the demo data (that page would cost a second statement for the
    // last page): page 2 of the same filter and sort.
    const benchQuery = LIST.benchQuery.replace(/page=\d+/, 'page=2');
    const pages: [string, string, CookieJar | undefined, Record<string, string>?][] = [
      ['login', LOGIN_PAGE, undefined],
      ['THG display', THG_PAGE, undefined],
      ['dashboard', '/de/benutzer/dashboard', admin],
      ['nachrichten', '/de/benutzer/nachrichten', admin],
      ['list', `/de/${LIST.page}`, admin],
      ['list filtered, sorted, paged', `/de/${LIST.page}?${benchQuery}`, admin],
      ['detail', `/de/${LIST.detail}`, admin],
      ['island page', `${ISLAND_PAGE}?benutzer=${leser.id}`, admin],
      ['list API', `${LIST.api}?${benchQuery}`, undefined, bearer],
      ['Tankstelle', '/de/bewegungsdaten/tankstelle-bestand', admin],
      ['Tankstelle pumps', '/de/bewegungsdaten/tankstelle-bestand?ansicht=zapfsaeulen', admin],
      ['Tankstelle chain', '/de/bewegungsdaten/tankstelle-bestand?ansicht=lieferkette', admin],
      ['Tankstelle JSON', TANKSTELLE.api, undefined, bearer],
    ];
    for (const [label, path, jar, headers] of pages) {
      const res = await rawRequest(`${base}${path}`, { jar, headers: { ...headers, 'x-bench-label': label } });
      expect(res.status, path).toBe(200);
    }
    const seen = await counts();
    for (const [label] of pages) {
      expect(seen[label]?.requests, label).toBe(1);
      expect(seen[label].max, label).toBeLessThanOrEqual(MAX_ROUND_TRIPS);
    }
    // Session and user are read in one query, and count, sums and rows are one statement. The filter choices were
    // read by the first list page and are kept while the master data's stand, read with the session, stands
    // still (src/db/stand-cache.ts). So a signed-in list costs
    // two: session and user, then the page's statement, prepared, with its BEGIN, settings and COMMIT in the same
    // round trip (a prepared read alone, on both databases: src/db/knex-internals.ts, aloneIn).
    expect(seen.list.max).toBe(3);
    expect(seen['list filtered, sorted, paged'].max).toBe(2);
    // A record's detail page: session and user, then the record, prepared, alone with its BEGIN, settings and
    // COMMIT (src/db/versioned.ts, get), then its form's choices, read here for the first time and kept after
    // like the list's filter choices (the bench's detail page costs two).
    expect(seen.detail.max).toBe(3);
    // The API reads the stand for its X-Mandant with the token's session: the same.
    expect(seen['list API'].max).toBe(2);
    // The dashboard: session and user (with the header's unread count), then its own: BEGIN with the tenant
    // settings, and one statement for every figure (docs/decisions.md "Dashboard"). On the embedded database
    // every read goes alone, BEGIN included (readsAlone): one fewer.
    expect(seen.dashboard.max).toBe(readsAlone(t.db.knex) ? 2 : 3);
    // The Tankstelle: session and user, then its reads in two round trips (TenantScope.together(): the locations
    // with the settings, then the location's eight reads, each with its BEGIN and settings in one simple query).
    // The pump and chain views add one each (the locations were read once for the request).
    expect(seen['Tankstelle JSON'].max).toBe(3);
    expect(seen.Tankstelle.max).toBe(3);
    expect(seen['Tankstelle pumps'].max).toBe(4);
    expect(seen['Tankstelle chain'].max).toBe(4);
    // The public THG display: its link's tenant, the law's dated values, then the tenant's posts in one statement
    // with its BEGIN and settings (together()).
    expect(seen['THG display'].max).toBe(3);
    // The counter itself sees every statement: a health check is exactly one.
    await rawRequest(`${base}/healthz`, { headers: { 'x-bench-label': 'health' } });
    expect((await counts()).health).toEqual({ requests: 1, queries: 1, min: 1, max: 1 });
  });

  it('is not there unless switched on', async () => {
    const plain = await createTestApp();
    try {
      const res = await rawRequest(`${await plain.listen()}${QUERY_COUNTS_PATH}`);
      // No route: the path is treated like any other page address (sent on to /de/…, which does not exist).
      expect(res.status).not.toBe(200);
      expect(res.headers['content-type'] ?? '').not.toContain('json');
      expect(plain.db.knex.listenerCount('query')).toBe(0);
    } finally {
      await plain.close();
    }
  });
});
