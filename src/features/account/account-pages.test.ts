import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFor } from '../../auth/mfa.js';
import { ManualClock } from '../../clock.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { csrfFrom, signIn } from '../../testing/session.js';

const clock = new ManualClock(Date.parse('2026-11-21T14:00:00Z'));
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, clock);
});
afterAll(() => t.close());

describe('settings page', () => {
  it('shows the defaults of the spec', async () => {
    const agent = await signIn(t.app, 'LESER', 'Leser12345');
    const page = await agent.get('/de/benutzer/einstellungen');
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<option value="de"\s+selected>Deutsch/);
    expect(page.text).toMatch(/<option value="10"\s+selected>10/);
    expect(page.text).toMatch(/id="s-emailNotifications" name="emailNotifications" value="on"\s+checked/);
    expect(page.text).not.toMatch(/id="s-compactMode" name="compactMode" value="on"\s+checked/);
  });

  it('saves the settings as JSON text of type 1 and applies language, theme and compact mode at once', async () => {
    const agent = await signIn(t.app, 'LESER', 'Leser12345');
    const page = await agent.get('/de/benutzer/einstellungen');
    const res = await agent.post('/de/benutzer/einstellungen').type('form').send({
      _csrf: csrfFrom(page.text), language: 'en', timezone: 'Europe/London', dateFormat: 'yyyy-MM-dd', itemsPerPage: '25',
      theme: 'dark', compactMode: 'on', emailNotifications: 'on',
    });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/en/benutzer/einstellungen');
    const user = await t.db.knex('benutzer').where({ login: 'LESER' }).first('id');
    const row = await t.db.knex('einstellungen').where({ benutzer_id: user.id, typ: 1 }).first('data');
    expect(JSON.parse(row.data)).toEqual({
      language: 'en', itemsPerPage: 25, emailNotifications: true, browserNotifications: false, compactMode: true,
      timezone: 'Europe/London', dateFormat: 'yyyy-MM-dd', theme: 'dark',
    });
    const after = await agent.get('/en/benutzer/einstellungen');
    expect(after.text).toContain('data-theme="dark"');
    expect(after.text).toMatch(/<body class="has-shell[^"]*compact/);
    expect(after.text).toContain('Saved.');
    // An address without language still goes to German: the URL decides, not the setting (spec sections 2, 9).
    expect((await agent.get('/benutzer/dashboard')).headers.location).toBe('/de/benutzer/dashboard');
  });

  it('refuses values that are not offered and stores nothing', async () => {
    const agent = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const page = await agent.get('/de/benutzer/einstellungen');
    const res = await agent.post('/de/benutzer/einstellungen').type('form').send({ _csrf: csrfFrom(page.text), language: 'fr', itemsPerPage: '7' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('Bitte überprüfen Sie Ihre Eingabe.');
    const user = await t.db.knex('benutzer').where({ login: 'TADMIN' }).first('id');
    expect(await t.db.knex('einstellungen').where({ benutzer_id: user.id }).first()).toBeUndefined();
  });

  it('enrols a second factor with a QR code and the secret, confirmed by a first code, and resets it with the password', async () => {
    const agent = await signIn(t.app, 'SUPPORT', 'Support12345');
    let page = await agent.get('/de/benutzer/einstellungen');
    expect(page.text).toContain('Nicht eingerichtet');
    await agent.post('/de/benutzer/einstellungen/2fa').type('form').send({ _csrf: csrfFrom(page.text) });
    page = await agent.get('/de/benutzer/einstellungen');
    expect(page.text).toMatch(/<div class="qr"[^>]*><svg/);
    const secret = page.text.match(/<code class="secret">([A-Z2-7]+)<\/code>/)![1];
    const wrong = await agent.post('/de/benutzer/einstellungen/2fa/confirm').type('form').send({ _csrf: csrfFrom(page.text), code: '000000' });
    expect(wrong.status).toBe(400);
    const ok = await agent.post('/de/benutzer/einstellungen/2fa/confirm').type('form').send({ _csrf: csrfFrom(wrong.text), code: await codeFor(secret, clock.now()) });
    expect(ok.status).toBe(302);
    page = await agent.get('/de/benutzer/einstellungen');
    expect(page.text).toContain('Aktiv');
    expect((await t.db.knex('benutzer').where({ login: 'SUPPORT' }).first('mfa_enabled')).mfa_enabled).toBe(true);
    // From now on the plain login call refuses this user.
    expect((await request(t.app).post('/api/v1/account/login').send({ login: 'SUPPORT', password: 'Support12345' })).body.code).toBe('MFA_REQUIRED');

    const badReset = await agent.post('/de/benutzer/einstellungen/2fa/reset').type('form').send({ _csrf: csrfFrom(page.text), password: 'falsch' });
    expect(badReset.status).toBe(401);
    expect(badReset.text).toContain('Ungültiges Passwort.');
    await agent.post('/de/benutzer/einstellungen/2fa/reset').type('form').send({ _csrf: csrfFrom(badReset.text), password: 'Support12345' });
    expect((await t.db.knex('benutzer').where({ login: 'SUPPORT' }).first('mfa_enabled')).mfa_enabled).toBe(false);
  });
});

