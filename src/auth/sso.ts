// Single sign-on with an OpenID Connect provider (Entra ID, Keycloak, Okta, ADFS, …).
//
// The browser signs in with the authorization code flow and PKCE (S256), as RFC 9700 asks of web clients: the
// portal sends the browser to the provider's authorization endpoint, the provider sends it back with a code
// (response_mode=query: a top-level GET, so the SameSite=Lax session cookie that holds state, nonce and code
// verifier comes along), and the portal redeems the code at the token endpoint. Endpoints and keys come from
// the provider's discovery document (openid-client, a certified relying-party library); the id_token is then
// checked once more here, as every id_token the portal accepts is: signature against the provider's JWKS
// (an unknown key id fetches the JWKS again, for key rotation), issuer, audience, expiry, nonce. An id_token
// is accepted once (a replay is refused; `sso_token_verwendung`), by either path.
import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import * as oidc from 'openid-client';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import { isLoopbackUrl, type SsoConfig } from '../config.js';

const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
/** Larger id_tokens are refused before anything is parsed (a provider's are 1–3 KB). */
export const MAX_ID_TOKEN_BYTES = 8192;
/** The discovery document is fetched again after this, so a provider's moved endpoint is picked up. */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;
/** How long the portal waits for the provider (discovery, token endpoint, JWKS) before saying it is unreachable. */
const PROVIDER_TIMEOUT_S = 5;
/** A sign-in that has not come back from the provider after this is forgotten. */
export const TRANSACTION_TTL_MS = 10 * 60 * 1000;

/** Why a sign-in failed; each has its text (locales auth:sso.*) and, for the log, an audit reason. */
export type SsoProblem =
  | 'unavailable' // the provider could not be reached or answered with a server error
  | 'denied' // the provider answered the authorization request with an error (e.g. access_denied)
  | 'invalid' // a malformed callback, a foreign state, a token that does not verify, a replay
  | 'tooLarge' // an id_token over MAX_ID_TOKEN_BYTES
  | 'noUser'; // a valid token that names no active user of the portal

export class SsoError extends Error {
  constructor(readonly problem: SsoProblem, readonly detail: string, readonly benutzerId?: number) {
    super(`SSO ${problem}: ${detail}`);
  }
}

/** What the browser's session keeps between the start of a sign-in and the provider's answer. */
export interface SsoTransaction {
  state: string;
  nonce: string;
  codeVerifier: string;
  redirectUri: string;
  redirect?: string;
  startedAt: number;
}

/** The provider is down or unreachable (not: it refused), so the user is told to try again later. */
function providerUnreachable(err: unknown): boolean {
  if (err instanceof oidc.ResponseBodyError) return err.status >= 500;
  if (err instanceof TypeError) return true; // fetch's network errors: "fetch failed"
  if (err instanceof oidc.ClientError) {
    if (err.code === 'OAUTH_TIMEOUT' || err.code === 'OAUTH_ABORT') return true;
    // An answer that is no OAuth answer at all (a 502 page of a load balancer, say).
    return err.cause instanceof Response && (err.cause.status >= 500 || err.cause.status === 429);
  }
  return false;
}

export class SsoClient {
  private discovered: { at: number; config: Promise<oidc.Configuration> } | null = null;
  private jwks: { uri: string; keys: ReturnType<typeof createRemoteJWKSet> } | null = null;
  private readonly fixedKey: KeyObject | null;

  constructor(readonly config: SsoConfig, private readonly clock: Clock) {
    this.fixedKey = config.publicKeyPem ? createPublicKey(config.publicKeyPem) : null;
  }

  /** The browser flow needs a client id; without one, only `POST /api/v1/sso/login` takes tokens. */
  get browserFlow(): boolean {
    return Boolean(this.config.clientId);
  }

