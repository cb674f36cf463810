// Property-based robustness over every /api route the app registers (enumerated at runtime): generated JSON
// bodies, field-shaped bodies with hostile values, query strings, malformed JSON text and random path segments,
// sent as the DEMO tenant administrator. Every answer must be below 500 and JSON errors must keep the contract's
// shape. A page-level part checks that hostile search terms never come back unescaped in the HTML.
// FUZZ_SEED=<n> replays a run; fast-check prints the seed and the shrunk counterexample on failure.
import fc from 'fast-check';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app.js';
import { signIn } from '../testing/session.js';
import { apiRoutes, expectErrorShape, fillPath, paramNames, type ApiRoute } from './routes.js';

const SCRIPT = '<script>alert(1)</script>';
const NASTY_STRINGS = [
  "'; drop table benutzer;--",
  "' or '1'='1",
  '1; select pg_sleep(0);--',
  SCRIPT,
  '"><img src=x onerror=alert(1)>',
  '\u0000',
  'a\u0000b',
  '\u0001\u0002\u001b[31m\u007f',
  '\r\n\t',
  '%00',
  '%',
  '../../etc/passwd',
  '${7*7}{{7*7}}<%= 7*7 %>',
  '\uFEFF\u202E\uD83D\uDE00',
  '\uD800',
  'null',
  'NaN',
  '-1',
  '0',
  '1e309',
  '9'.repeat(400),
  'x'.repeat(5000),
  'ä'.repeat(300),
  '__proto__',
  'constructor',
];
const FIELD_NAMES = [
  'nr', 'name', 'version', 'status', 'aktiv', 'login', 'email', 'vorname', 'nachname', 'standortNr', 'prioritaet', 'biogehalt',
  'biomenge', 'biomengeEinheit', 'typ', 'data', 'password', 'currentPassword', 'newPassword', 'confirmPassword', 'plz', 'stadt',
  'lcv', 'lcvEinheit', 'produktgruppe', 'rollen', 'mandanten', 'mandant', 'standorte', 'adminKz', 'supportKz', 'quota', 'code',
  'token', 'confirmNr', 'rows', 'berechtigungen', 'sprache', 'itemsPerPage', '__proto__', 'constructor',
];

let t: TestApp;
let routes: ApiRoute[];
let token: string;
let demoValues: Record<string, Record<string, string>>; // resource -> param -> DEMO value
const runs = (n: number) => ({ numRuns: n, ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}) });

const login = async () => (await request(t.app).post('/api/v1/account/login').send({ login: 'TADMIN', password: 'Tadmin12345' })).body.token as string;

/** Path parameters filled with existing DEMO records (so requests reach the handlers' validation), never TADMIN itself. */
function demoPath(route: ApiRoute): string {
  const segments = route.path.split('/');
  const values: Record<string, string> = {};
  for (const name of paramNames(route.path)) {
    const resource = segments[segments.indexOf(`:${name}`) - 1] ?? '';
    values[name] = demoValues[resource]?.[name] ?? demoValues['*'][name] ?? '1';
  }
  return fillPath(route.path, values);
}

const hostileString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 3000 }) },
);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.constantFrom(1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, -0, 0.1 + 0.2, 2 ** 31, -(2 ** 63), true, false, null),
  fc.integer(),
  fc.double(),
  fc.array(hostileString, { maxLength: 4 }),
  fc.dictionary(hostileString, hostileString, { maxKeys: 3 }),
);
/** Bodies shaped like the API's records: known field names with hostile values. */
const fieldBody = fc.dictionary(fc.constantFrom(...FIELD_NAMES), hostileValue, { maxKeys: 8 });
/** Deep nesting, to provoke recursion limits in validators and in the NUL check. */
const deepBody = fc.integer({ min: 20, max: 3000 }).map((depth) => {
  let v: unknown = 'tief';
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
});
const anyBody = fc.oneof(
  { weight: 3, arbitrary: fc.anything({ maxDepth: 4, withNullPrototype: true, withBigInt: false }) },
  { weight: 3, arbitrary: fieldBody },
  { weight: 1, arbitrary: deepBody },
  { weight: 1, arbitrary: fc.constant({ name: 'y'.repeat(1_100_000) }) }, // above the 1 MB limit: 413
);

