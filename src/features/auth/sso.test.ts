// Single sign-on against a real OpenID Connect provider (oidc-provider from npm, src/testing/oidc-provider.ts) on
// another host name: the browser's authorization code flow with PKCE, discovery, the id_token's checks, no
// replay, the mapping to users, and every way a sign-in can go wrong.
import { exportSPKI, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import * as oidc from 'openid-client';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock.js';
import type { SsoConfig } from '../../config.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { signInAt, startTestProvider, type TestProvider } from '../../testing/oidc-provider.js';

// The portal as the provider knows it: requests below carry this Host, so redirect_uri is built from it.
const PORTAL = 'http://portal.test';
const ERP_CALLBACK = 'http://erp.test/callback';
const FAILED = 'Die Anmeldung über Single Sign-on ist fehlgeschlagen. Bitte versuchen Sie es erneut oder melden Sie sich mit Benutzername und Passwort an.';

let provider: TestProvider;
let t: TestApp;
let sso: SsoConfig;

const clients = () => [
  { client_id: 'portal', client_secret: 'portal-geheimnis', redirect_uris: [`${PORTAL}/de/sso/callback`, `${PORTAL}/en/sso/callback`, ERP_CALLBACK] },
  { client_id: 'portal-public', redirect_uris: [`${PORTAL}/de/sso/callback`] },
  { client_id: 'anderes-system', redirect_uris: [ERP_CALLBACK] },
];

beforeAll(async () => {
  provider = await startTestProvider();
  await provider.configure(clients());
  sso = { issuer: provider.issuer, clientId: 'portal', clientSecret: 'portal-geheimnis', audience: 'portal', jwksCooldownMs: 0 };
  t = await createTestApp({ sso });
});
afterAll(async () => {
  await t?.close();
  await provider?.close();
});

const get = (agent: TestAgent, path: string) => agent.get(path).set('Host', 'portal.test');

/** The browser's way: the portal's start, the provider's pages as `login`, and back to the portal's callback. */
async function browserSignIn(agent: TestAgent, login: string, options: { start?: string; abort?: boolean } = {}) {
  const start = await get(agent, options.start ?? '/de/sso/start?redirect=%2Fde%2Fhilfe%2Ffaq');
  expect(start.status, start.text).toBe(302);
  const callback = await signInAt(start.headers.location, login, { portalOrigin: PORTAL, abort: options.abort });
  return { start: new URL(start.headers.location), callback, res: await get(agent, callback.pathname + callback.search) };
}

/** An id_token as an outside application gets it from the provider for a client (code flow with PKCE). */
async function idTokenFor(login: string, clientId = 'portal', secret?: string): Promise<string> {
  const config = await oidc.discovery(new URL(provider.issuer), clientId, undefined, secret ? oidc.ClientSecretBasic(secret) : oidc.None(), {
    execute: [oidc.allowInsecureRequests],
  });
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  // Without a nonce, two tokens for the same user issued in the same second are the same bytes (RS256 signs
  // deterministically), and the portal rightly refuses the second as a replay. Outside applications send one.
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: ERP_CALLBACK, scope: 'openid email', state, nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
  });
  const callback = await signInAt(url.href, login, { portalOrigin: 'http://erp.test' });
  const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
  return tokens.id_token!;
}

async function lastSsoFailure(knex: TestApp['db']['knex']) {
  return knex('audit_log').where({ kind: 'auth.sso.failed' }).orderBy('id', 'desc').first('benutzer_id', 'after');
}

async function signedIn(agent: TestAgent): Promise<boolean> {
  const res = await get(agent, '/de/mandant-selection');
  return res.status === 200 && res.text.includes('name="mandant"');
}

