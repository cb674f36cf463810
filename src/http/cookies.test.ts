// Cookie attributes (OWASP ASVS 3.4): HttpOnly, SameSite, and over HTTPS Secure with the __Host- prefix.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app.js';
import { csrfFrom, setCookies } from '../testing/session.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ trustProxy: 1 });
});
afterAll(() => t.close());

async function signInOver(proto: 'http' | 'https') {
  const agent = request.agent(t.app);
  const page = await agent.get('/de/login').set('X-Forwarded-Proto', proto);
  const csrfCookie = setCookies(page).find((c) => c.includes('csrf'))!;
  const res = await agent.post('/de/login').set('X-Forwarded-Proto', proto).type('form')
    .set('Cookie', csrfCookie.split(';')[0])
    .send({ _csrf: csrfFrom(page.text), login: 'LESER', password: 'Leser12345' });
  return { page, res };
}

describe('cookies', () => {
  it('over HTTPS: __Host- prefixed, Secure, HttpOnly, SameSite=Lax, Path=/ and no Domain', async () => {
    const { page, res } = await signInOver('https');
    const csrf = setCookies(page).find((c) => c.includes('csrf'))!;
    const sid = setCookies(res).find((c) => c.startsWith('__Host-portal.sid='))!;
    for (const cookie of [csrf, sid]) {
      expect(cookie).toMatch(/^__Host-/);
      expect(cookie).toMatch(/; Secure/);
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; SameSite=Lax/);
      expect(cookie).toMatch(/; Path=\//);
      expect(cookie).not.toMatch(/; Domain=/i);
    }
  });

  it('over plain http (npm start on localhost): HttpOnly and SameSite without Secure, so sign-in works', async () => {
    const { res } = await signInOver('http');
    expect(res.status).toBe(302);
    const sid = setCookies(res).find((c) => c.startsWith('portal.sid='))!;
    expect(sid).toMatch(/; HttpOnly/);
    expect(sid).toMatch(/; SameSite=Lax/);
    expect(sid).not.toMatch(/; Secure/);
  });
});
