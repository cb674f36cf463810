// OWASP ASVS level 2 essentials that no feature test owns: response headers, the password hash's cost, long
// passphrases, the per-account ceiling of failed logins, no state change on GET anywhere in the API, and the
// audit of authentication failures and admin actions. (Cookies, session ids, timeouts, CSRF, TOTP and rate
// limits per address have their tests next to their code: docs/security.md lists where.)
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app.js';
import { apiRoutes, fillPath, paramNames } from './routes.js';

let t: TestApp;
beforeAll(async () => {
  // Behind one proxy hop, so a test can speak from many client addresses.
  t = await createTestApp({ trustProxy: 1 });
});
afterAll(() => t.close());

const login = (body: Record<string, unknown>, ip = '203.0.113.10') => request(t.app).post('/api/v1/account/login').set('X-Forwarded-For', ip).send(body);
const tokenOf = async (l: string, p: string) => (await login({ login: l, password: p })).body.token as string;

describe('ASVS level 2', () => {
  it('sends a strict CSP that runs only the portal\'s own script files, HSTS for a year, nosniff and a referrer policy', async () => {
    const a = await request(t.app).get('/de/login');
    const csp = String(a.headers['content-security-policy']);
    const directives = Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
    // Scripts and styles from the portal's own files only: no inline code, no eval, no nonce or hash to match.
    expect(directives).toMatchObject({
      'default-src': ["'self'"], 'script-src': ["'self'"], 'style-src': ["'self'"],
      'object-src': ["'none'"], 'base-uri': ["'none'"], 'frame-ancestors': ["'none'"],
    });
    expect(csp).not.toContain("'unsafe-");
    const scripts = a.text.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script).toMatch(/ src="\/build\/assets\/[\w-]+\.js"/);
    expect(a.headers['strict-transport-security']).toMatch(/max-age=31536000/);
    expect(a.headers['x-content-type-options']).toBe('nosniff');
    expect(a.headers['referrer-policy']).toBe('same-origin');
  });

  it('stores passwords as argon2id with at least 19 MiB and 2 iterations', async () => {
    const rows = await t.db.knex('benutzer').whereNotNull('password_hash').select('password_hash');
    expect(rows.length).toBeGreaterThan(0);
    for (const { password_hash: hash } of rows) {
      const [, type, , params] = hash.split('$');
      expect(type).toBe('argon2id');
      const p = Object.fromEntries(params.split(',').map((kv: string) => kv.split('=')));
      expect(Number(p.m), hash.slice(0, 40)).toBeGreaterThanOrEqual(19_456);
      expect(Number(p.t), hash.slice(0, 40)).toBeGreaterThanOrEqual(2);
    }
  });

  it('accepts a passphrase of 64 and more characters, and signs in with it', async () => {
    const phrase = 'Ein langer Satz aus Wörtern ist ein gutes Passwort, 2026 erst recht, Ölhafen Hamburg!';
    expect(phrase.length).toBeGreaterThan(64);
    const auth = { Authorization: await tokenOf('SUPPORT', 'Support12345'), 'X-Mandant': 'DEMO' };
    const changed = await request(t.app).post('/api/v1/account/pwd').set(auth).send({ currentPassword: 'Support12345', newPassword: phrase });
    expect(changed.status, changed.text).toBe(200);
    expect((await login({ login: 'SUPPORT', password: phrase })).status).toBe(200);
  });

  it('never allows more than 100 failed logins in a row for one account, from however many addresses', async () => {
    for (let i = 0; i < 100; i++) {
      const res = await login({ login: 'MFA', password: `falsch-${i}` }, `198.51.100.${i + 1}`);
      expect(res.status, `attempt ${i + 1}`).toBe(401);
    }
    // The 101st attempt, with the right password from a fresh address, is refused until the block ends.
    const blocked = await login({ login: 'MFA', password: 'Mfa12345' }, '192.0.2.200');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  }, 120_000);

  it('changes nothing on GET: every registered GET /api route, called as an administrator, leaves every table as it was', async () => {
    const knex = t.db.knex;
    const tables: string[] = (await knex.raw(`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`)).rows
      .map((r: { table_name: string }) => r.table_name)
      // What a request itself leaves behind: its session, rate-limit counters and the audit trail.
      .filter((name: string) => !['sessions', 'rate_limits', 'audit_log', 'knex_migrations', 'knex_migrations_lock'].includes(name));
    const snapshot = async () => Object.fromEntries(await Promise.all(tables.map(async (name) => [name, JSON.stringify(await knex(name).select('*').orderByRaw('1'))])));
    const auth = { Authorization: await tokenOf('ADMIN', 'Admin12345'), 'X-Mandant': 'DEMO' };
    const values: Record<string, string> = { nr: 'P001', id: String((await knex('benutzer').where({ login: 'USER' }).first('id')).id), typ: '1', mandant: 'DEMO' };
    const gets = apiRoutes(t.app).filter((r) => r.method === 'get');
    expect(gets.length).toBeGreaterThan(15);
    const before = await snapshot();
    for (const route of gets) {
      const path = fillPath(route.path, Object.fromEntries(paramNames(route.path).map((p) => [p, values[p] ?? '1'])));
      const res = await request(t.app).get(path).set(auth);
      expect(res.status, `${path}`).toBeLessThan(500);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('writes authentication failures and admin actions to the audit log', async () => {
    await login({ login: 'TADMIN', password: 'daneben' }, '203.0.113.77');
    const failed = await t.db.knex('audit_log').where({ kind: 'auth.login.failed', entity_id: 'TADMIN' }).orderBy('id', 'desc').first();
    expect(failed).toMatchObject({ ip: '203.0.113.77' });

    const auth = { Authorization: await tokenOf('TADMIN', 'Tadmin12345'), 'X-Mandant': 'DEMO' };
    const leser = await t.db.knex('benutzer').where({ login: 'LESER' }).first('id');
    const res = await request(t.app).patch(`/api/benutzer/${leser.id}/status`).set(auth).send({ status: 'inactive' });
    expect(res.status).toBe(200);
    const entry = await t.db.knex('audit_log').where({ kind: 'admin.benutzer.deactivate', entity_id: String(leser.id) }).orderBy('id', 'desc').first();
    const json = (x: unknown) => (typeof x === 'string' ? JSON.parse(x) : x);
    const tadmin = await t.db.knex('benutzer').where({ login: 'TADMIN' }).first('id');
    expect({ ...entry, before: json(entry?.before), after: json(entry?.after) }).toMatchObject({
      mandant: 'DEMO', benutzer_id: tadmin.id, before: { status: 'active' }, after: { status: 'inactive' },
    });
  });
});