describe('the browser: authorization code flow with PKCE', () => {
  it('asks the provider for a code with S256 PKCE, state and nonce, and signs the user in with the kept target', async () => {
    const agent = request.agent(t.app);
    const { start, res } = await browserSignIn(agent, 'ulrike');
    expect(start.origin).toBe(provider.issuer);
    const p = start.searchParams;
    expect(p.get('response_type')).toBe('code');
    expect(p.get('response_mode')).toBe('query');
    expect(p.get('client_id')).toBe('portal');
    expect(p.get('redirect_uri')).toBe(`${PORTAL}/de/sso/callback`);
    expect(p.get('code_challenge_method')).toBe('S256');
    expect(p.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(p.get('state')).toBeTruthy();
    expect(p.get('nonce')).toBeTruthy();
    expect(p.get('scope')!.split(' ')).toContain('openid');
    // USER belongs to two tenants: the tenant selection, then the page the user came from.
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/de/mandant-selection?redirect=%2Fde%2Fhilfe%2Ffaq');
    expect(await signedIn(agent)).toBe(true);
  });

  it('remembers the subject: the next sign-in finds the user by it', async () => {
    const row = await t.db.knex('benutzer').where({ login: 'USER' }).first('sso_subject');
    expect(row.sso_subject).toBe(`${provider.issuer}|ulrike`);
  });

  it('signs a single-tenant user straight into the English page they asked for', async () => {
    const agent = request.agent(t.app);
    const { res } = await browserSignIn(agent, 'tadmin', { start: '/en/sso/start?redirect=%2Fen%2Fhilfe%2Ffaq' });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/en/hilfe/faq');
    const page = await get(agent, '/en/hilfe/faq');
    expect(page.status).toBe(200);
  });

  it('works as a public client with PKCE alone (no client secret)', async () => {
    const pub = await createTestApp({ sso: { issuer: provider.issuer, clientId: 'portal-public', audience: 'portal-public' } });
    try {
      const agent = request.agent(pub.app);
      const { res } = await browserSignIn(agent, 'tadmin');
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('/de/hilfe/faq');
    } finally {
      await pub.close();
    }
  });

  it('refuses a tampered state with 400, signs nobody in, and audits it', async () => {
    const agent = request.agent(t.app);
    const start = await get(agent, '/de/sso/start');
    const callback = await signInAt(start.headers.location, 'ulrike', { portalOrigin: PORTAL });
    callback.searchParams.set('state', `${callback.searchParams.get('state')}x`);
    const res = await get(agent, callback.pathname + callback.search);
    expect(res.status).toBe(400);
    expect(res.text).toContain(FAILED);
    expect(await signedIn(agent)).toBe(false);
    expect((await lastSsoFailure(t.db.knex)).after).toMatchObject({ grund: 'invalid' });
  });

  it('accepts a code once: the same callback a second time is refused', async () => {
    const agent = request.agent(t.app);
    const { callback, res } = await browserSignIn(agent, 'tadmin');
    expect(res.status).toBe(302);
    const again = await get(request.agent(t.app), callback.pathname + callback.search);
    expect(again.status).toBe(400);
    expect(again.text).toContain(FAILED);
  });

  it.each([
    ['without state or code', '/de/sso/callback'],
    ['with a state this browser never started', '/de/sso/callback?code=abc&state=erfunden'],
  ])('refuses a callback %s with 400', async (_label, path) => {
    const agent = request.agent(t.app);
    const res = await get(agent, path);
    expect(res.status).toBe(400);
    expect(res.text).toContain(FAILED);
    expect(await signedIn(agent)).toBe(false);
  });

  it('refuses a callback with a state but no code', async () => {
    const agent = request.agent(t.app);
    const start = await get(agent, '/de/sso/start');
    const state = new URL(start.headers.location).searchParams.get('state')!;
    const res = await get(agent, `/de/sso/callback?state=${state}`);
    expect(res.status).toBe(400);
  });

  it('shows the provider refusing (access_denied) as such, with 401, and audits it', async () => {
    const agent = request.agent(t.app);
    const { callback, res } = await browserSignIn(agent, 'ulrike', { abort: true });
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(res.status).toBe(401);
    expect(res.text).toContain('Der Anmeldedienst Ihres Unternehmens hat die Anmeldung abgebrochen oder abgelehnt.');
    expect(res.text).toContain('Erneut über Ihr Unternehmen anmelden');
    expect(await signedIn(agent)).toBe(false);
    expect((await lastSsoFailure(t.db.knex)).after).toMatchObject({ grund: 'denied' });
  });

  it.each([
    ['a deactivated user', 'leser', 'LESER'],
    ['an e-mail address the portal does not know', 'fremd', null],
    ['an e-mail address the provider has not verified', 'unbestaetigt', null],
  ])('refuses %s with the clear SSO error and an audit entry', async (_label, login, portalLogin) => {
    if (portalLogin) await t.db.knex('benutzer').where({ login: portalLogin }).update({ status: 'inactive' });
    try {
      const agent = request.agent(t.app);
      const { res } = await browserSignIn(agent, login);
      expect(res.status).toBe(401);
      expect(res.text).toContain('gehört zu keinem aktiven Benutzer dieses Portals');
      expect(await signedIn(agent)).toBe(false);
      const entry = await lastSsoFailure(t.db.knex);
      expect(entry.after).toMatchObject({ grund: 'noUser' });
      if (portalLogin) {
        const user = await t.db.knex('benutzer').where({ login: portalLogin }).first('id');
        expect(entry.benutzer_id).toBe(user.id);
      }
    } finally {
      if (portalLogin) await t.db.knex('benutzer').where({ login: portalLogin }).update({ status: 'active' });
    }
  });

  it('says clearly when the provider cannot be reached, at the start and at the code exchange, and never 500', async () => {
    // A portal that has not yet read the provider's discovery document.
    const fresh = await createTestApp({ sso });
    try {
      provider.down(true);
      const res = await get(request.agent(fresh.app), '/de/sso/start');
      expect(res.status).toBe(503);
      expect(res.text).toContain('Der Anmeldedienst Ihres Unternehmens ist gerade nicht erreichbar.');
    } finally {
      provider.down(false);
      await fresh.close();
    }
    const agent = request.agent(t.app);
    const start = await get(agent, '/de/sso/start');
    const callback = await signInAt(start.headers.location, 'ulrike', { portalOrigin: PORTAL });
    provider.down(true);
    try {
      const res = await get(agent, callback.pathname + callback.search);
      expect(res.status).toBe(503);
      expect(res.text).toContain('Der Anmeldedienst Ihres Unternehmens ist gerade nicht erreichbar.');
      expect(await signedIn(agent)).toBe(false);
    } finally {
      provider.down(false);
    }
  });

  it('says clearly when nothing answers at the issuer at all', async () => {
    const nowhere = await createTestApp({ sso: { issuer: 'http://127.0.0.1:9', clientId: 'portal', audience: 'portal' } });
    try {
      const res = await get(request.agent(nowhere.app), '/de/sso/start');
      expect(res.status).toBe(503);
      expect(res.text).toContain('Der Anmeldedienst Ihres Unternehmens ist gerade nicht erreichbar.');
    } finally {
      await nowhere.close();
    }
  });
});

describe('POST /api/v1/sso/login with a provider id_token', () => {
  it('signs in once with a token of the provider; the same token a second time is 401 with the SSO text', async () => {
    const token = await idTokenFor('tadmin', 'portal', 'portal-geheimnis');
    const first = await request(t.app).post('/api/v1/sso/login').send({ token });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, email: 'tadmin@demo-portal.example' });
    expect(first.body.token).toMatch(/^Bearer /);
    const replay = await request(t.app).post('/api/v1/sso/login').send({ token });
    expect(replay.status).toBe(401);
    expect(replay.body).toMatchObject({ success: false, code: 'SSO_FAILED', message: FAILED });
    expect(replay.body.token).toBeUndefined();
    expect((await lastSsoFailure(t.db.knex)).after).toMatchObject({ grund: 'invalid', detail: 'id_token used before' });
  });

  it('refuses a token the provider issued for another application (wrong audience)', async () => {
    const token = await idTokenFor('tadmin', 'anderes-system');
    const res = await request(t.app).post('/api/v1/sso/login').send({ token });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('SSO_FAILED');
  });

  it('refuses an expired token', async () => {
    const token = await idTokenFor('tadmin', 'portal', 'portal-geheimnis');
    // The provider's id_tokens live an hour; this portal's clock is two hours on.
    const later = await createTestApp({ sso }, new ManualClock(Date.now() + 2 * 3600_000));
    try {
      const res = await request(later.app).post('/api/v1/sso/login').send({ token });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('SSO_FAILED');
    } finally {
      await later.close();
    }
  });

  it('refuses a token signed with a key the provider does not publish', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ email: 'tadmin@demo-portal.example', email_verified: true })
      .setProtectedHeader({ alg: 'RS256', kid: 'fremder-schluessel' })
      .setIssuer(provider.issuer).setAudience('portal').setSubject('sub-tadmin').setIssuedAt(now).setExpirationTime(now + 300)
      .sign(privateKey);
    const res = await request(t.app).post('/api/v1/sso/login').send({ token });
    expect(res.status).toBe(401);
  });

  it('follows the provider\'s key rotation: a token signed with a new key is accepted', async () => {
    const before = await idTokenFor('tadmin', 'portal', 'portal-geheimnis');
    expect((await request(t.app).post('/api/v1/sso/login').send({ token: before })).status).toBe(200);
    await provider.configure(clients(), { rotateKey: true });
    const after = await idTokenFor('tadmin', 'portal', 'portal-geheimnis');
    const kid = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[0], 'base64url').toString()).kid;
    expect(kid(after)).not.toBe(kid(before));
    const res = await request(t.app).post('/api/v1/sso/login').send({ token: after });
    expect(res.status).toBe(200);
  });

  it('refuses a token larger than 8 KB with 413 and says why', async () => {
    const res = await request(t.app).post('/api/v1/sso/login').send({ token: `eyJ${'a'.repeat(9000)}` });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ success: false, code: 'SSO_TOKEN_TOO_LARGE', message: 'Das Token des Anmeldedienstes ist zu groß (höchstens 8 KB).' });
  });

  it('refuses a deactivated user\'s token', async () => {
    await t.db.knex('benutzer').where({ login: 'TADMIN' }).update({ status: 'inactive' });
    try {
      const token = await idTokenFor('tadmin', 'portal', 'portal-geheimnis');
      expect((await request(t.app).post('/api/v1/sso/login').send({ token })).status).toBe(401);
    } finally {
      await t.db.knex('benutzer').where({ login: 'TADMIN' }).update({ status: 'active' });
    }
  });
});

