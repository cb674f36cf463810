import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { codeFor } from '../../auth/mfa.js';
import { ManualClock } from '../../clock.js';
import { DEMO_TOTP_SECRET } from '../../seeds/demo.js';
import { createTestApp, type TestApp } from '../../testing/app.js';

const clock = new ManualClock(Date.parse('2026-11-21T10:00:00Z'));
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ trustProxy: 1 }, clock);
});
afterAll(() => t.close());

const api = () => request(t.app);
let address = 0;
/** Each test signs in from its own address, so the per-address limits of one test never touch another. */
const from = () => `10.0.${Math.floor(++address / 250)}.${address % 250}`;

async function login(loginName: string, password: string) {
  const res = await api().post('/api/v1/account/login').set('X-Forwarded-For', from()).send({ login: loginName, password });
  return res;
}

async function mfaLogin() {
  const first = await api().post('/api/v1/account/mfa/login').send({ login: 'mfa', password: 'Mfa12345' });
  expect(first.status).toBe(200);
  expect(first.body.mfaRequired).toBe(true);
  return first.body.token as string;
}

describe('POST /api/v1/account/login', () => {
  it('returns the token, the tenant list and the user fields', async () => {
    const res = await login('  user ', 'User12345');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      mandanten: [{ mandant: 'DEMO', adminKz: false }, { mandant: 'NORD', adminKz: false }],
      vorname: 'Ulrike', nachname: 'Urban', email: 'user@demo-portal.example', status: 'active', adminKz: false,
    });
    expect(res.body.token).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    expect(res.body.rollen).toContainEqual(expect.objectContaining({ mandant: 'DEMO', typ: 10 }));
    expect(res.body.rollen).toContainEqual(expect.objectContaining({ mandant: 'NORD', typ: 1 }));
    expect(res.body.standorte).toContainEqual({ mandant: 'DEMO', nr: '1001', name: 'Tanklager Hamburg-Waltershof' });
    expect(res.headers['x-mandant']).toBeUndefined();
    const claims = JSON.parse(Buffer.from(res.body.token.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ sub: String(res.body.id), unique_name: 'USER', mandant: null });
    expect(claims.role).toEqual(expect.arrayContaining(['NORD|1', expect.stringMatching(/^DEMO\|1,3,5,7,9,10,/)]));
    expect(claims.exp - claims.iat).toBe(8 * 3600);
  });

  it('accepts the e-mail address as login', async () => {
    const res = await login('Admin@Demo-Portal.example', 'Admin12345');
    expect(res.status).toBe(200);
    expect(res.body.adminKz).toBe(true);
  });

  it.each([
    ['a wrong password', 'USER', 'falsch'],
    ['an unknown login', 'NIEMAND', 'User12345'],
  ])('answers %s with 401 Ungültige Anmeldedaten.', async (_label, name, password) => {
    const res = await login(name, password);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, message: 'Ungültige Anmeldedaten.', code: 'INVALID_CREDENTIALS' });
  });

  it('speaks English when asked', async () => {
    const res = await api().post('/api/v1/account/login').set('Accept-Language', 'en').send({ login: 'USER', password: 'x' });
    expect(res.body.message).toBe('Invalid credentials.');
  });

  it('never hands a session to a user with a second factor', async () => {
    const res = await login('MFA', 'Mfa12345');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('MFA_REQUIRED');
    expect(res.body.token).toBeUndefined();
  });

  it.each([
    ['no body', undefined],
    ['a missing password', { login: 'USER' }],
    ['wrong types', { login: 42, password: ['x'] }],
    ['an overlong login', { login: 'x'.repeat(300), password: 'y' }],
    ['unknown fields', { login: 'USER', password: 'User12345', admin: true }],
  ])('refuses %s with 400 and field errors', async (_label, body) => {
    const res = await api().post('/api/v1/account/login').send(body as object);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.errors.length).toBeGreaterThan(0);
  });

  it('refuses malformed JSON with 400 and an oversized body with 413', async () => {
    const bad = await api().post('/api/v1/account/login').set('Content-Type', 'application/json').send('{"login":');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('BAD_REQUEST');
    const big = await api().post('/api/v1/account/login').send({ login: 'x', password: 'y'.repeat(2_000_000) });
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('TOO_LARGE');
    // Both happen before the request's own translation is set up, and are still said in words.
    expect(bad.body.message).toBe('Bitte überprüfen Sie Ihre Eingabe');
    expect(big.body.message).toBe('Die Anfrage ist zu groß.');
    const english = await api().post('/en/login').set('Content-Type', 'application/json').send('{"login":');
    expect(english.status).toBe(400);
  });

  it('slows down guessing: 429 with Retry-After after five failures from one address', async () => {
    const ip = from();
    for (let i = 0; i < 5; i++) {
      const res = await api().post('/api/v1/account/login').set('X-Forwarded-For', ip).send({ login: 'TADMIN', password: `guess${i}` });
      expect(res.status).toBe(401);
    }
    const blocked = await api().post('/api/v1/account/login').set('X-Forwarded-For', ip).send({ login: 'TADMIN', password: 'Tadmin12345' });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // The real user at another address is not locked out.
    const elsewhere = await login('TADMIN', 'Tadmin12345');
    expect(elsewhere.status).toBe(200);
  });
});

