import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { codeFor } from '../../auth/mfa.js';
import { ManualClock } from '../../clock.js';
import { DEMO_TOTP_SECRET } from '../../seeds/demo.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { csrfFrom, formToken, setCookies, signIn } from '../../testing/session.js';

const clock = new ManualClock(Date.parse('2026-11-21T12:00:00Z'));
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, clock);
});
afterAll(() => t.close());

describe('HTML login form', () => {
  it('signs in with a login name in any case and goes back to the page the user came from', async () => {
    const agent = request.agent(t.app);
    const page = await agent.get('/de/login?redirect=%2Fde%2Fhilfe%2Ffaq');
    const res = await agent.post('/de/login').type('form').send({ _csrf: csrfFrom(page.text), login: ' leser ', password: 'Leser12345', redirect: '/de/hilfe/faq' });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/de/hilfe/faq');
    expect((await agent.get('/de/hilfe/faq')).status).toBe(200);
  });

  it('never redirects to another site after login', async () => {
    const agent = request.agent(t.app);
    const token = await formToken(agent, '/de/login');
    const res = await agent.post('/de/login').type('form').send({ _csrf: token, login: 'LESER', password: 'Leser12345', redirect: '//evil.example/x' });
    expect(res.headers.location).toBe('/de/benutzer/dashboard');
  });

  it('shows "Ungültige Anmeldedaten." for a wrong password and keeps the login name', async () => {
    const agent = request.agent(t.app);
    const token = await formToken(agent, '/de/login');
    const res = await agent.post('/de/login').type('form').send({ _csrf: token, login: 'LESER', password: 'nein' });
    expect(res.status).toBe(401);
    expect(res.text).toContain('Ungültige Anmeldedaten.');
    expect(res.text).toContain('value="LESER"');
  });

  it('refuses a form without CSRF token and changes nothing', async () => {
    const res = await request(t.app).post('/de/login').type('form').send({ login: 'LESER', password: 'Leser12345' });
    expect(res.status).toBe(403);
    expect(setCookies(res).some((c) => c.startsWith('portal.sid='))).toBe(false);
  });

  it('gives a new session id at login (no fixation)', async () => {
    const agent = request.agent(t.app);
    const token = await formToken(agent, '/de/login');
    const before = setCookies(await agent.post('/de/login').type('form').send({ _csrf: token, login: 'MFA', password: 'Mfa12345' }));
    const pendingSid = before.find((c) => c.startsWith('portal.sid='));
    const code = await codeFor(DEMO_TOTP_SECRET, clock.now());
    const page = await agent.get('/de/login');
    const after = await agent.post('/de/login/code').type('form').send({ _csrf: csrfFrom(page.text), code });
    const finalSid = setCookies(after).find((c) => c.startsWith('portal.sid='));
    expect(pendingSid).toBeTruthy();
    expect(finalSid).toBeTruthy();
    expect(finalSid!.split(';')[0]).not.toBe(pendingSid!.split(';')[0]);
    clock.advance(60_000);
  });
});