describe('a key configured by hand (SSO_PUBLIC_KEY) and SSO switched off', () => {
  const ISSUER = 'https://idp.example.test';
  const clock = new ManualClock(Date.parse('2026-11-21T15:00:00Z'));
  let fixed: TestApp;
  let unconfigured: TestApp;
  let key: CryptoKey;

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    key = pair.privateKey;
    fixed = await createTestApp({ sso: { issuer: ISSUER, audience: 'nachhaltigkeitsportal', publicKeyPem: await exportSPKI(pair.publicKey) } }, clock);
    unconfigured = await createTestApp({}, clock);
  });
  afterAll(async () => {
    await fixed?.close();
    await unconfigured?.close();
  });

  const token = (claims: Record<string, unknown> = {}) => {
    const now = Math.floor(clock.now() / 1000);
    return new SignJWT({ email: 'user@demo-portal.example', email_verified: true, ...claims })
      .setProtectedHeader({ alg: 'RS256' }).setIssuer(ISSUER).setAudience('nachhaltigkeitsportal').setSubject('idp-user-1')
      .setIssuedAt(now).setExpirationTime(now + 300).sign(key);
  };

  it('accepts a token signed with that key on the API, once', async () => {
    const jwt = await token();
    const res = await request(fixed.app).post('/api/v1/sso/login').send({ token: jwt });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, vorname: 'Ulrike' });
    expect((await request(fixed.app).post('/api/v1/sso/login').send({ token: jwt })).status).toBe(401);
  });

  it('has no browser flow without a client id: the SSO page says sign-in happens in the company\'s application, the login page has no SSO button', async () => {
    const page = await request(fixed.app).get('/de/sso');
    expect(page.text).toContain('die Anmeldung erfolgt über die Anwendung Ihres Unternehmens');
    expect((await request(fixed.app).get('/de/sso/start')).status).toBe(404);
    expect((await request(fixed.app).get('/de/login')).text).not.toContain('/de/sso/start');
  });

  it('says that SSO is not set up when it is not, and the login page offers no SSO', async () => {
    const res = await request(unconfigured.app).post('/api/v1/sso/login').send({ token: await token() });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Single Sign-on ist für dieses Portal nicht eingerichtet.');
    expect((await request(unconfigured.app).get('/de/sso')).text).toContain('Single Sign-on ist für dieses Portal nicht eingerichtet.');
    const login = await request(unconfigured.app).get('/de/login');
    expect(login.text).not.toContain('Mit Single Sign-on anmelden');
  });

  it('shows the SSO button on the login page when the browser flow is set up', async () => {
    const login = await request(t.app).get('/de/login?redirect=%2Fde%2Fhilfe%2Ffaq');
    expect(login.text).toContain('Mit Single Sign-on anmelden');
    expect(login.text).toContain('href="/de/sso/start?redirect=%2Fde%2Fhilfe%2Ffaq"');
  });
});
