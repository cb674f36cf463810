import { exportSPKI, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock.js';
import { createTestApp, type TestApp } from '../../testing/app.js';

const ISSUER = 'https://idp.example.test';
const AUDIENCE = 'nachhaltigkeitsportal';
const clock = new ManualClock(Date.parse('2026-11-21T15:00:00Z'));
let t: TestApp;
let unconfigured: TestApp;
let key: CryptoKey;
let otherKey: CryptoKey;

beforeAll(async () => {
  const pair = await generateKeyPair('RS256');
  key = pair.privateKey;
  otherKey = (await generateKeyPair('RS256')).privateKey;
  const sso = {
    issuer: ISSUER, audience: AUDIENCE, publicKeyPem: await exportSPKI(pair.publicKey),
    authorizeUrl: 'https://idp.example.test/authorize', clientId: 'portal',
  };
  t = await createTestApp({ sso }, clock);
  unconfigured = await createTestApp({}, clock);
});
afterAll(async () => {
  await t.close();
  await unconfigured.close();
});

function idToken(claims: Record<string, unknown>, opts: { signWith?: CryptoKey; audience?: string; issuer?: string; expiresInS?: number; subject?: string } = {}) {
  const now = Math.floor(clock.now() / 1000);
  return new SignJWT({ email: 'user@demo-portal.example', email_verified: true, ...claims })
    .setProtectedHeader({ alg: 'RS256' })
    .setIssuer(opts.issuer ?? ISSUER)
    .setAudience(opts.audience ?? AUDIENCE)
    .setSubject(opts.subject ?? 'idp-user-1')
    .setIssuedAt(now)
    .setExpirationTime(now + (opts.expiresInS ?? 300))
    .sign(opts.signWith ?? key);
}

describe('POST /api/v1/sso/login', () => {
  it('signs in with a valid id_token and returns what login returns', async () => {
    const res = await request(t.app).post('/api/v1/sso/login').send({ token: await idToken({}) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, vorname: 'Ulrike', email: 'user@demo-portal.example' });
    expect(res.body.token).toMatch(/^Bearer /);
    const session = await request(t.app).get('/api/v1/account/session').set({ Authorization: res.body.token, 'X-Mandant': 'DEMO' });
    expect(session.status).toBe(200);
  });

  it('remembers the subject: the next token finds the user even with another e-mail', async () => {
    const res = await request(t.app).post('/api/v1/sso/login').send({ token: await idToken({ email: 'changed@idp.example' }) });
    expect(res.status).toBe(200);
    expect(res.body.vorname).toBe('Ulrike');
  });

  it.each([
    ['an expired token', () => idToken({}, { expiresInS: -10 })],
    ['a token for another audience', () => idToken({}, { audience: 'someone-else' })],
    ['a token of another issuer', () => idToken({}, { issuer: 'https://evil.example' })],
    ['a token signed with another key', () => idToken({}, { signWith: otherKey })],
    ['a token for an unknown user', () => idToken({ email: 'niemand@example.test' }, { subject: 'unknown-subject' })],
    ['an unverified e-mail address', () => idToken({ email: 'tadmin@demo-portal.example', email_verified: false }, { subject: 'other' })],
  ])('refuses %s with 401', async (_label, make) => {
    const token = await make();
    const res = await request(t.app).post('/api/v1/sso/login').send({ token });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, code: 'SSO_FAILED' });
    expect(res.body.token).toBeUndefined();
  });

  it('refuses an inactive user', async () => {
    await t.db.knex('benutzer').where({ login: 'LESER' }).update({ status: 'inactive' });
    try {
      const token = await idToken({ email: 'leser@demo-portal.example' }, { subject: 'leser-sub' });
      expect((await request(t.app).post('/api/v1/sso/login').send({ token })).status).toBe(401);
    } finally {
      await t.db.knex('benutzer').where({ login: 'LESER' }).update({ status: 'active' });
    }
  });

  it('says that SSO is not set up when it is not', async () => {
    const res = await request(unconfigured.app).post('/api/v1/sso/login').send({ token: await idToken({}) });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Single Sign-on ist für dieses Portal nicht eingerichtet.');
    const page = await request(unconfigured.app).get('/de/sso');
    expect(page.text).toContain('Single Sign-on ist für dieses Portal nicht eingerichtet.');
  });
});

describe('/sso in the browser (form_post)', () => {
  it('sends the browser to the identity provider and signs in with the posted id_token', async () => {
    const agent = request.agent(t.app);
    const page = await agent.get('/de/sso?redirect=%2Fde%2Fhilfe%2Ffaq');
    const href = page.text.match(/href="(https:\/\/idp\.example\.test\/authorize\?[^"]+)"/)![1].replace(/&amp;/g, '&');
    const params = new URL(href).searchParams;
    expect(params.get('client_id')).toBe('portal');
    expect(params.get('response_mode')).toBe('form_post');
    const token = await idToken({ nonce: params.get('nonce') });
    const wrongState = await agent.post('/de/sso').type('form').send({ id_token: token, state: 'forged' });
    expect(wrongState.status).toBe(400);

    const again = await agent.get('/de/sso?redirect=%2Fde%2Fhilfe%2Ffaq');
    const p2 = new URL(again.text.match(/href="(https:\/\/idp\.example\.test\/authorize\?[^"]+)"/)![1].replace(/&amp;/g, '&')).searchParams;
    const res = await agent.post('/de/sso').type('form').send({ id_token: await idToken({ nonce: p2.get('nonce') }), state: p2.get('state') });
    expect(res.status).toBe(302);
    expect(res.headers.location).toMatch(/^\/de\/mandant-selection\?redirect=%2Fde%2Fhilfe%2Ffaq/);
  });

  it('refuses a token whose nonce does not match', async () => {
    const agent = request.agent(t.app);
    const page = await agent.get('/de/sso');
    const p = new URL(page.text.match(/href="(https:\/\/idp\.example\.test\/authorize\?[^"]+)"/)![1].replace(/&amp;/g, '&')).searchParams;
    const res = await agent.post('/de/sso').type('form').send({ id_token: await idToken({ nonce: 'other' }), state: p.get('state') });
    expect(res.status).toBe(401);
    expect(res.text).toContain('Die Anmeldung über Single Sign-on ist fehlgeschlagen.');
  });
});