function routeArb(filter: (r: ApiRoute) => boolean = () => true) {
  return fc.constantFrom(...routes.filter(filter));
}

interface Sent {
  method: ApiRoute['method'];
  url: string;
  body?: string;
}

async function send(s: Sent): Promise<request.Response> {
  let req = request(t.app)[s.method](s.url).set('Authorization', token).set('X-Mandant', 'DEMO').set('Accept', 'application/json');
  if (s.body !== undefined) req = req.set('Content-Type', 'application/json').send(s.body);
  const res = await req;
  // A route may have ended the session (logout) or locked nothing but the token: carry on signed in.
  if (res.status === 401 && (await request(t.app).get('/api/v1/account/session').set('Authorization', token)).status !== 200) token = await login();
  return res;
}

/** The property every answer must have: below 500; JSON errors in the contract's shape. */
function check(s: Sent, res: request.Response): void {
  const ctx = `${s.method.toUpperCase()} ${s.url.slice(0, 300)} body=${JSON.stringify((s.body ?? '').slice(0, 300))} → ${res.status} ${(res.text ?? '').slice(0, 300)}`;
  expect(res.status, ctx).toBeLessThan(500);
  if (res.status >= 400 && /json/.test(String(res.headers['content-type'] ?? ''))) expectErrorShape(res.body, ctx);
}

beforeAll(async () => {
  t = await createTestApp();
  routes = apiRoutes(t.app);
  token = await login();
  const userId = (await t.db.knex('benutzer').where({ login: 'USER' }).first('id')).id as number;
  const regel = await t.db.knex('tauschpartner_regeln').where({ mandant: 'DEMO' }).orderBy('id').first('id', 'partner_nr');
  demoValues = {
    '*': { nr: '1001', id: String(userId), userId: String(userId), typ: '1', entity: 'standorte', regel: String(regel?.id ?? 1) },
    standorte: { nr: '1001' },
    produkte: { nr: 'P001' },
    tauschpartner: { nr: String(regel?.partner_nr ?? 'TP001') },
    mandanten: { id: 'DEMO' },
    logmeldungen: { id: '1' },
  };
}, 120_000);

afterAll(() => t?.close());

