// The account services, built once per app and handed to the HTML routes and the JSON API alike.
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { SessionData } from 'express-session';
import type { Clock } from '../clock.js';
import { audit } from '../db/audit.js';
import type { KnexSessionStore, SessionUser } from '../http/session-store.js';
import { findUserForLogin, loadCurrentUser, type CurrentUser } from './current-user.js';
import { verifyCode } from './mfa.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { LIMITS, RateLimiter } from './rate-limit.js';
import { TokenService } from './tokens.js';

export type CredentialResult =
  | { kind: 'ok'; userId: number; mfa: boolean }
  | { kind: 'invalid' }
  | { kind: 'blocked'; retryAfter: number };

/** `used`: the code is right but its step was already used (a replay, or a concurrent request won): not validated. */
export type CodeResult = { kind: 'ok' } | { kind: 'invalid' } | { kind: 'used' } | { kind: 'blocked'; retryAfter: number };

export class AccountService {
  readonly limiter: RateLimiter;
  readonly tokens: TokenService;

  constructor(
    readonly knex: Knex,
    readonly store: KnexSessionStore,
    readonly clock: Clock,
    secret: string,
    private readonly idleMs: number,
  ) {
    this.limiter = new RateLimiter(knex, clock);
    this.tokens = new TokenService(secret, clock);
  }

  /**
   * Password check with brute-force limits per login+address, per login and per address. Unknown logins
   * and wrong passwords take the same time and get the same answer.
   */
  async checkCredentials(login: string, password: string, ip: string): Promise<CredentialResult> {
    const normalised = login.trim().toUpperCase();
    const keys = [
      [`login:${normalised}|${ip}`, LIMITS.loginPerAddress],
      [`login:${normalised}`, LIMITS.loginPerAccount],
      [`ip:${ip}`, LIMITS.addressAcrossLogins],
    ] as const;
    const states = await this.limiter.checkMany(keys);
    const blocked = states.find((s) => s.blocked);
    if (blocked) return { kind: 'blocked', retryAfter: blocked.retryAfter };
    const row = await findUserForLogin(this.knex, login);
    const ok = await verifyPassword(row?.password_hash, password);
    if (!row || !ok || row.status !== 'active') {
      for (const [key, rule] of keys) await this.limiter.fail(key, rule);
      await audit(this.knex, { kind: 'auth.login.failed', entity: 'benutzer', entityId: normalised.slice(0, 64), ip });
      return { kind: 'invalid' };
    }
    // Success clears the failures of this login (from this address and from anywhere); the address's own
    // counter across logins stays. Only counters that exist are deleted: usually none, and no round trip.
    await this.limiter.reset(...[0, 1].filter((i) => states[i].counted).map((i) => keys[i][0]));
    return { kind: 'ok', userId: row.id, mfa: row.mfa_enabled };
  }

  /** A 6-digit code of the user's authenticator; each time step is accepted once. */
  async checkCode(userId: number, code: string, ip: string): Promise<CodeResult> {
    const key = `mfa:${userId}`;
    const state = await this.limiter.check(key, LIMITS.mfaCode);
    if (state.blocked) return { kind: 'blocked', retryAfter: state.retryAfter };
    const row = await this.knex('benutzer').where({ id: userId, status: 'active' }).first('mfa_secret', 'mfa_enabled', 'mfa_last_step');
    const step = row?.mfa_enabled && row.mfa_secret
      ? await verifyCode(row.mfa_secret, code, this.clock.now(), row.mfa_last_step == null ? null : Number(row.mfa_last_step))
      : null;
    if (step == null) {
      await this.limiter.fail(key, LIMITS.mfaCode);
      await audit(this.knex, { kind: 'auth.mfa.failed', benutzerId: userId, ip });
      // Right, but its step was already used (a replay, or another sign-in was first): not validated, not wrong.
      const used = row?.mfa_enabled && row.mfa_secret && row.mfa_last_step != null
        && (await verifyCode(row.mfa_secret, code, this.clock.now(), null)) != null;
      return { kind: used ? 'used' : 'invalid' };
    }
    // Compare-and-set: of two concurrent requests with the same code only one wins.
    const updated = await this.knex('benutzer')
      .where({ id: userId })
      .andWhere((q) => q.whereNull('mfa_last_step').orWhere('mfa_last_step', '<', step))
      .update({ mfa_last_step: step });
    if (!updated) return { kind: 'used' };
    await this.limiter.reset(key);
    return { kind: 'ok' };
  }

