import { SignJWT } from 'jose';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../auth/passwords.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { csrfFrom, signIn } from '../../testing/session.js';

let t: TestApp;
let nordOnlyId: number;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  const [{ id }] = await t.db.knex('benutzer')
    .insert({ login: 'NORDMANN', email: 'nordmann@nord.example', vorname: 'Nils', nachname: 'Nordmann', password_hash: await hashPassword('Nord12345') })
    .returning('id');
  nordOnlyId = id;
  await t.db.knex('benutzer_mandanten').insert({ mandant: 'NORD', benutzer_id: id, admin_kz: true });
  for (const row of await t.db.knex('benutzer').select('id', 'login')) ids[row.login] = row.id;
});
afterAll(() => t.close());

async function token(login: string, password: string) {
  return (await request(t.app).post('/api/v1/account/login').send({ login, password })).body.token as string;
}
const as = (auth: string, mandant = 'DEMO') => ({ Authorization: auth, 'X-Mandant': mandant });

describe('user administration API', () => {
  it('lists the users of the tenant admin\'s own tenant only, with search and paging', async () => {
    const tadmin = await token('TADMIN', 'Tadmin12345');
    const res = await request(t.app).get('/api/benutzer?pageSize=3&page=1').set(as(tadmin));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 6, page: 1, pageSize: 3 });
    expect(res.body.data).toHaveLength(3);
    const all = await request(t.app).get('/api/benutzer?pageSize=50').set(as(tadmin));
    expect(all.body.data.map((u: { login: string }) => u.login)).not.toContain('NORDMANN');
    const search = await request(t.app).get('/api/benutzer?q=lehm').set(as(tadmin));
    expect(search.body.data.map((u: { login: string }) => u.login)).toEqual(['LESER']);
    // The system administrator sees everyone.
    const admin = await token('ADMIN', 'Admin12345');
    const everyone = await request(t.app).get('/api/benutzer?pageSize=50').set(as(admin));
    expect(everyone.body.data.map((u: { login: string }) => u.login)).toContain('NORDMANN');
  });

  it('gives a tenant admin of DEMO nothing of NORD\'s users: 404, nothing changed', async () => {
    const tadmin = await token('TADMIN', 'Tadmin12345');
    const before = await t.db.knex('benutzer').where({ id: nordOnlyId }).first();
    expect((await request(t.app).get(`/api/benutzer/${nordOnlyId}`).set(as(tadmin))).status).toBe(404);
    const put = await request(t.app).put(`/api/benutzer/${nordOnlyId}`).set(as(tadmin)).send({ login: 'X', vorname: 'X', nachname: 'X', email: 'x@x.example' });
    expect(put.status).toBe(404);
    expect((await request(t.app).patch(`/api/benutzer/${nordOnlyId}/status`).set(as(tadmin)).send({ status: 'inactive' })).status).toBe(404);
    const reset = await request(t.app).patch(`/api/benutzer/${nordOnlyId}/reset`).set(as(tadmin)).send({ newPassword: 'Gekapert123' });
    expect(reset.status).toBe(404);
    expect(reset.body.message).toBe('Benutzer nicht gefunden');
    // X-Mandant NORD is not TADMIN's tenant.
    expect((await request(t.app).get(`/api/benutzer/${nordOnlyId}`).set(as(tadmin, 'NORD'))).status).toBe(403);
    expect(await t.db.knex('benutzer').where({ id: nordOnlyId }).first()).toEqual(before);
  });

  it('creates a user in the current tenant, refusing duplicates and bad fields by name', async () => {
    const tadmin = await token('TADMIN', 'Tadmin12345');
    const bad = await request(t.app).post('/api/benutzer').set(as(tadmin)).send({ login: 'mit leerzeichen', vorname: '', nachname: 'N', email: 'keine-mail', password: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(expect.arrayContaining(['login', 'vorname', 'email']));
    const dup = await request(t.app).post('/api/benutzer').set(as(tadmin)).send({ login: 'leser', vorname: 'A', nachname: 'B', email: 'neu@demo.example', password: 'Neu12345x' });
    expect(dup.status).toBe(400);
    expect(dup.body.errors).toEqual([{ field: 'login', message: 'Dieser Login ist bereits vergeben.' }]);
    const ok = await request(t.app).post('/api/benutzer').set(as(tadmin)).send({ login: 'disponent', vorname: 'Dora', nachname: 'Disponent', email: 'dora@demo.example', password: 'Neu12345x' });
    expect(ok.status).toBe(201);
    expect(ok.body.data).toMatchObject({ login: 'DISPONENT', status: 'active', adminKz: false, mandanten: [{ mandant: 'DEMO', adminKz: false }] });
    expect((await request(t.app).post('/api/v1/account/login').send({ login: 'DISPONENT', password: 'Neu12345x' })).status).toBe(200);
  });

  it('never lets a tenant admin make anyone (or themself) system admin', async () => {
    const tadmin = await token('TADMIN', 'Tadmin12345');
    const self = await request(t.app).put(`/api/benutzer/${ids.TADMIN}`).set(as(tadmin))
      .send({ login: 'TADMIN', vorname: 'Thomas', nachname: 'Teichmann', email: 'tadmin@demo-portal.example', tenantAdmin: true, adminKz: true });
    expect(self.status).toBe(403);
    const other = await request(t.app).post('/api/benutzer').set(as(tadmin)).send({ login: 'BOSS', vorname: 'B', nachname: 'B', email: 'boss@demo.example', password: 'Boss12345x', adminKz: true });
    expect(other.status).toBe(403);
    expect((await t.db.knex('benutzer').where({ login: 'TADMIN' }).first('admin_kz')).admin_kz).toBe(false);
    expect(await t.db.knex('benutzer').where({ login: 'BOSS' }).first()).toBeUndefined();
  });

  it('refuses to deactivate oneself and to remove the last admin of a tenant', async () => {
    const tadmin = await token('TADMIN', 'Tadmin12345');
    const self = await request(t.app).patch(`/api/benutzer/${ids.TADMIN}/status`).set(as(tadmin)).send({ status: 'inactive' });
    expect(self.status).toBe(409);
    expect(self.body.message).toBe('Sie können sich nicht selbst deaktivieren.');
    const admin = await token('ADMIN', 'Admin12345');
    const last = await request(t.app).put(`/api/benutzer/${ids.TADMIN}`).set(as(admin))
      .send({ login: 'TADMIN', vorname: 'Thomas', nachname: 'Teichmann', email: 'tadmin@demo-portal.example', tenantAdmin: false });
    expect(last.status).toBe(409);
    expect(last.body.message).toBe('Der Mandant braucht mindestens einen aktiven Administrator.');
    const deactivate = await request(t.app).patch(`/api/benutzer/${ids.TADMIN}/status`).set(as(admin)).send({ status: 'inactive' });
    expect(deactivate.status).toBe(409);
    expect((await t.db.knex('benutzer_mandanten').where({ benutzer_id: ids.TADMIN, mandant: 'DEMO' }).first('admin_kz')).admin_kz).toBe(true);
  });

  it('deactivating ends the user\'s sessions at once, and is audited', async () => {
    const tadmin = await token('TADMIN', 'Tadmin12345');
    const leser = await token('LESER', 'Leser12345');
    expect((await request(t.app).get('/api/v1/account/session').set(as(leser))).status).toBe(200);
    const res = await request(t.app).patch(`/api/benutzer/${ids.LESER}/status`).set(as(tadmin)).send({ status: 'inactive' });
    expect(res.status).toBe(200);
    expect((await request(t.app).get('/api/v1/account/session').set(as(leser))).status).toBe(401);
    const entry = await t.db.knex('audit_log').where({ kind: 'admin.benutzer.deactivate', entity_id: String(ids.LESER) }).first();
    expect(entry).toMatchObject({ mandant: 'DEMO', benutzer_id: ids.TADMIN });
    await request(t.app).patch(`/api/benutzer/${ids.LESER}/status`).set(as(tadmin)).send({ status: 'active' });
  });
});