describe('second factor', () => {
  it('completes the two-step login with a real TOTP code and returns what login returns', async () => {
    const token = await mfaLogin();
    const res = await api().post('/api/v1/account/mfa/verify').send({ token, code: await codeFor(DEMO_TOTP_SECRET, clock.now()) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, vorname: 'Moritz', mandanten: [{ mandant: 'DEMO', adminKz: false }] });
    expect(res.body.token).toMatch(/^Bearer /);
  });

  it('accepts a code one step old, refuses two steps, and never accepts a code twice', async () => {
    clock.advance(120_000);
    const token = await mfaLogin();
    const tooOld = await codeFor(DEMO_TOTP_SECRET, clock.now() - 65_000);
    const refused = await api().post('/api/v1/account/mfa/verify').send({ token, code: tooOld });
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe('Ungültiger Code oder abgelaufener Token.');
    const drifted = await codeFor(DEMO_TOTP_SECRET, clock.now() - 30_000);
    expect((await api().post('/api/v1/account/mfa/verify').send({ token, code: drifted })).status).toBe(200);
    const replay = await api().post('/api/v1/account/mfa/verify').send({ token, code: drifted });
    expect(replay.status).toBe(401);
    // Right but already used: section 8's "could not be validated", not "invalid code".
    expect(replay.body).toMatchObject({ success: false, code: 'CODE_NOT_VALIDATED', message: 'Der Code konnte nicht validiert werden. Bitte versuchen Sie es erneut.' });
    const english = await api().post('/api/v1/account/mfa/verify').set('Accept-Language', 'en').send({ token, code: drifted });
    expect(english.body.message).toBe('The code could not be validated. Please try again.');
  });

  it('answers a server error during the code check with section 8\'s text, in German and English', async () => {
    clock.advance(60_000);
    const token = await mfaLogin();
    const code = await codeFor(DEMO_TOTP_SECRET, clock.now());
    const spy = vi.spyOn(t.app.accounts, 'checkCode').mockRejectedValue(new Error('connection lost'));
    try {
      const de = await api().post('/api/v1/account/mfa/verify').send({ token, code });
      expect(de.status).toBe(500);
      expect(de.body).toMatchObject({ success: false, code: 'INTERNAL', message: 'Server-Fehler. Bitte versuchen Sie es später erneut.' });
      const en = await api().post('/api/v1/account/mfa/verify').set('Accept-Language', 'en').send({ token, code });
      expect(en.body.message).toBe('Server error. Please try again later.');
    } finally {
      spy.mockRestore();
    }
    expect((await api().post('/api/v1/account/mfa/verify').send({ token, code })).status).toBe(200);
  });

  it('answers a code that is not 6 digits with 400', async () => {
    const token = await mfaLogin();
    const res = await api().post('/api/v1/account/mfa/verify').send({ token, code: '12ab' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Ungültiger Code. Bitte geben Sie einen gültigen 6-stelligen Code ein.');
  });

  it('refuses an expired step-one token', async () => {
    clock.advance(120_000);
    const token = await mfaLogin();
    clock.advance(6 * 60_000);
    const res = await api().post('/api/v1/account/mfa/verify').send({ token, code: await codeFor(DEMO_TOTP_SECRET, clock.now()) });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Ungültiger Code oder abgelaufener Token.');
  });

  it('limits wrong codes', async () => {
    clock.advance(10 * 60_000);
    const token = await mfaLogin();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await api().post('/api/v1/account/mfa/verify').send({ token, code: String(100000 + i) })).status);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses[5]).toBe(429);
    clock.advance(6 * 60_000);
  });

  it('mfa/login for a user without a second factor returns the full login', async () => {
    const res = await api().post('/api/v1/account/mfa/login').send({ login: 'USER', password: 'User12345' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, mfaRequired: false, vorname: 'Ulrike' });
  });

  it('mfa/login with wrong credentials is 401 Ungültige Anmeldedaten.', async () => {
    const res = await api().post('/api/v1/account/mfa/login').send({ login: 'MFA', password: 'nope' });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Ungültige Anmeldedaten.');
  });

  it('mfa/reset never accepts the step-one token (password alone)', async () => {
    const pending = await mfaLogin();
    const res = await api().post('/api/v1/account/mfa/reset').send({ token: pending });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Ungültiger oder abgelaufener Token.');
    const row = await t.db.knex('benutzer').where({ login: 'MFA' }).first('mfa_enabled');
    expect(row.mfa_enabled).toBe(true);
  });
});

