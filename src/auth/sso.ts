// Single sign-on: an OIDC id_token of the configured identity provider, checked for signature (JWKS or a
// public key), issuer, audience and expiry, mapped to an active user by SSO subject or e-mail.
import { createPublicKey, type KeyObject } from 'node:crypto';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import type { SsoConfig } from '../config.js';

const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384', 'EdDSA'];

export class SsoVerifier {
  private readonly key: KeyObject | ReturnType<typeof createRemoteJWKSet>;

  constructor(readonly config: SsoConfig, private readonly clock: Clock) {
    this.key = config.jwksUrl ? createRemoteJWKSet(new URL(config.jwksUrl)) : createPublicKey(config.publicKeyPem!);
  }

  /** The token's claims when it is valid for this portal, else null. `nonce` must match when given. */
  async verify(token: string, nonce?: string): Promise<JWTPayload | null> {
    try {
      const { payload } = await jwtVerify(token, this.key as KeyObject, {
        issuer: this.config.issuer,
        audience: this.config.audience,
        algorithms: ALGORITHMS,
        currentDate: new Date(this.clock.now()),
        requiredClaims: ['sub', 'exp'],
      });
      if (nonce !== undefined && payload.nonce !== nonce) return null;
      return payload;
    } catch {
      return null;
    }
  }

  /** The active user the token names: by remembered subject, else by verified e-mail (then remembered). */
  async userIdFor(knex: Knex, claims: JWTPayload): Promise<number | null> {
    const subject = `${this.config.issuer}|${claims.sub}`;
    const bySubject = await knex('benutzer').where({ sso_subject: subject, status: 'active' }).first('id');
    if (bySubject) return bySubject.id;
    const email = typeof claims.email === 'string' ? claims.email : null;
    if (!email || claims.email_verified === false) return null;
    const byEmail = await knex('benutzer').whereRaw('lower(email) = lower(?)', [email]).andWhere({ status: 'active' }).first('id', 'sso_subject');
    if (!byEmail || (byEmail.sso_subject && byEmail.sso_subject !== subject)) return null;
    await knex('benutzer').where({ id: byEmail.id }).update({ sso_subject: subject });
    return byEmail.id;
  }
}