describe('PATCH /api/benutzer/{id}/reset and /mfa/reset (section 8 texts)', () => {
  it('401 without sign-in', async () => {
    const res = await request(t.app).patch(`/api/benutzer/${ids.LESER}/reset`).send({ newPassword: 'Neu12345x' });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Nicht autorisiert - Bitte melden Sie sich an');
  });

  it('403 for a user who may not reset passwords or another user\'s second factor', async () => {
    const user = await token('USER', 'User12345');
    const pw = await request(t.app).patch(`/api/benutzer/${ids.LESER}/reset`).set(as(user)).send({ newPassword: 'Neu12345x' });
    expect(pw.status).toBe(403);
    expect(pw.body.message).toBe('Keine Berechtigung zum Zurücksetzen von Passwörtern');
    const mfa = await request(t.app).patch(`/api/benutzer/${ids.MFA}/mfa/reset`).set(as(user));
    expect(mfa.status).toBe(403);
    expect(mfa.body.message).toBe('Keine Berechtigung zum Zurücksetzen der 2FA');
  });

  it('400 when the new password breaks the rules, 404 for an unknown user', async () => {
    const tadmin = await token('TADMIN', 'Tadmin12345');
    const weak = await request(t.app).patch(`/api/benutzer/${ids.LESER}/reset`).set(as(tadmin)).send({ newPassword: 'kurz' });
    expect(weak.status).toBe(400);
    expect(weak.body.message).toBe('Das neue Passwort entspricht nicht den Anforderungen.');
    for (const id of ['999999', 'abc']) {
      const res = await request(t.app).patch(`/api/benutzer/${id}/reset`).set(as(tadmin)).send({ newPassword: 'Neu12345x' });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Benutzer nicht gefunden');
    }
  });

  it('names what is wrong with the token of an own second-factor reset (section 8\'s self-reset texts), in German and English', async () => {
    const own = await token('USER', 'User12345');
    const [h, p, s] = own.replace('Bearer ', '').split('.');
    // Signed with the app's key but naming no user (neither sub nor unique_name).
    const now = Math.floor(Date.now() / 1000);
    const noUser = await new SignJWT({ typ: 'access', sid: 'x' }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer('nachhaltigkeitsportal').setIssuedAt(now).setExpirationTime(now + 600).sign(new TextEncoder().encode(`jwt:${t.config.sessionSecret}`));
    const cases: [string, string, string, string][] = [
      ['', 'TOKEN_MISSING', 'Kein gültiges Token vorhanden - Bitte melden Sie sich erneut an', 'No valid token - please sign in again'],
      ['Bearer null', 'TOKEN_MISSING', 'Kein gültiges Token vorhanden - Bitte melden Sie sich erneut an', 'No valid token - please sign in again'],
      ['Bearer abc', 'TOKEN_FORMAT', 'Ungültiges Token-Format', 'Invalid token format'],
      ['Basic dXNlcjpwdw==', 'TOKEN_FORMAT', 'Ungültiges Token-Format', 'Invalid token format'],
      [`${h}.${p}.${s}`, 'TOKEN_FORMAT', 'Ungültiges Token-Format', 'Invalid token format'],
      ['Bearer aaa.bbb.ccc', 'TOKEN_UNDECODABLE', 'Token konnte nicht dekodiert werden', 'The token could not be decoded'],
      [`Bearer ${h}.${p}.${s.slice(0, -2)}AA`, 'TOKEN_UNDECODABLE', 'Token konnte nicht dekodiert werden', 'The token could not be decoded'],
      [`Bearer ${noUser}`, 'TOKEN_NO_USER', 'Benutzerkennung konnte nicht ermittelt werden', 'The user ID could not be determined'],
    ];
    await t.db.knex('benutzer').where({ id: ids.USER }).update({ mfa_enabled: true });
    try {
      for (const [header, code, de, en] of cases) {
        const res = await request(t.app).patch(`/api/benutzer/${ids.USER}/mfa/reset`).set(as(header));
        expect([header, res.status, res.body.code, res.body.message]).toEqual([header, 401, code, de]);
        const english = await request(t.app).patch(`/api/benutzer/${ids.USER}/mfa/reset`).set(as(header)).set('Accept-Language', 'en');
        expect([header, english.body.message]).toEqual([header, en]);
      }
      expect((await t.db.knex('benutzer').where({ id: ids.USER }).first('mfa_enabled')).mfa_enabled).toBe(true);
      // Without any Authorization header and session the call is simply not signed in (section 8: Nicht autorisiert).
      const anonymous = await request(t.app).patch(`/api/benutzer/${ids.USER}/mfa/reset`).set('X-Mandant', 'DEMO');
      expect([anonymous.status, anonymous.body.message]).toEqual([401, 'Nicht autorisiert - Bitte melden Sie sich an']);
    } finally {
      await t.db.knex('benutzer').where({ id: ids.USER }).update({ mfa_enabled: false });
    }
  });

  it('resets a password (old sessions end) and a second factor; a user may reset their own', async () => {
    const tadmin = await token('TADMIN', 'Tadmin12345');
    const leser = await token('LESER', 'Leser12345');
    expect((await request(t.app).patch(`/api/benutzer/${ids.LESER}/reset`).set(as(tadmin)).send({ newPassword: 'Leser54321x' })).status).toBe(200);
    expect((await request(t.app).get('/api/v1/account/session').set(as(leser))).status).toBe(401);
    expect((await request(t.app).post('/api/v1/account/login').send({ login: 'LESER', password: 'Leser54321x' })).status).toBe(200);

    await t.db.knex('benutzer').where({ id: ids.USER }).update({ mfa_enabled: true, mfa_secret: 'JBSWY3DPEHPK3PXP' });
    const user = await request(t.app).post('/api/v1/account/login').send({ login: 'USER', password: 'User12345' });
    expect(user.status).toBe(401); // second factor now on
    await t.db.knex('benutzer').where({ id: ids.USER }).update({ mfa_enabled: false });
    const own = await token('USER', 'User12345');
    await t.db.knex('benutzer').where({ id: ids.USER }).update({ mfa_enabled: true });
    expect((await request(t.app).patch(`/api/benutzer/${ids.USER}/mfa/reset`).set(as(own))).status).toBe(200);
    expect((await t.db.knex('benutzer').where({ id: ids.USER }).first('mfa_enabled')).mfa_enabled).toBe(false);
  });
});

describe('user administration pages', () => {
  it('lists, creates with field errors, and edits through plain forms', async () => {
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const list = await agent.get('/de/benutzer/administration?q=urban');
    expect(list.status).toBe(200);
    expect(list.text).toContain('USER');
    expect(list.text).not.toContain('LESER');
    expect(list.text).toContain('Zeige 1 bis 1 von 1 Ergebnissen');

    const form = await agent.get('/de/benutzer/administration/neu');
    const bad = await agent.post('/de/benutzer/administration').type('form').send({ _csrf: csrfFrom(form.text), login: 'LAGER', vorname: 'Lea', nachname: '', email: 'lea@demo.example', password: 'schwach' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Bitte korrigieren Sie die markierten Felder.');
    expect(bad.text).toMatch(/id="f-nachname-error"/);
    expect(bad.text).toContain('value="LAGER"');
    expect(await t.db.knex('benutzer').where({ login: 'LAGER' }).first()).toBeUndefined();

    const ok = await agent.post('/de/benutzer/administration').type('form').send({ _csrf: csrfFrom(bad.text), login: 'LAGER', vorname: 'Lea', nachname: 'Lager', email: 'lea@demo.example', password: 'Lager12345' });
    expect(ok.status).toBe(302);
    const page = await agent.get(ok.headers.location);
    expect(page.status, page.text.slice(page.text.indexOf('<main'), page.text.indexOf('<main') + 1500)).toBe(200);
    expect(page.text).toContain('Benutzer LAGER');
    const save = await agent.post(ok.headers.location).type('form').send({ _csrf: csrfFrom(page.text), login: 'LAGER', vorname: 'Lea', nachname: 'Lagerist', email: 'lea@demo.example' });
    expect(save.status).toBe(302);
    expect((await t.db.knex('benutzer').where({ login: 'LAGER' }).first('nachname')).nachname).toBe('Lagerist');
  });

  it('sends a non-admin from the page to the dashboard', async () => {
    const agent = await signIn(t.app, 'USER', 'User12345', 'DEMO');
    expect((await agent.get('/de/benutzer/administration')).headers.location).toBe('/de/benutzer/dashboard');
  });
});

describe('resetting a user\'s second factor on the administration page', () => {
  it('asks first, naming the user and what the reset means; only the confirmation resets it', async () => {
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const page = await agent.get(`/de/benutzer/administration/${ids.MFA}`);
    expect(page.status).toBe(200);
    const asked = await agent.post(`/de/benutzer/administration/${ids.MFA}/2fa`).type('form').send({ _csrf: csrfFrom(page.text) });
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('Zweiten Faktor von Moritz Fischer (MFA) zurücksetzen?');
    expect(asked.text).toContain('meldet sich danach nur mit dem Passwort an');
    expect(asked.text).toContain(`href="/de/benutzer/administration/${ids.MFA}">Abbrechen, nichts ändern</a>`);
    expect(await t.db.knex('benutzer').where({ id: ids.MFA }).first('mfa_enabled')).toEqual({ mfa_enabled: true });

    const done = await agent.post(`/de/benutzer/administration/${ids.MFA}/2fa`).type('form').send({ _csrf: csrfFrom(asked.text), bestaetigt: 'ja' });
    expect(done.headers.location).toBe(`/de/benutzer/administration/${ids.MFA}`);
    expect(await t.db.knex('benutzer').where({ id: ids.MFA }).first('mfa_enabled')).toEqual({ mfa_enabled: false });
  });
});