describe('fuzzing every /api route as TADMIN with X-Mandant DEMO', () => {
  it('generated JSON bodies (anything, record-shaped hostile values, deep nesting, oversize) never give 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(routeArb((r) => r.method !== 'get'), anyBody, async (route, body) => {
        const s: Sent = { method: route.method, url: demoPath(route), body: JSON.stringify(body) ?? 'null' };
        check(s, await send(s));
      }),
      runs(90),
    );
  }, 60_000);

  it('generated query strings never give 5xx', async () => {
    const key = fc.oneof(fc.constantFrom('page', 'pageSize', 'sort', 'q', 'nr', 'name', 'status', 'format', 'mandant', 'von', 'bis', 'a[b]', 'x[]'), hostileString);
    const value = fc.oneof(
      hostileString,
      fc.constantFrom('name:asc', 'nr:desc', 'passwort:asc', ':', 'name:up', '-1', '0', '501', '1e9', '99999999999999999999', 'csv', 'xlsx', '%E0%A4%A', '%'),
    );
    await fc.assert(
      fc.asyncProperty(routeArb(), fc.array(fc.tuple(key, value), { minLength: 1, maxLength: 5 }), fc.boolean(), async (route, pairs, raw) => {
        // Encoded properly, or half-raw (values only lightly escaped), to reach the query parser's edge cases.
        const enc = (x: string) => {
          try {
            return raw ? x.replace(/[#&\s]/g, encodeURIComponent) : encodeURIComponent(x);
          } catch {
            return 'x';
          }
        };
        const qs = pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&');
        const s: Sent = { method: route.method, url: `${demoPath(route)}?${qs}`, body: route.method === 'get' ? undefined : '{}' };
        check(s, await send(s));
      }),
      runs(70),
    );
  }, 60_000);

  it('malformed JSON text with Content-Type application/json never gives 5xx', async () => {
    const malformed = fc.oneof(
      fc.constantFrom('{', '{"a":', '{"a":1,}', "{'a':1}", '[1,2', '{"a":"\\u00"}', '{"a":NaN}', 'undefined', '\u0000', '{"__proto__":{"x":1}}', '"\\ud800"', '{"a":1}{"b":2}', '{"a":"\u0000"}', '1'.repeat(400)),
      fc.json().map((j) => j.slice(0, Math.max(0, j.length - 1)) + '\u0001'),
      fc.string({ unit: 'binary', maxLength: 60 }),
    );
    await fc.assert(
      fc.asyncProperty(routeArb((r) => ['post', 'put', 'patch'].includes(r.method)), malformed, async (route, text) => {
        const s: Sent = { method: route.method, url: demoPath(route), body: text };
        check(s, await send(s));
      }),
      runs(50),
    );
  }, 60_000);

  it('random path segments in place of the parameters never give 5xx', async () => {
    const segment = fc.oneof(
      hostileString,
      fc.constantFrom('%', '%00', '%2e%2e%2f', '%E0%A4%A', '..', '.', '-1', '0', '1.5', '1e309', '99999999999999999999999', 'NaN', 'ü', ' '),
    );
    await fc.assert(
      fc.asyncProperty(routeArb((r) => paramNames(r.path).length > 0), segment, fc.boolean(), async (route, seg, raw) => {
        let value: string;
        try {
          value = raw && /^[%\w.\-]*$/.test(seg) ? seg : encodeURIComponent(seg);
        } catch {
          value = '%ED%A0%80'; // a lone surrogate, as UTF-8 bytes
        }
        const url = route.path.replace(/[:*]([A-Za-z_$][\w$]*)/g, () => value || '%20').replace(/[{}]/g, '');
        const s: Sent = { method: route.method, url, body: route.method === 'get' || route.method === 'delete' ? undefined : '{"name":"x"}' };
        check(s, await send(s));
      }),
      // Besides the generated cases: a NUL byte in every parameterised route, always (PostgreSQL cannot take it).
      { ...runs(60), examples: routes.filter((r) => paramNames(r.path).length > 0).map((r) => [r, 'a\u0000b', false] as [ApiRoute, string, boolean]) },
    );
  }, 60_000);
});

describe('hostile search terms on server-rendered pages', () => {
  it('never echo <script>alert(1)</script> unescaped', async () => {
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345', 'DEMO');
    const q = encodeURIComponent(SCRIPT);
    const pages = [
      `/de/stammdaten/standorte?q=${q}`,
      `/en/stammdaten/standorte?q=${q}&sort=${q}`,
      `/de/stammdaten/produkte?q=${q}`,
      `/de/stammdaten/tauschpartner?q=${q}&page=${q}`,
      `/de/benutzer/administration?q=${q}`,
      `/en/benutzer/administration?q=${q}&status=${q}`,
      `/de/stammdaten/standorte/${q}`,
      `/de/${q}`,
    ];
    for (const path of pages) {
      const res = await agent.get(path);
      expect(res.status, path).toBeLessThan(500);
      expect(res.text, `${path} → ${res.status}`).not.toContain(SCRIPT);
      expect(res.text, path).not.toMatch(/<script>alert\(/i);
    }
    // The list pages really rendered (so the check above is not vacuous).
    const ok = await agent.get(`/de/stammdaten/standorte?q=${q}`);
    expect(ok.status).toBe(200);
    expect((await agent.get(`/de/benutzer/administration?q=${q}`)).status).toBe(200);

    // And a few generated hostile terms on the same pages.
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/de/stammdaten/standorte', '/de/benutzer/administration', '/de/stammdaten/produkte'),
        fc.constantFrom(SCRIPT, '"><script>alert(1)</script>', "'><svg onload=alert(1)>", '</textarea><script>alert(1)</script>'),
        fc.string({ maxLength: 8 }),
        async (page, attack, pad) => {
          const term = `${pad}${attack}`;
          const res = await agent.get(`${page}?q=${encodeURIComponent(term)}`);
          expect(res.status).toBeLessThan(500);
          expect(res.text).not.toContain(attack);
        },
      ),
      runs(15),
    );
  }, 60_000);
});
