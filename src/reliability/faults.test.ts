// Database faults on a real PostgreSQL server. The server is shared and must not be stopped, so the app reaches
// it through a TCP proxy that the tests cut, stall and restore; and pg_terminate_backend ends the app's sessions
// while it is under load. What must hold: requests fail fast with 503 and a translated message, the process
// does not crash, service resumes by itself when the database is back, and a write interrupted half-way leaves
// nothing behind.
import type { Express } from 'express';
import knexFactory, { type Knex } from 'knex';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.js';
import { createDatabase, type Database } from '../db/knex.js';
import { createI18n } from '../http/i18n.js';
import { createTestApp, type TestApp } from '../testing/app.js';
import { signIn } from '../testing/session.js';
import { TcpProxy } from '../testing/tcp-proxy.js';

const PG = process.env.TEST_DATABASE_URL;

const UNAVAILABLE_DE = 'Der Server ist gerade nicht erreichbar. Bitte versuchen Sie es in Kürze erneut.';
const UNAVAILABLE_EN = 'The server cannot be reached right now. Please try again shortly.';
const INTERNALS = /\n\s+at |select |insert |knex|ECONN|node_modules|terminat/i;

describe.skipIf(!PG)('database faults (PostgreSQL)', () => {
  let t: TestApp;
  let proxy: TcpProxy;
  let db: Database;
  let app: Express;
  let auth: Record<string, string>;
  /** Anything that would have crashed the process: an 'error' event nobody listens to, a rejection nobody handles. */
  const crashes: unknown[] = [];
  const recordCrash = (err: unknown) => crashes.push(err);

  beforeAll(async () => {
    process.on('uncaughtException', recordCrash);
    process.on('unhandledRejection', recordCrash);
    // The test's own database (migrated and seeded directly); the app under test reaches it only through the proxy.
    t = await createTestApp();
    const server = new URL(PG!);
    proxy = await TcpProxy.start({ host: server.hostname, port: Number(server.port || 5432) });
    const log = process.env.DEBUG_ERRORS ? (e: unknown) => console.error(e) : () => {};
    db = createDatabase({ kind: 'postgres', url: proxy.urlFor((t.config.db as { url: string }).url) }, { warn: log });
    app = createApp({ config: t.config, db, i18n: await createI18n(), log });
    const login = await request(app).post('/api/v1/account/login').send({ login: 'TADMIN', password: 'Tadmin12345' });
    auth = { Authorization: login.body.token, 'X-Mandant': 'DEMO' };
  });
  afterEach(() => {
    proxy.restore();
    expect(crashes).toEqual([]);
  });
  afterAll(async () => {
    process.off('uncaughtException', recordCrash);
    process.off('unhandledRejection', recordCrash);
    await db?.knex.destroy();
    await proxy?.close();
    await t?.close();
  });

  /** Runs a request and says how long it took. */
  async function timed<T>(run: () => PromiseLike<T>): Promise<{ res: T; ms: number }> {
    const started = performance.now();
    const res = await run();
    return { res, ms: performance.now() - started };
  }

  function expectUnavailableJson(res: request.Response, message = UNAVAILABLE_DE) {
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toEqual({ success: false, message, code: 'UNAVAILABLE', errors: [] });
  }

  // "At once": well below the 4 s connect timeout, so the 503 comes from the refused connection, not a timeout.
  it('answers at once with 503 while the database is unreachable (page, API, health), and serves again when it is back', async () => {
    const agent = await signIn(app, 'TADMIN', 'Tadmin12345');
    // Connections sit idle in the pool when the database goes away: their error events must not crash anything.
    expect((await agent.get('/de/stammdaten/standorte')).status).toBe(200);
    expect((await request(app).get('/api/standorte').set(auth)).status).toBe(200);

    proxy.cut();

    const health = await timed(() => request(app).get('/healthz'));
    expect(health.res.status).toBe(503);
    expect(health.res.body).toEqual({ status: 'unavailable', db: 'postgres' });
    expect(health.ms).toBeLessThan(3000);

    const page = await timed(() => agent.get('/de/stammdaten/standorte'));
    expect(page.res.status).toBe(503);
    expect(page.res.headers['content-type']).toContain('text/html');
    expect(page.res.text).toContain(UNAVAILABLE_DE);
    expect(page.res.text).toContain('Fehler 503');
    expect(page.res.text).not.toMatch(INTERNALS);
    expect(page.ms).toBeLessThan(3000);
    const english = await agent.get('/en/stammdaten/standorte');
    expect(english.status).toBe(503);
    expect(english.text).toContain(UNAVAILABLE_EN);

    const api = await timed(() => request(app).get('/api/standorte').set(auth));
    expectUnavailableJson(api.res);
    expect(api.ms).toBeLessThan(3000);
    expectUnavailableJson(await request(app).get('/api/standorte').set(auth).set('Accept-Language', 'en'), UNAVAILABLE_EN);
    expectUnavailableJson(await request(app).post('/api/v1/account/login').send({ login: 'USER', password: 'User12345' }));

    proxy.restore();

    expect((await request(app).get('/healthz')).body).toEqual({ status: 'ok', db: 'postgres' });
    // The session lives in the database, so the same sign-in carries on.
    expect((await agent.get('/de/stammdaten/standorte')).status).toBe(200);
    expect((await request(app).get('/api/standorte').set(auth)).status).toBe(200);
  });

  it('gives up on a database that accepts connections but never answers within seconds, not minutes', async () => {
    expect((await request(app).get('/api/standorte').set(auth)).status).toBe(200);
    proxy.stall();
    const [api, health] = await Promise.all([timed(() => request(app).get('/api/standorte').set(auth)), timed(() => request(app).get('/healthz'))]);
    expectUnavailableJson(api.res);
    expect(health.res.status).toBe(503);
    // The connect timeout is 4 s and the pool's acquire timeout 5 s (knex's default would be 60 s); the margin
    // is for a busy machine.
    for (const { ms } of [api, health]) expect(ms).toBeLessThan(10_000);
    proxy.restore();
    expect((await request(app).get('/api/standorte').set(auth)).status).toBe(200);
  });

  it('leaves neither record nor version when a create is cut between the two', async () => {
    const rows = async (nr: string) => ({
      records: Number((await t.db.knex('standorte').where({ mandant: 'DEMO', nr }).count({ c: '*' }))[0].c),
      versions: Number((await t.db.knex('standorte_versionen').where({ mandant: 'DEMO', nr }).count({ c: '*' }))[0].c),
    });
    const cut = proxy.cutWhenSent('insert into "standorte_versionen"');
    const res = await request(app).post('/api/standorte').set(auth).send({ nr: '7001', name: 'Tanklager Lübeck' });
    await cut;
    expectUnavailableJson(res);
    expect(await rows('7001')).toEqual({ records: 0, versions: 0 });

    // Nothing is left over that would block the same create now.
    const again = await request(app).post('/api/standorte').set(auth).send({ nr: '7001', name: 'Tanklager Lübeck' });
    expect(again.status).toBe(201);
    expect(await rows('7001')).toEqual({ records: 1, versions: 1 });
  });

  it('writes nothing of an import whose COMMIT never reaches the server, and the same confirmation works afterwards', async () => {
    const count = async (table: string) => Number((await t.db.knex(table).where({ mandant: 'DEMO' }).count({ c: '*' }))[0].c);
    const lines = ['Nummer;Name;Ort', '1002;Depot Hannover-Linden Nord;Hannover', ...Array.from({ length: 450 }, (_, i) => `${8000 + i};Import ${i};Kiel`)];
    const preview = await request(app).post('/api/stammdaten-import/standorte/preview').set(auth).attach('file', Buffer.from(lines.join('\r\n')), 'standorte.csv');
    expect(preview.status).toBe(200);
    const token = preview.body.data.token as string;
    const before = { records: await count('standorte'), versions: await count('standorte_versionen'), audit: await count('audit_log') };

    const cut = proxy.cutWhenSent('COMMIT');
    const res = await request(app).post('/api/stammdaten-import/standorte/commit').set(auth).send({ token });
    await cut;
    expectUnavailableJson(res);
    expect({ records: await count('standorte'), versions: await count('standorte_versionen'), audit: await count('audit_log') }).toEqual(before);
    expect((await t.db.knex('standorte').where({ mandant: 'DEMO', nr: '1002' }).first('name')).name).toBe('Depot Hannover-Linden');
    expect((await t.db.knex('import_staging').where({ mandant: 'DEMO', id: token }).first('committed_at')).committed_at).toBeNull();

    const again = await request(app).post('/api/stammdaten-import/standorte/commit').set(auth).send({ token });
    expect(again.status).toBe(200);
    expect(again.body.data.counts).toEqual({ create: 450, update: 1, unchanged: 0, refused: 0 });
    expect(await count('standorte')).toBe(before.records + 450);
    expect(await count('standorte_versionen')).toBe(before.versions + 451);
  });

  describe('pg_terminate_backend on every session of the app, under load', () => {
    let admin: Knex;
    beforeAll(() => {
      admin = knexFactory({ client: 'pg', connection: PG!, pool: { min: 0, max: 1 } });
    });
    afterAll(() => admin?.destroy());

    /** Ends the app's sessions (those that came through the proxy) on this test file's own database, no others. */
    async function terminateAll(): Promise<number> {
      const ports = proxy.upstreamPorts;
      if (!ports.length) return 0;
      const database = new URL((t.config.db as { url: string }).url).pathname.slice(1);
      const { rows } = await admin.raw(
        'select pg_terminate_backend(pid) as ok from pg_stat_activity where datname = ? and client_port = any(?::int[])',
        [database, ports],
      );
      return rows.length;
    }

    it('answers 503 (never 500) while sessions die, keeps every write whole, and recovers by itself', async () => {
      const statuses = new Map<number, number>();
      const unexpected: string[] = [];
      const created: string[] = [];
      let terminated = 0;
      let running = true;

      async function worker(w: number) {
        for (let i = 0; running; i++) {
          const create = i % 2 === 1;
          const nr = `L${w}x${i}`;
          const res = create
            ? await request(app).post('/api/standorte').set(auth).send({ nr, name: `Last ${nr}`, stadt: 'Kiel' })
            : await request(app).get('/api/standorte?pageSize=50').set(auth);
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          const unavailable = res.status === 503 && res.body.code === 'UNAVAILABLE' && res.body.message === UNAVAILABLE_DE;
          if (!unavailable && res.status !== (create ? 201 : 200)) unexpected.push(`${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
          if (res.status === 201) created.push(nr);
        }
      }
      async function terminator() {
        while (running) {
          await new Promise((r) => setTimeout(r, 100));
          terminated += await terminateAll();
        }
      }
      const load = Promise.all([worker(1), worker(2), worker(3), worker(4), terminator()]);
      await new Promise((r) => setTimeout(r, 3000));
      running = false;
      await load;

      // The fault did hit, and requests also got through between the kills.
      expect(terminated).toBeGreaterThan(0);
      expect(statuses.get(503) ?? 0).toBeGreaterThan(0);
      expect((statuses.get(200) ?? 0) + (statuses.get(201) ?? 0)).toBeGreaterThan(0);
      expect(unexpected).toEqual([]);

      // Service resumes on its own. A pooled connection killed by the last round may be found dead only when next
      // used (that request gets its 503 too), so health may take a moment; then requests succeed in a row.
      const healthy = Date.now() + 2000;
      while ((await request(app).get('/healthz')).status !== 200) expect(Date.now()).toBeLessThan(healthy);
      for (let i = 0; i < 10; i++) expect((await request(app).get('/api/standorte').set(auth)).status).toBe(200);

      // All or nothing: every location written under load has exactly its one version, every version its location.
      const orphans = await t.db.knex.raw(`
        select s.nr, v.nr as vnr from standorte s full join standorte_versionen v on v.mandant = s.mandant and v.nr = s.nr
        where coalesce(s.mandant, v.mandant) = 'DEMO' and coalesce(s.nr, v.nr) like 'L%' and (s.nr is null or v.nr is null or v.version <> 1)`);
      expect(orphans.rows).toEqual([]);
      const stored = (await t.db.knex('standorte').where({ mandant: 'DEMO' }).andWhere('nr', 'like', 'L%').pluck('nr')) as string[];
      expect(stored).toEqual(expect.arrayContaining(created));
    });
  });
});