describe('two-step login in the browser form', () => {
  it('asks for the code after the password and signs in only with a right code', async () => {
    clock.advance(60_000);
    const agent = request.agent(t.app);
    const token = await formToken(agent, '/de/login');
    const step1 = await agent.post('/de/login').type('form').send({ _csrf: token, login: 'MFA', password: 'Mfa12345' });
    expect(step1.status).toBe(200);
    expect(step1.text).toContain('name="code"');
    // The password alone opens nothing.
    const blocked = await agent.get('/de/benutzer/dashboard');
    expect(blocked.headers.location).toMatch(/^\/de\/login\?redirect=/);

    const page = await agent.get('/de/login');
    expect(page.text).toContain('name="code"');
    const bad = await agent.post('/de/login/code').type('form').send({ _csrf: csrfFrom(page.text), code: '12' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Ungültiger Code. Bitte geben Sie den 6-stelligen Code aus Ihrer Authenticator-App ein.');
    const wrong = await agent.post('/de/login/code').type('form').send({ _csrf: csrfFrom(bad.text), code: '000000' });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('Ungültiger Code oder abgelaufener Token.');
    const right = await agent.post('/de/login/code').type('form').send({ _csrf: csrfFrom(wrong.text), code: await codeFor(DEMO_TOTP_SECRET, clock.now()) });
    expect(right.status).toBe(302);
    expect(right.headers.location).toBe('/de/benutzer/dashboard');
    expect((await agent.get('/de/benutzer/dashboard')).text).toContain('Willkommen, Moritz Fischer');
  });

  it('shows section 8\'s texts when the code check fails on the server and when a right code was already used, in German and English', async () => {
    for (const [lang, serverError, notValidated] of [
      ['de', 'Server-Fehler. Bitte versuchen Sie es später erneut.', 'Der Code konnte nicht validiert werden. Bitte versuchen Sie es erneut.'],
      ['en', 'Server error. Please try again later.', 'The code could not be validated. Please try again.'],
    ]) {
      clock.advance(60_000);
      const agent = request.agent(t.app);
      const csrf = await formToken(agent, `/${lang}/login`);
      await agent.post(`/${lang}/login`).type('form').send({ _csrf: csrf, login: 'MFA', password: 'Mfa12345' });
      const code = await codeFor(DEMO_TOTP_SECRET, clock.now());
      // The database fails during the check: the form again, with the server-error text, and no sign-in.
      const spy = vi.spyOn(t.app.accounts, 'checkCode').mockRejectedValueOnce(new Error('connection lost'));
      const page = await agent.get(`/${lang}/login`);
      const failed = await agent.post(`/${lang}/login/code`).type('form').send({ _csrf: csrfFrom(page.text), code });
      spy.mockRestore();
      expect(failed.status).toBe(500);
      expect(failed.text).toContain(serverError);
      expect(failed.text).toContain('name="code"');
      // Another sign-in used this code first (a replay, or two tabs): right, but not validated again.
      await request(t.app).post('/api/v1/account/mfa/verify').send({
        token: (await request(t.app).post('/api/v1/account/mfa/login').send({ login: 'MFA', password: 'Mfa12345' })).body.token, code,
      }).expect(200);
      const used = await agent.post(`/${lang}/login/code`).type('form').send({ _csrf: csrfFrom(failed.text), code });
      expect(used.status).toBe(401);
      expect(used.text).toContain(notValidated);
      expect(used.text).toContain('name="code"');
      expect((await agent.get(`/${lang}/benutzer/dashboard`)).status).toBe(302);
    }
  });

  it('lets the code step expire after five minutes', async () => {
    clock.advance(60_000);
    const agent = request.agent(t.app);
    const token = await formToken(agent, '/de/login');
    await agent.post('/de/login').type('form').send({ _csrf: token, login: 'MFA', password: 'Mfa12345' });
    clock.advance(6 * 60_000);
    const page = await agent.get('/de/login');
    expect(page.text).not.toContain('name="code"');
    const late = await agent.post('/de/login/code').type('form').send({ _csrf: csrfFrom(page.text), code: await codeFor(DEMO_TOTP_SECRET, clock.now()) });
    expect(late.status).toBe(401);
  });
});

describe('tenant selection', () => {
  it('chooses the only tenant automatically and asks when there are several', async () => {
    const leser = await signIn(t.app, 'LESER', 'Leser12345');
    expect((await leser.get('/de/benutzer/dashboard')).text).toContain('Sie arbeiten im Mandanten DEMO.');
    const agent = request.agent(t.app);
    const token = await formToken(agent, '/de/login');
    const res = await agent.post('/de/login').type('form').send({ _csrf: token, login: 'USER', password: 'User12345' });
    expect(res.headers.location).toBe('/de/mandant-selection?redirect=%2Fde%2Fbenutzer%2Fdashboard');
    expect((await agent.get('/de/benutzer/dashboard')).headers.location).toMatch(/^\/de\/mandant-selection/);
  });

  it('accepts a tenant case-insensitively, refuses one not in the list, and switches with a new session id', async () => {
    const agent = await signIn(t.app, 'USER', 'User12345', 'nord');
    expect((await agent.get('/de/benutzer/dashboard')).text).toContain('Sie arbeiten im Mandanten NORD.');
    const page = await agent.get('/de/mandant-selection');
    const refused = await agent.post('/de/mandant-selection').type('form').send({ _csrf: csrfFrom(page.text), mandant: 'FREMD' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Bitte wählen Sie einen Mandanten aus Ihrer Liste.');
    const switched = await agent.post('/de/mandant-selection').type('form').send({ _csrf: csrfFrom(refused.text), mandant: 'DEMO' });
    expect(switched.status).toBe(302);
    expect(setCookies(switched).some((c) => c.startsWith('portal.sid='))).toBe(true);
    expect((await agent.get('/de/benutzer/dashboard')).text).toContain('Sie arbeiten im Mandanten DEMO.');
  });
});

describe('logout', () => {
  it('ends the session on the server and says so', async () => {
    const agent = await signIn(t.app, 'LESER', 'Leser12345');
    const page = await agent.get('/de/benutzer/dashboard');
    const sid = (await t.db.knex('sessions').count<{ count: string }[]>({ count: '*' }))[0].count;
    const res = await agent.post('/de/logout').type('form').send({ _csrf: csrfFrom(page.text) });
    expect(res.headers.location).toBe('/de/login');
    expect(Number((await t.db.knex('sessions').count<{ count: string }[]>({ count: '*' }))[0].count)).toBe(Number(sid) - 1);
    const login = await agent.get('/de/login');
    expect(login.text).toContain('Sie wurden abgemeldet.');
    expect((await agent.get('/de/benutzer/dashboard')).status).toBe(302);
  });
});