describe('tokens and sessions', () => {
  it('logout revokes the token at once', async () => {
    const { body } = await login('USER', 'User12345');
    const auth = { Authorization: body.token, 'X-Mandant': 'demo' };
    const before = await api().get('/api/v1/account/session').set(auth);
    expect(before.status).toBe(200);
    expect(before.headers['x-mandant']).toBe('DEMO');
    expect((await api().post('/api/v1/account/logout').set(auth)).status).toBe(200);
    const after = await api().get('/api/v1/account/session').set(auth);
    expect(after.status).toBe(401);
    expect(after.body.message).toBe('Ihre Sitzung ist abgelaufen. Bitte melden Sie sich erneut an.');
  });

  it('expires after 30 minutes without activity, and activity keeps it alive', async () => {
    const { body } = await login('USER', 'User12345');
    const auth = { Authorization: body.token, 'X-Mandant': 'DEMO' };
    clock.advance(25 * 60_000);
    expect((await api().get('/api/v1/account/session').set(auth)).status).toBe(200);
    clock.advance(25 * 60_000);
    expect((await api().get('/api/v1/account/session').set(auth)).status).toBe(200);
    clock.advance(31 * 60_000);
    expect((await api().get('/api/v1/account/session').set(auth)).status).toBe(401);
  });

  it('ends the sessions of a deactivated user', async () => {
    const { body } = await login('LESER', 'Leser12345');
    const auth = { Authorization: body.token, 'X-Mandant': 'DEMO' };
    await t.db.knex('benutzer').where({ login: 'LESER' }).update({ status: 'inactive' });
    try {
      expect((await api().get('/api/v1/account/session').set(auth)).status).toBe(401);
    } finally {
      await t.db.knex('benutzer').where({ login: 'LESER' }).update({ status: 'active' });
    }
  });

  it('rejects forged, tampered and malformed tokens', async () => {
    const { body } = await login('USER', 'User12345');
    const [h, p, s] = body.token.replace('Bearer ', '').split('.');
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: '1' })).toString('base64url')}.${s}`;
    for (const header of [`Bearer ${tampered}`, 'Bearer abc', 'Basic dXNlcjpwdw==', `Bearer ${h}.${p}.`]) {
      const res = await api().get('/api/v1/account/session').set('Authorization', header);
      expect(res.status).toBe(401);
    }
  });
});

describe('language of API errors: Accept-Language naming de or en, else the user\'s setting, else German', () => {
  it('answers in the signed-in user\'s language setting when the request names no language, and lets the header win', async () => {
    const { body } = await login('TADMIN', 'Tadmin12345');
    const auth = { Authorization: body.token, 'X-Mandant': 'DEMO' };
    const missingTenant = () => api().get('/api/v1/einstellungen/1').set('Authorization', body.token);
    // Setting German (the default): German, English only when the header asks for it.
    expect((await missingTenant()).body.message).toBe('Mandant ist erforderlich');
    expect((await missingTenant().set('Accept-Language', 'fr-FR, fr;q=0.9')).body.message).toBe('Mandant ist erforderlich');
    expect((await missingTenant().set('Accept-Language', 'fr, en;q=0.5')).body.message).toBe('Tenant (Mandant) is required');

    const saved = await api().put('/api/v1/einstellungen').set(auth).send({ typ: 1, data: JSON.stringify({ language: 'en' }) });
    expect(saved.status).toBe(200);
    try {
      // Setting English: English without a header (or with one naming neither language), German when the header says so.
      expect((await missingTenant()).body.message).toBe('Tenant (Mandant) is required');
      expect((await missingTenant().set('Accept-Language', 'fr')).body.message).toBe('Tenant (Mandant) is required');
      const notFound = await api().get('/api/v1/einstellungen/7').set(auth);
      expect(notFound.status).toBe(404);
      expect(notFound.body.message).toBe('No settings saved.');
      expect((await missingTenant().set('Accept-Language', 'de-DE,de;q=0.9,en;q=0.8')).body.message).toBe('Mandant ist erforderlich');
    } finally {
      await api().delete('/api/v1/einstellungen/1').set(auth);
    }
    expect((await missingTenant()).body.message).toBe('Mandant ist erforderlich');
  });
});

describe('X-Mandant', () => {
  it('is required: 400 Mandant ist erforderlich', async () => {
    const { body } = await login('USER', 'User12345');
    const res = await api().get('/api/v1/einstellungen/1').set('Authorization', body.token);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Mandant ist erforderlich');
  });

  it('must be one of the user tenants (checked against the database on every call)', async () => {
    const { body } = await login('LESER', 'Leser12345');
    const res = await api().get('/api/v1/einstellungen/1').set({ Authorization: body.token, 'X-Mandant': 'NORD' });
    expect(res.status).toBe(403);
    const user = await t.db.knex('benutzer').where({ login: 'LESER' }).first('id');
    await t.db.knex('benutzer_mandanten').insert({ mandant: 'NORD', benutzer_id: user.id, admin_kz: false });
    try {
      const now = await api().get('/api/v1/einstellungen/1').set({ Authorization: body.token, 'X-Mandant': 'nord' });
      expect(now.status).toBe(404); // member now: the settings simply do not exist yet
      expect(now.headers['x-mandant']).toBe('NORD');
    } finally {
      await t.db.knex('benutzer_mandanten').where({ mandant: 'NORD', benutzer_id: user.id }).delete();
    }
    expect((await api().get('/api/v1/einstellungen/1').set({ Authorization: body.token, 'X-Mandant': 'NORD' })).status).toBe(403);
  });
});

describe('password and 2FA reset', () => {
  it('changes the password with the spec texts for 401 and 400', async () => {
    const { body } = await login('TADMIN', 'Tadmin12345');
    const auth = { Authorization: body.token, 'X-Mandant': 'DEMO' };
    const wrong = await api().post('/api/v1/account/pwd').set(auth).send({ currentPassword: 'nope', newPassword: 'Neues1Passwort' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe('Aktuelles Passwort ist ungültig.');
    const weak = await api().post('/api/v1/account/pwd').set(auth).send({ currentPassword: 'Tadmin12345', newPassword: 'kurz' });
    expect(weak.status).toBe(400);
    expect(weak.body.message).toBe('Das neue Passwort entspricht nicht den Anforderungen.');
    expect(weak.body.errors.map((e: { message: string }) => e.message)).toEqual(
      expect.arrayContaining(['Mindestens 8 Zeichen', 'Mindestens ein Großbuchstabe', 'Mindestens eine Ziffer']),
    );
    const common = await api().post('/api/v1/account/pwd').set(auth).send({ currentPassword: 'Tadmin12345', newPassword: 'Passwort123' });
    expect(common.status).toBe(400);
    const long = 'Ein sehr langer Satz als Passwort mit 1 Ziffer und Großbuchstaben, länger als 64 Zeichen';
    const ok = await api().post('/api/v1/account/pwd').set(auth).send({ currentPassword: 'Tadmin12345', newPassword: long, confirmPassword: long });
    expect(ok.status).toBe(200);
    expect((await login('TADMIN', long)).status).toBe(200);
    expect((await login('TADMIN', 'Tadmin12345')).status).toBe(401);
    // this session stays valid
    expect((await api().get('/api/v1/account/session').set(auth)).status).toBe(200);
  });

  it('reset-2fa needs the right password: 401 Ungültiges Passwort.', async () => {
    const token = await mfaLogin();
    clock.advance(60_000);
    const verified = await api().post('/api/v1/account/mfa/verify').send({ token, code: await codeFor(DEMO_TOTP_SECRET, clock.now()) });
    const auth = { Authorization: verified.body.token, 'X-Mandant': 'DEMO' };
    const wrong = await api().post('/api/v1/account/reset-2fa').set(auth).send({ password: 'falsch' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe('Ungültiges Passwort.');
    const ok = await api().post('/api/v1/account/reset-2fa').set(auth).send({ password: 'Mfa12345' });
    expect(ok.status).toBe(200);
    expect((await t.db.knex('benutzer').where({ login: 'MFA' }).first('mfa_enabled')).mfa_enabled).toBe(false);
    await t.db.knex('benutzer').where({ login: 'MFA' }).update({ mfa_enabled: true, mfa_secret: DEMO_TOTP_SECRET });
  });

  it('mfa/reset with a full session token switches the second factor off', async () => {
    clock.advance(60_000);
    const token = await mfaLogin();
    const verified = await api().post('/api/v1/account/mfa/verify').send({ token, code: await codeFor(DEMO_TOTP_SECRET, clock.now()) });
    const res = await api().post('/api/v1/account/mfa/reset').send({ token: verified.body.token });
    expect(res.status).toBe(200);
    expect((await t.db.knex('benutzer').where({ login: 'MFA' }).first('mfa_enabled')).mfa_enabled).toBe(false);
    await t.db.knex('benutzer').where({ login: 'MFA' }).update({ mfa_enabled: true, mfa_secret: DEMO_TOTP_SECRET });
  });
});

describe('/api/v1/einstellungen', () => {
  it('stores, reads and deletes settings as JSON text; 404 when there are none', async () => {
    const { body } = await login('USER', 'User12345');
    const auth = { Authorization: body.token, 'X-Mandant': 'DEMO' };
    expect((await api().get('/api/v1/einstellungen/1').set(auth)).status).toBe(404);
    const put = await api().put('/api/v1/einstellungen').set(auth).send({ typ: 1, data: JSON.stringify({ language: 'en', itemsPerPage: 25, extra: 'x' }) });
    expect(put.status).toBe(200);
    const got = await api().get('/api/v1/einstellungen/1').set(auth);
    expect(JSON.parse(got.body.data.data)).toEqual({
      language: 'en', itemsPerPage: 25, emailNotifications: true, browserNotifications: true, compactMode: false,
      timezone: 'Europe/Berlin', dateFormat: 'dd.MM.yyyy', theme: 'light',
    });
    expect((await api().delete('/api/v1/einstellungen/1').set(auth)).status).toBe(200);
    expect((await api().get('/api/v1/einstellungen/1').set(auth)).status).toBe(404);
  });

  it.each([
    ['data that is not JSON', { typ: 1, data: '{nope' }],
    ['an unknown language', { typ: 1, data: JSON.stringify({ language: 'fr' }) }],
    ['a page size that is not offered', { typ: 1, data: JSON.stringify({ itemsPerPage: 7 }) }],
    ['a string type', { typ: '1', data: '{}' }],
  ])('refuses %s with 400', async (_label, payload) => {
    const { body } = await login('USER', 'User12345');
    const res = await api().put('/api/v1/einstellungen').set({ Authorization: body.token, 'X-Mandant': 'DEMO' }).send(payload);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
  });
});