  /** Opens a server-side session for a Bearer token; returns the token and the user. */
  async openTokenSession(userId: number, ip: string): Promise<{ token: string; user: CurrentUser; sid: string }> {
    const user = await loadCurrentUser(this.knex, userId);
    if (!user) throw new Error('user vanished');
    const sid = randomBytes(24).toString('base64url');
    const sess = {
      cookie: { originalMaxAge: this.idleMs, path: '/', httpOnly: true },
      passport: { user: user.id },
      mandant: user.mandanten.length === 1 ? user.mandanten[0].mandant : undefined,
      api: true,
    } as unknown as SessionData;
    await this.store.save(sid, sess);
    await audit(this.knex, { kind: 'auth.login', benutzerId: user.id, ip });
    return { token: await this.tokens.access(user, sid), user, sid };
  }

  /** The user behind a Bearer token, if its session is still alive (also keeps it alive). */
  /** `mandant`: the tenant the call names (X-Mandant), whose master-data stand is read with the session. */
  async userForToken(token: string, passive = false, mandant: string | null = null): Promise<{ user: SessionUser; sid: string; mandant: string | null } | null> {
    const claims = await this.tokens.verifyAccess(token);
    if (!claims) return null;
    // Session and user in one round trip.
    const { sess, user } = await this.store.loadWithUser(claims.sid, mandant);
    if (!sess || sess.passport?.user !== Number(claims.sub)) return null;
    if (!user || user.id !== Number(claims.sub) || user.status !== 'active') return null;
    if (!passive) await new Promise<void>((resolve) => this.store.touch(claims.sid, sess, () => resolve()));
    return { user, sid: claims.sid, mandant: sess.mandant ?? null };
  }

  async endSession(sid: string): Promise<void> {
    await new Promise<void>((resolve, reject) => this.store.destroy(sid, (err) => (err ? reject(err) : resolve())));
  }

  async verifyOwnPassword(userId: number, password: string): Promise<boolean> {
    const row = await this.knex('benutzer').where({ id: userId }).first('password_hash');
    return verifyPassword(row?.password_hash, password);
  }

  /** Sets a new password and ends the user's other sessions. */
  async setPassword(userId: number, password: string, keepSid?: string): Promise<void> {
    const hash = await hashPassword(password);
    await this.knex.transaction(async (trx) => {
      await trx('benutzer').where({ id: userId }).update({ password_hash: hash, password_changed_at: new Date(this.clock.now()), updated_at: new Date(this.clock.now()) });
      const q = trx('sessions').where({ benutzer_id: userId });
      if (keepSid) q.whereNot({ sid: keepSid });
      await q.delete();
    });
  }

  async disableMfa(userId: number, byUserId: number, ip: string): Promise<void> {
    await this.knex('benutzer').where({ id: userId }).update({ mfa_enabled: false, mfa_secret: null, mfa_last_step: null });
    await audit(this.knex, { kind: 'auth.mfa.reset', benutzerId: byUserId, entity: 'benutzer', entityId: userId, ip });
  }

  async enableMfa(userId: number, secret: string, step: number, ip: string): Promise<void> {
    await this.knex('benutzer').where({ id: userId }).update({ mfa_enabled: true, mfa_secret: secret, mfa_last_step: step });
    await audit(this.knex, { kind: 'auth.mfa.enabled', benutzerId: userId, entity: 'benutzer', entityId: userId, ip });
  }
}
