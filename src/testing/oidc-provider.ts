// A real OpenID Connect provider for the SSO tests: `oidc-provider` (a certified OP implementation from npm)
// on its own port and host name, with its development sign-in pages (any login, no password check) and the
// accounts below. The portal talks to it as to Entra ID or Keycloak: discovery, authorization endpoint, token
// endpoint, JWKS. Tests drive its pages over HTTP (signInAt) or in Chromium.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/** The identity provider's users: login at the provider → the claims it puts into the id_token. */
export const PROVIDER_ACCOUNTS: Record<string, { email: string; email_verified: boolean; name: string }> = {
  // USER of the demo data, found by e-mail the first time, then by the remembered subject.
  'ulrike': { email: 'user@demo-portal.example', email_verified: true, name: 'Ulrike Demo' },
  'tadmin': { email: 'tadmin@demo-portal.example', email_verified: true, name: 'Tadmin Demo' },
  'leser': { email: 'leser@demo-portal.example', email_verified: true, name: 'Leser Demo' },
  'fremd': { email: 'niemand@example.test', email_verified: true, name: 'Unbekannt' },
  'unbestaetigt': { email: 'tadmin@demo-portal.example', email_verified: false, name: 'Nicht bestätigt' },
};

export interface ProviderClient {
  client_id: string;
  client_secret?: string;
  redirect_uris: string[];
}

export interface TestProvider {
  /** http://localhost:PORT — the portal under test is reached as 127.0.0.1, so the two are different sites. */
  issuer: string;
  /** (Re)creates the provider with these clients, signing with the given key (a new one: key rotation). */
  configure(clients: ProviderClient[], options?: { rotateKey?: boolean }): Promise<void>;
  /** Makes every request fail with 503, as a provider that is down behind its load balancer. */
  down(isDown: boolean): void;
  close(): Promise<void>;
}

async function signingKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid: `k${Math.random().toString(36).slice(2, 10)}`, alg: 'RS256', use: 'sig' };
}

export async function startTestProvider(port = 0): Promise<TestProvider> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | null = null;
  let isDown = false;
  const server: Server = createServer((req, res) => {
    if (isDown || !handler) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('unavailable');
      return;
    }
    handler(req, res);
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  const issuer = `http://localhost:${(server.address() as AddressInfo).port}`;
  const keys: JWK[] = [];

  return {
    issuer,
    async configure(clients, options = {}) {
      // Rotation as providers do it: the new key signs, the old one is still published.
      if (!keys.length || options.rotateKey) keys.unshift(await signingKey());
      const provider = new Provider(issuer, {
        clients: clients.map((c) => ({
          ...c,
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: c.client_secret ? 'client_secret_basic' : 'none',
        })),
        jwks: { keys: keys.slice(0, 2) },
        cookies: { keys: ['test-provider-cookie-key'] },
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
        // Scope claims in the id_token itself, as Keycloak and Entra ID (with the optional claim) do.
        conformIdTokenClaims: false,
        findAccount: (_ctx: KoaContextWithOIDC, id: string) => {
          const account = PROVIDER_ACCOUNTS[id];
          return account ? { accountId: id, claims: () => ({ sub: id, ...account }) } : undefined;
        },
        // A first-party application: no consent page.
        loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
          const accountId = ctx.oidc.session?.accountId;
          if (!accountId || !ctx.oidc.client) return undefined;
          const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId });
          grant.addOIDCScope('openid email profile');
          await grant.save();
          return grant;
        },
        pkce: { required: () => true },
        ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 3600, AuthorizationCode: 60 },
        features: { devInteractions: { enabled: true } },
        renderError: async (ctx: KoaContextWithOIDC, out: object) => {
          ctx.type = 'json';
          ctx.body = out;
        },
      });
      // oidc-provider logs its development-mode warnings once per process; nothing to see in a test run.
      provider.on('server_error', () => {});
      handler = provider.callback();
    },
    down(value) {
      isDown = value;
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** A cookie jar for one browser's visit to the provider (its session and interaction cookies). */
class Jar {
  private cookies = new Map<string, string>();
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }
}

/**
 * Goes through the provider's pages as a browser would, from its authorization URL to the redirect back to the
 * portal, signing in as `login` (or pressing "cancel" on the sign-in page): the portal's callback URL with
 * code and state (or error). Throws when the provider ends anywhere else.
 */
export async function signInAt(authorizeUrl: string, login: string, options: { abort?: boolean; portalOrigin: string }): Promise<URL> {
  const jar = new Jar();
  let url = new URL(authorizeUrl);
  let method: 'GET' | 'POST' = 'GET';
  let body: URLSearchParams | undefined;
  for (let step = 0; step < 12; step++) {
    const res = await fetch(url, { method, body, redirect: 'manual', headers: { cookie: jar.header() } });
    jar.store(res);
    const location = res.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      if (next.origin === options.portalOrigin) return next;
      url = next;
      method = 'GET';
      body = undefined;
      continue;
    }
    const html = await res.text();
    if (res.status !== 200) throw new Error(`provider answered ${res.status} at ${url.pathname}: ${html.slice(0, 300)}`);
    const action = html.match(/<form[^>]*action="([^"]+)"/)?.[1];
    const prompt = html.match(/name="prompt" value="(\w+)"/)?.[1];
    if (!action || !prompt) throw new Error(`no sign-in form at ${url.pathname}`);
    if (options.abort) {
      const abort = html.match(/href="([^"]+\/abort)"/)?.[1];
      if (!abort) throw new Error('no abort link on the provider page');
      url = new URL(abort.replace(/&amp;/g, '&'), url);
      continue;
    }
    url = new URL(action.replace(/&amp;/g, '&'), url);
    method = 'POST';
    body = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'egal' } : { prompt });
  }
  throw new Error('the provider did not send the browser back to the portal');
}