  /** The provider's metadata from its discovery document, fetched once and kept for an hour. */
  private configuration(): Promise<oidc.Configuration> {
    const now = Date.now();
    if (this.discovered && now - this.discovered.at < DISCOVERY_TTL_MS) return this.discovered.config;
    const issuer = new URL(this.config.issuer);
    const clientAuth = this.config.clientSecret ? oidc.ClientSecretBasic(this.config.clientSecret) : oidc.None();
    const config = oidc.discovery(issuer, this.config.clientId ?? this.config.audience, undefined, clientAuth, {
      timeout: PROVIDER_TIMEOUT_S,
      execute: issuer.protocol === 'http:' && isLoopbackUrl(issuer) ? [oidc.allowInsecureRequests] : [],
    });
    this.discovered = { at: now, config };
    // A failed discovery is not kept: the next sign-in asks again.
    config.catch(() => {
      if (this.discovered?.config === config) this.discovered = null;
    });
    return config;
  }

  private async provider(): Promise<oidc.Configuration> {
    try {
      return await this.configuration();
    } catch (err) {
      throw new SsoError('unavailable', `discovery: ${(err as Error).message}`);
    }
  }

  /** Starts a sign-in: the provider's authorization URL and what the session must keep until the callback. */
  async start(redirectUri: string, redirect?: string): Promise<{ url: string; transaction: SsoTransaction }> {
    const provider = await this.provider();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const transaction: SsoTransaction = {
      state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier, redirectUri, redirect, startedAt: this.clock.now(),
    };
    const url = oidc.buildAuthorizationUrl(provider, {
      redirect_uri: redirectUri,
      response_type: 'code',
      response_mode: 'query',
      scope: 'openid email profile',
      state: transaction.state,
      nonce: transaction.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    });
    return { url: url.href, transaction };
  }

