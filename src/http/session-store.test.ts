// The session store reads a session and its user in one query and hands the user to deserializeUser of the
// same request: once, only for the user the session names, and never after the session ended.
import type { SessionData } from 'express-session';
import { systemClock } from '../clock.js';
import { withRawConnection } from '../db/knex-internals.js';
import { createTestApp, type TestApp } from '../testing/app.js';
import { KnexSessionStore, sessionStatement } from './session-store.js';

let t: TestApp;
let store: KnexSessionStore;
let ids: Record<string, number>;

beforeAll(async () => {
  t = await createTestApp();
  store = new KnexSessionStore(t.db.knex, systemClock, 60_000);
  ids = Object.fromEntries((await t.db.knex('benutzer').select('login', 'id')).map((r: { login: string; id: number }) => [r.login, r.id]));
});
afterAll(() => t.close());

const sessionOf = (user?: number) => ({ cookie: { originalMaxAge: 60_000 }, ...(user ? { passport: { user } } : {}) }) as unknown as SessionData;
const get = (sid: string) => new Promise<SessionData | null | undefined>((resolve, reject) => store.get(sid, (err, sess) => (err ? reject(err) : resolve(sess))));

describe('session store', () => {
  it('reads the session and its user in one query and hands the user over once', async () => {
    await store.save('sid-user', sessionOf(ids.USER));
    const queries: string[] = [];
    const count = (q: { sql: string }) => queries.push(q.sql);
    t.db.knex.on('query', count);
    const sess = await get('sid-user');
    t.db.knex.off('query', count);
    expect(queries).toHaveLength(1);
    expect((sess as { passport?: { user: number } }).passport?.user).toBe(ids.USER);

    const user = store.takeUser('sid-user', ids.USER);
    expect(user?.login).toBe('USER');
    expect(user?.mandanten.map((m) => m.mandant)).toEqual(['DEMO', 'NORD']);
    expect(user?.rollen.length).toBeGreaterThan(0);
    // Taken: the next request reads again.
    expect(store.takeUser('sid-user', ids.USER)).toBeUndefined();
  });

  it('hands over nothing for another user id, an anonymous session, an ended or an unknown one', async () => {
    await store.save('sid-other', sessionOf(ids.LESER));
    await get('sid-other');
    expect(store.takeUser('sid-other', ids.USER)).toBeUndefined();

    await store.save('sid-anonymous', sessionOf());
    expect(await get('sid-anonymous')).toBeTruthy();
    expect(store.takeUser('sid-anonymous', ids.USER)).toBeUndefined();

    await store.save('sid-ended', sessionOf(ids.USER));
    await get('sid-ended');
    await new Promise<void>((resolve) => store.destroy('sid-ended', () => resolve()));
    expect(store.takeUser('sid-ended', ids.USER)).toBeUndefined();
    expect(await get('sid-ended')).toBeNull();

    expect(await get('no-such-sid')).toBeNull();
    expect(store.takeUser('no-such-sid', ids.USER)).toBeUndefined();
  });

  it('gives each of several reads at once its own session and user (the statement\'s text is shared, its values are not)', async () => {
    await store.save('sid-together-user', sessionOf(ids.USER));
    await store.save('sid-together-leser', sessionOf(ids.LESER));
    const sessions = await Promise.all([get('sid-together-user'), get('sid-together-leser'), get('sid-together-user')]);
    expect(sessions.map((sess) => (sess as { passport?: { user: number } }).passport?.user)).toEqual([ids.USER, ids.LESER, ids.USER]);
    expect(store.takeUser('sid-together-leser', ids.LESER)?.login).toBe('LESER');
    expect(store.takeUser('sid-together-user', ids.USER)?.login).toBe('USER');
  });

  it('reads a Bearer token session with its user, and no user once the row is gone', async () => {
    await store.save('sid-api', sessionOf(ids.MFA));
    const { sess, user } = await store.loadWithUser('sid-api');
    expect((sess as { passport?: { user: number } }).passport?.user).toBe(ids.MFA);
    expect(user?.login).toBe('MFA');
    expect(user?.mfaEnabled).toBe(true);
    // A Bearer read hands nothing over (there is no deserializeUser to take it).
    expect(store.takeUser('sid-api', ids.MFA)).toBeUndefined();
  });

  it('reads the tenant\'s change counters with the session: the master-data stand as the database sums it, none for a tenant of others', async () => {
    const stand = async (user: number, mandant: string) => String((await t.db.knex.raw('select stammdaten_stand(?, ?) as s', [user, mandant])).rows[0].s);
    await store.save('sid-stand', { ...sessionOf(ids.USER), mandant: 'DEMO' } as SessionData);
    const own = (await store.loadWithUser('sid-stand')).user?.staende;
    expect(own?.mandant).toBe('DEMO');
    expect(own?.stammdaten).toBe(await stand(ids.USER, 'DEMO'));
    expect(Number(own?.tabellen.einlieferungen)).toBeGreaterThan(0);
    // An API call's X-Mandant: that tenant's counters instead.
    const named = (await store.loadWithUser('sid-stand', 'NORD')).user?.staende;
    expect(named?.mandant).toBe('NORD');
    expect(named?.stammdaten).toBe(await stand(ids.USER, 'NORD'));
    // LESER belongs to DEMO only: nothing of NORD's.
    await store.save('sid-stand-leser', { ...sessionOf(ids.LESER), mandant: 'DEMO' } as SessionData);
    expect((await store.loadWithUser('sid-stand-leser', 'NORD')).user?.staende).toBeUndefined();
  });

  describe('reads that arrive together', () => {
    const statementsDuring = async <T>(run: () => Promise<T>): Promise<{ result: T; statements: number }> => {
      let statements = 0;
      const count = () => statements++;
      t.db.knex.on('query', count);
      try {
        return { result: await run(), statements };
      } finally {
        t.db.knex.off('query', count);
      }
    };

    it('go out as one statement, and each is answered as it would be alone', async () => {
      await store.save('sid-batch-user', { ...sessionOf(ids.USER), mandant: 'DEMO' } as SessionData);
      await store.save('sid-batch-leser', { ...sessionOf(ids.LESER), mandant: 'DEMO' } as SessionData);
      await store.save('sid-batch-anonymous', sessionOf());
      await store.save('sid-batch-old', sessionOf(ids.USER));
      // Begun longer ago than a session may last (SESSION_ABSOLUTE_MS), though used a moment ago.
      await t.db.knex('sessions').where({ sid: 'sid-batch-old' }).update({ created_at: new Date(Date.now() - 9 * 3600_000) });
      const reads: [string, string | null][] = [
        ['sid-batch-user', null], ['sid-batch-leser', null], ['no-such-sid', null], ['sid-batch-anonymous', null],
        ['sid-batch-old', null], ['sid-batch-user', 'NORD'], ['sid-batch-leser', 'NORD'], ['sid-batch-user', null],
      ];
      const together = await statementsDuring(() => Promise.all(reads.map(([sid, mandant]) => store.loadWithUser(sid, mandant))));
      expect(together.statements).toBe(1);

      const alone = [];
      for (const [sid, mandant] of reads) alone.push(await store.loadWithUser(sid, mandant));
      expect(together.result).toEqual(alone);
      // What the reads found, as a user would meet it: their own name and tenant's counters, nothing of others.
      expect(together.result.map(({ sess, user }) => [sess ? 'session' : 'none', user?.login ?? null, user?.staende?.mandant ?? null])).toEqual([
        ['session', 'USER', 'DEMO'], ['session', 'LESER', 'DEMO'], ['none', null, null], ['session', null, null],
        ['none', null, null], ['session', 'USER', 'NORD'], ['session', 'LESER', null], ['session', 'USER', 'DEMO'],
      ]);
    });

    it('a read begun after a change sees it, though the read before it was just answered', async () => {
      await store.save('sid-batch-change', { ...sessionOf(ids.USER), mandant: 'DEMO' } as SessionData);
      const before = await store.loadWithUser('sid-batch-change');
      await new Promise<void>((resolve) => store.destroy('sid-batch-change', () => resolve()));
      const [after, other] = await Promise.all([store.loadWithUser('sid-batch-change'), store.loadWithUser('sid-batch-user')]);
      expect(before.user?.login).toBe('USER');
      expect(after).toEqual({ sess: null, user: null });
      expect(other.user?.login).toBe('USER');
    });

    it('more than a statement takes go out in several, every read answered', async () => {
      const sids = Array.from({ length: 150 }, (_, i) => (i % 3 === 0 ? 'sid-batch-user' : i % 3 === 1 ? 'sid-batch-leser' : `none-${i}`));
      const { result, statements } = await statementsDuring(() => Promise.all(sids.map((sid) => store.loadWithUser(sid))));
      expect(statements).toBe(2);
      expect(result.map((r) => r.user?.login ?? null)).toEqual(sids.map((sid) => (sid === 'sid-batch-user' ? 'USER' : sid === 'sid-batch-leser' ? 'LESER' : null)));
    });

    it('is planned once per connection: after its first executions the database keeps the generic plan, a lookup by key per read', async () => {
      await store.save('sid-plan-user', { ...sessionOf(ids.USER), mandant: 'DEMO' } as SessionData);
      await store.save('sid-plan-leser', { ...sessionOf(ids.LESER), mandant: 'DEMO' } as SessionData);
      // The statement with PostgreSQL's own placeholders ($1 …), as knex sends it.
      const text = t.db.knex.raw(sessionStatement(t.db.knex), [[], [], [], [], []]).toSQL().toNative().sql;
      const values = `('{sid-plan-user,sid-plan-leser,no-such-sid}', '{NULL,NULL,NULL}', array[now(), now(), now()],
        array[now() - interval '1 hour', now() - interval '1 hour', now() - interval '1 hour'], array[current_date, current_date, current_date])`;
      type Rows<R> = { rows: R[] };
      // One connection, outside a transaction: a prepared statement lives as long as its connection.
      const { found, plans, plan } = await withRawConnection(t.db.knex, async (db) => {
        await db.query(`prepare sitzung_plan as ${text}`);
        try {
          let result: Rows<{ lese_nr: string; login: string }> | undefined;
          for (let i = 0; i < 8; i++) result = (await db.query(`execute sitzung_plan${values}`)) as Rows<{ lese_nr: string; login: string }>;
          const counts = (await db.query(`select generic_plans, custom_plans from pg_prepared_statements where name = 'sitzung_plan'`)) as Rows<{ generic_plans: string; custom_plans: string }>;
          const explained = (await db.query(`explain execute sitzung_plan${values}`)) as Rows<Record<string, string>>;
          return { found: result!.rows.map((r) => [Number(r.lese_nr), r.login]), plans: counts.rows[0], plan: explained.rows.map((r) => r['QUERY PLAN']).join('\n') };
        } finally {
          await db.query('deallocate sitzung_plan');
        }
      });
      expect(found).toEqual([[1, 'USER'], [2, 'LESER']]);
      // PostgreSQL plans a prepared statement with its values five times, then keeps the generic plan if it costs
      // no more: each later execution is one of the generic plan's.
      expect(Number(plans.generic_plans)).toBeGreaterThanOrEqual(3);
      expect(Number(plans.custom_plans)).toBeLessThanOrEqual(5);
      expect(plan).toContain('Index Scan using sessions_pkey on sessions');
      expect(plan).not.toContain('Seq Scan on sessions');
    });

    it('a value the database refuses fails its own read only', async () => {
      // PostgreSQL cannot hold NUL in text: the shared statement fails, and each read is tried again alone.
      const [good, bad, other] = await Promise.allSettled([
        store.loadWithUser('sid-batch-user'), store.loadWithUser('bad\u0000sid'), store.loadWithUser('sid-batch-leser'),
      ]);
      expect(good.status === 'fulfilled' && good.value.user?.login).toBe('USER');
      expect(bad.status).toBe('rejected');
      expect(other.status === 'fulfilled' && other.value.user?.login).toBe('LESER');
    });
  });
});
