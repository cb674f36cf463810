// Access tokens: three-part JWTs (HS256) bound to a server-side session row. The JWT alone is never enough:
// every call also needs its session (`sid`) to be alive, so logout and deactivation revoke at once.
import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { Clock } from '../clock.js';
import type { CurrentUser } from './current-user.js';

export const ACCESS_TOKEN_TTL_S = 8 * 60 * 60; // absolute session lifetime
export const MFA_PENDING_TTL_S = 5 * 60; // between password and code
const ISSUER = 'nachhaltigkeitsportal';

export interface AccessClaims {
  sub: string;
  unique_name: string;
  /** One entry per tenant: `TENANT|permissions` (role type numbers, `admin` for a tenant administrator). */
  role: string[];
  /** The tenant chosen automatically when the user has exactly one; otherwise null. */
  mandant: string | null;
  sid: string;
  typ: 'access';
}

export interface MfaPendingClaims {
  sub: string;
  typ: 'mfa';
  jti: string;
}

export type TokenProblem = 'missing' | 'format' | 'undecodable' | 'noUser';

export function roleClaims(user: CurrentUser): string[] {
  return user.mandanten.map((m) => {
    const types = user.rollen.filter((r) => r.mandant === m.mandant).map((r) => r.typ);
    const permissions = [...(m.adminKz ? ['admin'] : []), ...[...new Set(types)].sort((a, b) => a - b).map(String)];
    return `${m.mandant}|${permissions.join(',')}`;
  });
}

export class TokenService {
  private readonly key: Uint8Array;

  constructor(secret: string, private readonly clock: Clock) {
    this.key = new TextEncoder().encode(`jwt:${secret}`);
  }

  private nowS(): number {
    return Math.floor(this.clock.now() / 1000);
  }

  async access(user: CurrentUser, sid: string): Promise<string> {
    const claims: AccessClaims = {
      sub: String(user.id),
      unique_name: user.login,
      role: roleClaims(user),
      mandant: user.mandanten.length === 1 ? user.mandanten[0].mandant : null,
      sid,
      typ: 'access',
    };
    return new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setIssuedAt(this.nowS())
      .setExpirationTime(this.nowS() + ACCESS_TOKEN_TTL_S)
      .setJti(randomBytes(12).toString('base64url'))
      .sign(this.key);
  }

  async mfaPending(userId: number): Promise<string> {
    return new SignJWT({ typ: 'mfa' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(userId))
      .setIssuer(ISSUER)
      .setIssuedAt(this.nowS())
      .setExpirationTime(this.nowS() + MFA_PENDING_TTL_S)
      .setJti(randomBytes(12).toString('base64url'))
      .sign(this.key);
  }

  private async verify<T>(token: string, typ: string): Promise<T | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: ISSUER,
        algorithms: ['HS256'],
        currentDate: new Date(this.clock.now()),
      });
      return payload.typ === typ ? (payload as T) : null;
    } catch (err) {
      if (err instanceof joseErrors.JOSEError || err instanceof TypeError) return null;
      throw err;
    }
  }

  /**
   * What is wrong with an Authorization header, in the order of spec section 8's self-reset texts: no token in
   * it (empty, or a client's `Bearer null`), not `Bearer x.y.z`, not decodable or not ours (signature, issuer,
   * algorithm), no user in it (neither sub nor unique_name). Null when none of these: an expired token or a
   * dead session is the session check's business (401 session expired, as everywhere).
   */
  async problemWith(header: string): Promise<TokenProblem | null> {
    const value = header.trim();
    const raw = value.replace(/^Bearer(\s+|$)/i, '').trim();
    if (raw === '' || raw === 'null' || raw === 'undefined') return 'missing';
    const token = bearerToken(value);
    if (!token) return 'format';
    try {
      const { payload } = await jwtVerify(token, this.key, { issuer: ISSUER, algorithms: ['HS256'], currentDate: new Date(this.clock.now()) });
      return payload.sub || payload.unique_name ? null : 'noUser';
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) return null;
      if (err instanceof joseErrors.JOSEError || err instanceof TypeError) return 'undecodable';
      throw err;
    }
  }

  verifyAccess(token: string): Promise<AccessClaims | null> {
    return this.verify<AccessClaims>(token, 'access');
  }

  verifyMfaPending(token: string): Promise<MfaPendingClaims | null> {
    return this.verify<MfaPendingClaims>(token, 'mfa');
  }
}

/** `Bearer xxx.yyy.zzz` → `xxx.yyy.zzz`; anything not shaped like a JWT → null. */
export function bearerToken(header: unknown): string | null {
  if (typeof header !== 'string') return null;
  const match = header.match(/^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/);
  return match ? match[1] : null;
}

export function looksLikeJwt(token: unknown): token is string {
  return typeof token === 'string' && token.length < 4096 && /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token);
}