  /**
   * The provider's answer to the browser (the callback URL with code and state, or an error): redeems the code
   * and returns the verified claims of the id_token, or throws an SsoError.
   */
  async finish(callbackUrl: URL, transaction: SsoTransaction): Promise<{ claims: JWTPayload; idToken: string }> {
    const provider = await this.provider();
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(provider, callbackUrl, {
        pkceCodeVerifier: transaction.codeVerifier,
        expectedState: transaction.state,
        expectedNonce: transaction.nonce,
        idTokenExpected: true,
      });
    } catch (err) {
      if (err instanceof oidc.AuthorizationResponseError) throw new SsoError('denied', `${err.error}: ${err.error_description ?? ''}`);
      if (providerUnreachable(err)) throw new SsoError('unavailable', `token endpoint: ${(err as Error).message}`);
      throw new SsoError('invalid', `code exchange: ${(err as Error).message}`);
    }
    const idToken = tokens.id_token ?? '';
    const claims = await this.verify(idToken, transaction.nonce);
    return { claims, idToken };
  }

  /** The keys that sign the provider's tokens: a configured key, else the configured or discovered JWKS. */
  private async keys(): Promise<KeyObject | ReturnType<typeof createRemoteJWKSet>> {
    if (this.fixedKey) return this.fixedKey;
    const uri = this.config.jwksUrl ?? (await this.provider()).serverMetadata().jwks_uri;
    if (!uri) throw new SsoError('unavailable', 'the provider names no jwks_uri');
    if (this.jwks?.uri !== uri) {
      // jose fetches the set again when a token names a key id it does not hold (the provider rotated its
      // keys), at most once every 30 s, so a forged key id cannot make the portal hammer the provider.
      this.jwks = {
        uri,
        keys: createRemoteJWKSet(new URL(uri), { timeoutDuration: PROVIDER_TIMEOUT_S * 1000, cooldownDuration: this.config.jwksCooldownMs ?? 30_000 }),
      };
    }
    return this.jwks.keys;
  }

  /** The issuer the tokens name: the discovery document's, when discovery is used, else the configured one. */
  private async expectedIssuer(): Promise<string> {
    if (this.fixedKey || this.config.jwksUrl) return this.config.issuer;
    return (await this.provider()).serverMetadata().issuer;
  }

  /** The claims of an id_token that is valid for this portal now; throws an SsoError otherwise. */
  async verify(token: string, nonce?: string): Promise<JWTPayload> {
    if (Buffer.byteLength(token) > MAX_ID_TOKEN_BYTES) throw new SsoError('tooLarge', `${Buffer.byteLength(token)} bytes`);
    const [keys, issuer] = await Promise.all([this.keys(), this.expectedIssuer()]);
    try {
      const { payload } = await jwtVerify(token, keys as KeyObject, {
        issuer,
        audience: this.config.audience,
        algorithms: ALGORITHMS,
        currentDate: new Date(this.clock.now()),
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      if (nonce !== undefined && payload.nonce !== nonce) throw new Error('nonce mismatch');
      return payload;
    } catch (err) {
      const name = (err as { code?: string })?.code;
      if (name === 'ERR_JWKS_TIMEOUT' || (err instanceof TypeError && /fetch/i.test(err.message))) {
        throw new SsoError('unavailable', `jwks: ${(err as Error).message}`);
      }
      throw new SsoError('invalid', `id_token: ${(err as Error).message}`);
    }
  }

  /**
   * Marks a verified id_token as used; false when it was used before (a replay). Kept until the token expires,
   * in the database, so every instance of the portal knows it.
   */
  async consumeOnce(knex: Knex, token: string, claims: JWTPayload): Promise<boolean> {
    const now = new Date(this.clock.now());
    const hash = createHash('sha256').update(token).digest('hex');
    const expires = new Date(Number(claims.exp) * 1000);
    await knex('sso_token_verwendung').where('gueltig_bis', '<', now).delete();
    const inserted = await knex('sso_token_verwendung')
      .insert({ token_hash: hash, gueltig_bis: expires, verwendet_am: now })
      .onConflict('token_hash')
      .ignore()
      .returning('token_hash');
    return inserted.length === 1;
  }

  /**
   * The active user the token names: by remembered subject, else by verified e-mail (then remembered). Throws
   * SsoError('noUser') naming the known but inactive user, so the audit entry can say whose sign-in failed.
   */
  async userIdFor(knex: Knex, claims: JWTPayload): Promise<number> {
    const subject = `${this.config.issuer}|${claims.sub}`;
    const bySubject = await knex('benutzer').where({ sso_subject: subject }).first('id', 'status');
    if (bySubject) {
      if (bySubject.status !== 'active') throw new SsoError('noUser', 'inactive user', bySubject.id);
      return bySubject.id;
    }
    const email = typeof claims.email === 'string' ? claims.email : null;
    if (!email) throw new SsoError('noUser', 'unknown subject and no e-mail');
    // Refused when the provider says it did not verify the address; Entra ID sends no such claim at all, so a
    // missing one is accepted (docs/decisions.md, "SSO": use a tenant-specific issuer there).
    if (claims.email_verified === false) throw new SsoError('noUser', 'e-mail not verified by the provider');
    const byEmail = await knex('benutzer').whereRaw('lower(email) = lower(?)', [email]).first('id', 'status', 'sso_subject');
    if (!byEmail) throw new SsoError('noUser', 'unknown e-mail');
    if (byEmail.status !== 'active') throw new SsoError('noUser', 'inactive user', byEmail.id);
    if (byEmail.sso_subject && byEmail.sso_subject !== subject) throw new SsoError('noUser', 'e-mail bound to another subject', byEmail.id);
    await knex('benutzer').where({ id: byEmail.id }).update({ sso_subject: subject });
    return byEmail.id;
  }

  /** The whole check after a token is in hand: valid, not used before, a user. Returns the user's id. */
  async signIn(knex: Knex, token: string, claims: JWTPayload): Promise<number> {
    if (!(await this.consumeOnce(knex, token, claims))) throw new SsoError('invalid', 'id_token used before');
    return this.userIdFor(knex, claims);
  }
}
