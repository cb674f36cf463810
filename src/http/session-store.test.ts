// The session store reads a session and its user in one query and hands the user to deserializeUser of the
// same request: once, only for the user the session names, and never after the session ended.
import type { SessionData } from 'express-session';
import { systemClock } from '../clock.js';
import { createTestApp, type TestApp } from '../testing/app.js';
import { KnexSessionStore } from './session-store.js';

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
});