describe('password page', () => {
  it('checks the current password, the rules and the confirmation, then changes it', async () => {
    const agent = await signIn(t.app, 'USER', 'User12345', 'DEMO');
    let page = await agent.get('/de/benutzer/passwort');
    const wrong = await agent.post('/de/benutzer/passwort').type('form').send({ _csrf: csrfFrom(page.text), currentPassword: 'x', newPassword: 'Neu12345x', confirmPassword: 'Neu12345x' });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('Aktuelles Passwort ist ungültig.');
    const weak = await agent.post('/de/benutzer/passwort').type('form').send({ _csrf: csrfFrom(wrong.text), currentPassword: 'User12345', newPassword: 'abc', confirmPassword: 'abd' });
    expect(weak.status).toBe(400);
    expect(weak.text).toContain('Das neue Passwort entspricht nicht den Anforderungen.');
    expect(weak.text).toContain('Die Passwörter stimmen nicht überein');
    expect(weak.text).toMatch(/data-rule="length" class="is-failed"/);
    expect(weak.text).toMatch(/data-rule="lower" class=""/);
    // A mismatch alone: the summary names the mismatch (not the rules) and links to the field; what was typed stays.
    const mismatch = await agent.post('/de/benutzer/passwort').type('form').send({ _csrf: csrfFrom(weak.text), currentPassword: 'User12345', newPassword: 'Neu12345x', confirmPassword: 'Neu12345y' });
    expect(mismatch.status).toBe(400);
    const summary = mismatch.text.match(/<div class="alert alert-error error-summary"[\s\S]*?<\/ul>/)![0];
    expect(summary).toContain('<a href="#f-confirmPassword">Neues Passwort bestätigen: Die Passwörter stimmen nicht überein</a>');
    expect(summary).not.toContain('entspricht nicht den Anforderungen');
    expect(mismatch.text).toMatch(/id="f-newPassword"[^>]*value="Neu12345x"/);
    expect(mismatch.text).toMatch(/id="f-confirmPassword"[^>]*value="Neu12345y"/);
    // Before anything is typed the rules are neutral, not red.
    expect((await agent.get('/de/benutzer/passwort')).text).toMatch(/data-rule="length" class="is-pending"/);
    page = await agent.post('/de/benutzer/passwort').type('form').send({ _csrf: csrfFrom(weak.text), currentPassword: 'User12345', newPassword: 'Neu12345x', confirmPassword: 'Neu12345x' });
    expect(page.status).toBe(302);
    expect((await request(t.app).post('/api/v1/account/login').send({ login: 'USER', password: 'Neu12345x' })).status).toBe(200);
    // still signed in here
    expect((await agent.get('/de/benutzer/passwort')).text).toContain('Ihr Passwort wurde geändert.');
  });
});

describe('session lifetime of the cookie session', () => {
  it('expires after 30 minutes idle; the passive check does not keep it alive, activity does', async () => {
    const agent = await signIn(t.app, 'LESER', 'Leser12345');
    const page = await agent.get('/de/benutzer/dashboard');
    const headers = { 'X-Mandant': 'DEMO', 'X-CSRF-Token': csrfFrom(page.text) };
    clock.advance(20 * 60_000);
    expect((await agent.get('/api/v1/account/session').set({ ...headers, 'X-Activity': 'idle' })).status).toBe(200);
    clock.advance(11 * 60_000); // 31 minutes since the last real activity
    const expired = await agent.get('/api/v1/account/session').set({ ...headers, 'X-Activity': 'idle' });
    expect(expired.status).toBe(401);
    expect(expired.body.message).toBe('Ihre Sitzung ist abgelaufen. Bitte melden Sie sich erneut an.');
    expect((await agent.get('/de/benutzer/dashboard')).headers.location).toMatch(/^\/de\/login\?redirect=/);

    // The Tankstelle's minute refresh says it is not the user's doing: a station screen left alone signs out too.
    const station = await signIn(t.app, 'TADMIN', 'Tadmin12345');
    const tankPage = await station.get('/de/bewegungsdaten/tankstelle-bestand');
    expect(tankPage.status).toBe(200);
    const stationHeaders = { 'X-Mandant': 'DEMO', 'X-CSRF-Token': csrfFrom(tankPage.text), 'X-Activity': 'idle' };
    clock.advance(20 * 60_000);
    expect((await station.get('/api/tankstelle').set(stationHeaders)).status).toBe(200);
    clock.advance(11 * 60_000);
    expect((await station.get('/api/tankstelle').set(stationHeaders)).status).toBe(401);

    const active = await signIn(t.app, 'LESER', 'Leser12345');
    clock.advance(20 * 60_000);
    expect((await active.get('/de/benutzer/dashboard')).status).toBe(200);
    clock.advance(20 * 60_000);
    expect((await active.get('/de/benutzer/dashboard')).status).toBe(200);
  });

  it('ends after 8 hours whatever the activity', async () => {
    const agent = await signIn(t.app, 'LESER', 'Leser12345');
    for (let i = 0; i < 17; i++) {
      clock.advance(29 * 60_000);
      await agent.get('/de/benutzer/dashboard');
    }
    expect((await agent.get('/de/benutzer/dashboard')).headers.location).toMatch(/^\/de\/login/);
  });
});
