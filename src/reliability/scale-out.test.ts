// Two app processes against one PostgreSQL database serve the same users, with no sticky sessions: a sign-in,
// its CSRF tokens, Bearer tokens and the counts of failed logins made on one process hold on the other.
//
// Two real server processes (src/cli/start.ts as children), not two createApp() in this process: only separate
// processes prove that nothing that matters lives in one process's memory (module-level state would be shared
// by two apps in one process). They start at the same moment on an empty database, as a rollout may, so their
// migrations run concurrently too.
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../db/knex.js';
import { seedDemo } from '../seeds/demo.js';
import { createPostgresDatabase } from '../testing/database.js';
import { startServer, type ChildServer } from '../testing/child-server.js';
import { csrfFrom, setCookies } from '../testing/session.js';

const PG = process.env.TEST_DATABASE_URL;

/** The cookies a browser would keep for this host (cookies are per host, not per port: A and B share them). */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  keep(res: { headers: Record<string, unknown> }): void {
    for (const line of setCookies(res)) {
      const [pair, ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const expired = !pair.slice(at + 1) || attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split('=')[1]) < Date.now()));
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(at + 1));
    }
  }

  get header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** A browser: one cookie jar, any of the two servers. */
function browser() {
  const jar = new CookieJar();
  const keep = <T extends request.Response>(res: T) => (jar.keep(res), res);
  return {
    get: async (server: ChildServer, path: string) => keep(await request(server.url).get(path).set('Cookie', jar.header)),
    post: async (server: ChildServer, path: string, form: Record<string, string>) =>
      keep(await request(server.url).post(path).set('Cookie', jar.header).type('form').send(form)),
  };
}

// Whole server processes on a machine that may be busy.
const PROCESS_TIMEOUT_MS = 180_000;

describe.skipIf(!PG)('two app processes, one database', { timeout: PROCESS_TIMEOUT_MS }, () => {
  let a: ChildServer;
  let b: ChildServer;
  let database: { url: string; drop: () => Promise<void> };

  beforeAll(async () => {
    database = await createPostgresDatabase(PG!);
    const env = { DATABASE_URL: database.url, SESSION_SECRET: randomBytes(32).toString('hex') };
    [a, b] = await Promise.all([startServer(env), startServer(env)]);
    // Both migrated the empty database at once; the demo data goes in afterwards, as `npm run db:seed` would.
    const db = createDatabase({ kind: 'postgres', url: database.url });
    await seedDemo(db.knex);
    await db.knex.destroy();
  }, PROCESS_TIMEOUT_MS);
  afterAll(async () => {
    for (const server of [a, b]) server?.child.kill('SIGTERM');
    const codes = await Promise.all([a?.exited, b?.exited]);
    await database?.drop();
    expect(codes).toEqual([0, 0]);
  }, PROCESS_TIMEOUT_MS);

  it('continues a form sign-in made on A on B: pages, tenant choice and a form post with the CSRF token from A', async () => {
    const user = browser();
    const login = await user.get(a, '/de/login');
    const signedIn = await user.post(a, '/de/login', { _csrf: csrfFrom(login.text), login: 'ADMIN', password: 'Admin12345' });
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.location).toContain('/de/mandant-selection');

    // The tenant choice is shown by A and posted to B.
    const selection = await user.get(a, '/de/mandant-selection');
    const chosen = await user.post(b, '/de/mandant-selection', { _csrf: csrfFrom(selection.text), mandant: 'DEMO' });
    expect(chosen.status).toBe(302);

    const list = await user.get(b, '/de/stammdaten/standorte');
    expect(list.status).toBe(200);
    expect(list.text).toContain('Zeige 1 bis 10 von 12 Ergebnissen');

    // A form fetched from A, posted to B; a token that is not A's is refused by B.
    const form = await user.get(a, '/de/stammdaten/standorte/neu');
    const forged = await user.post(b, '/de/stammdaten/standorte', { _csrf: 'not-the-token', nr: '5501', name: 'Gefälscht' });
    expect(forged.status).toBe(403);
    const created = await user.post(b, '/de/stammdaten/standorte', { _csrf: csrfFrom(form.text), nr: '5501', name: 'Depot zweier Prozesse' });
    expect(created.status).toBe(302);
    expect((await user.get(a, '/de/stammdaten/standorte/5501')).text).toContain('Depot zweier Prozesse');

    // Signing out on B ends the session on A as well.
    const page = await user.get(b, '/de/stammdaten/standorte');
    expect((await user.post(b, '/de/logout', { _csrf: csrfFrom(page.text) })).status).toBe(302);
    const after = await user.get(a, '/de/stammdaten/standorte');
    expect(after.status).toBe(302);
    expect(after.headers.location).toContain('/de/login');
  });

  it('accepts a Bearer token from A on B, and its logout on A ends it on B', async () => {
    const login = await request(a.url).post('/api/v1/account/login').set('X-Mandant', 'DEMO').send({ login: 'ADMIN', password: 'Admin12345' });
    expect(login.status).toBe(200);
    const auth = { Authorization: login.body.token as string, 'X-Mandant': 'DEMO' };

    const list = await request(b.url).get('/api/standorte').set(auth);
    expect(list.status).toBe(200);
    expect(list.body.data.map((s: { nr: string }) => s.nr)).toContain('1001');
    expect((await request(b.url).post('/api/standorte').set(auth).send({ nr: '5502', name: 'Über die API' })).status).toBe(201);
    expect((await request(a.url).get('/api/standorte/5502').set(auth)).body.data.name).toBe('Über die API');

    expect((await request(a.url).post('/api/v1/account/logout').set(auth)).status).toBe(200);
    expect((await request(b.url).get('/api/standorte').set(auth)).status).toBe(401);
  });

  it('counts failed logins on A and B together', async () => {
    const attempt = (server: ChildServer, password: string) => request(server.url).post('/api/v1/account/login').send({ login: 'USER', password });
    // Five failures allowed per login and address (docs/decisions.md): three on A, two on B.
    for (const server of [a, a, a, b, b]) expect((await attempt(server, 'Falsch12345')).status).toBe(401);
    // Each process alone has seen fewer than five; together they block, even the right password, on both.
    for (const server of [a, b]) {
      const blocked = await attempt(server, 'User12345');
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    }
  });
});
