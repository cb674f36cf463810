// express-session store on our own `sessions` table (written by hand rather than connect-session-knex
// because we need the user id as a column: deactivating a user or logging out everywhere deletes their rows).
import session, { type SessionData } from 'express-session';
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import { affectedRows } from '../db/knex.js';

/** Sessions end after 8 hours whatever the activity (OWASP ASVS 3.3.4). */
export const SESSION_ABSOLUTE_MS = 8 * 60 * 60 * 1000;
/** Refreshing the expiry on every request would cost a write each time; once a minute is precise enough. */
const TOUCH_EVERY_MS = 60_000;

type Callback = (err?: unknown) => void;

export class KnexSessionStore extends session.Store {
  private lastTouch = new Map<string, number>();

  constructor(private readonly knex: Knex, private readonly clock: Clock, private readonly idleMs: number) {
    super();
  }

  private now(): number {
    return this.clock.now();
  }

  /** The server decides expiry from its own clock, whatever the cookie says. */
  private expiry(_sess?: SessionData): Date {
    return new Date(this.now() + this.idleMs);
  }

  private userId(sess: SessionData): number | null {
    const id = (sess as { passport?: { user?: unknown } }).passport?.user;
    return typeof id === 'number' ? id : null;
  }

  override get(sid: string, cb: (err: unknown, sess?: SessionData | null) => void): void {
    const now = new Date(this.now());
    this.knex('sessions')
      .where({ sid })
      .andWhere('expires_at', '>', now)
      .andWhere('created_at', '>', new Date(this.now() - SESSION_ABSOLUTE_MS))
      .first('sess')
      .then((row) => cb(null, row ? (typeof row.sess === 'string' ? JSON.parse(row.sess) : row.sess) : null), cb);
  }

  override set(sid: string, sess: SessionData, cb?: Callback): void {
    const row = { sid, sess: JSON.stringify(sess), expires_at: this.expiry(sess), benutzer_id: this.userId(sess) };
    this.lastTouch.set(sid, this.now());
    this.knex('sessions')
      .insert({ ...row, created_at: new Date(this.now()) })
      .onConflict('sid')
      .merge(['sess', 'expires_at', 'benutzer_id'])
      .then(() => cb?.(), (err) => cb?.(err));
  }

  /** Reads a session by id for a Bearer token (same rows, same expiry rules as the cookie sessions). */
  load(sid: string): Promise<SessionData | null> {
    return new Promise((resolve, reject) => this.get(sid, (err, sess) => (err ? reject(err) : resolve(sess ?? null))));
  }

  save(sid: string, sess: SessionData): Promise<void> {
    return new Promise((resolve, reject) => this.set(sid, sess, (err) => (err ? reject(err) : resolve())));
  }

  override touch(sid: string, sess: SessionData, cb?: Callback): void {
    const last = this.lastTouch.get(sid) ?? 0;
    if (this.now() - last < TOUCH_EVERY_MS) return cb?.();
    this.lastTouch.set(sid, this.now());
    if (this.lastTouch.size > 10_000) this.lastTouch.clear();
    this.knex('sessions')
      .where({ sid })
      .update({ expires_at: this.expiry(sess) })
      .then(() => cb?.(), (err) => cb?.(err));
  }

  override destroy(sid: string, cb?: Callback): void {
    this.lastTouch.delete(sid);
    this.knex('sessions').where({ sid }).delete().then(() => cb?.(), (err) => cb?.(err));
  }

  /**
   * A view on the same sessions for one express-session middleware. Each middleware needs its own store
   * object, because express-session attaches its cookie options to the store it is given. `touch: false`
   * reads sessions without extending them (the passive session check).
   */
  view({ touch }: { touch: boolean }): session.Store {
    const inner = this;
    return new (class extends session.Store {
      override get = inner.get.bind(inner);
      override set = inner.set.bind(inner);
      override destroy = inner.destroy.bind(inner);
      override touch(sid: string, sess: SessionData, cb?: Callback) {
        if (touch) inner.touch(sid, sess, cb);
        else cb?.();
      }
    })();
  }

  /** Ends every session of a user (deactivation, password reset). */
  async destroyForUser(benutzerId: number): Promise<number> {
    return affectedRows(await this.knex('sessions').where({ benutzer_id: benutzerId }).delete());
  }

  async pruneExpired(): Promise<number> {
    return affectedRows(await this.knex('sessions').where('expires_at', '<=', new Date(this.now())).delete());
  }
}
