// express-session store on our own `sessions` table (written by hand rather than connect-session-knex
// because we need the user id as a column: deactivating a user or logging out everywhere deletes their rows).
import session, { type SessionData } from 'express-session';
import type { Knex } from 'knex';
import { currentUserColumns, toCurrentUser, type CurrentUser } from '../auth/current-user.js';
import type { Clock } from '../clock.js';
import { affectedRows } from '../db/knex.js';
import { prepared } from '../db/knex-internals.js';
import { OneTurn, isDataException } from '../db/one-turn.js';
import { stammdatenStand } from '../db/stand-cache.js';
import type { Staende } from '../db/scope.js';
import { partsIn } from './format.js';

/** Sessions end after 8 hours whatever the activity (OWASP ASVS 3.3.4). */
export const SESSION_ABSOLUTE_MS = 8 * 60 * 60 * 1000;
/** Refreshing the expiry on every request would cost a write each time; once a minute is precise enough. */
const TOUCH_EVERY_MS = 60_000;

type Callback = (err?: unknown) => void;

/**
 * The user as the session read finds it: with the unread messages of the session's tenant, counted in the same
 * statement (nachrichten_ungelesen(), migrations/20261202000000_nachrichten.ts), so the header's count costs no
 * round trip. undefined when the user was loaded without a session (sign-in, API keys).
 */
export type SessionUser = CurrentUser & {
  nachrichtenUngelesen?: { mandant: string; anzahl: number };
  /**
   * A tenant's change counters (src/db/stand-cache.ts, src/records/list/pages.ts), read in the same statement:
   * the session's tenant's, or those of the tenant an API call names.
   */
  staende?: Staende & { mandant: string };
};

/** What the session's statement is given for each request. */
interface SessionValues {
  sid: string;
  now: Date;
  /** Sessions created before this have ended (SESSION_ABSOLUTE_MS). */
  absoluteSince: Date;
  /** Today in Germany, for the unread messages. */
  heute: string;
  /** The tenant whose change counters are read, else the session's. */
  mandant: string | null;
}

/** At most this many session reads go out in one statement; more in the same turn make a second. */
const READS_PER_STATEMENT = 100;

/**
 * The text of the session's statement (KnexSessionStore.readSessions), its values five arrays of one element per
 * read. Each array is read through a subquery (`(select ?::varchar[])`): planning the statement with its values
 * would tell the planner how many reads it holds, and a plan for three reads always looks cheaper than the
 * generic plan, which must guess, so PostgreSQL planned it anew for every execution (0.3 ms each, on the
 * database's share of the two cores, more than executing it for a few reads). Behind a subquery the values are
 * unknown to either plan, both guess the same number of rows, and after its first executions PostgreSQL keeps
 * the generic plan for the connection (the same plan: a lookup by key per read). Held by session-store.test.ts.
 */
export function sessionStatement(knex: Knex): string {
  const user = knex('benutzer as b').whereRaw('b.id = s.benutzer_id').select(currentUserColumns(knex)).toQuery();
  return `select k.nr as lese_nr, s.sess, u.*, s.sess->>'mandant' as sitzung_mandant,
      nachrichten_ungelesen(u.id, s.sess->>'mandant', k.heute) as nachrichten_ungelesen,
      coalesce(k.mandant, s.sess->>'mandant') as stand_mandant,
      tabellenstaende_von(u.id, coalesce(k.mandant, s.sess->>'mandant')) as tabellenstaende
    from unnest((select ?::varchar[]), (select ?::varchar[]), (select ?::timestamptz[]), (select ?::timestamptz[]), (select ?::date[]))
           with ordinality as k(sid, mandant, jetzt, seit, heute, nr)
    cross join lateral (select s.sess, s.benutzer_id from sessions s
      where s.sid = k.sid and s.expires_at > k.jetzt and s.created_at > k.seit limit 1) as s
    left join lateral (${user}) as u on true`;
}

/** A user read with its session, waiting for passport's deserializeUser in the same request. */
interface Handed {
  userId: number;
  user: SessionUser | null;
  at: number;
}
/** Hand-overs not taken (a request that ended before passport ran) are swept once there are this many. */
const HANDOVER_SWEEP_AT = 1000;
const HANDOVER_TTL_MS = 10_000;

export class KnexSessionStore extends session.Store {
  private lastTouch = new Map<string, number>();
  private handed = new Map<string, Handed>();

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

  /**
   * A live session and its user in one round trip: every signed-in request needs both, and reading them
   * apart cost a second query each time. The user waits in `handed` for deserializeUser (takeUser).
   */
  override get(sid: string, cb: (err: unknown, sess?: SessionData | null) => void): void {
    this.loadWithUser(sid).then(({ sess, user }) => {
      const userId = sess ? this.userId(sess) : null;
      if (sess && userId !== null) this.hand(sid, { userId, user, at: this.now() });
      cb(null, sess);
    }, cb);
  }

  /**
   * The session (if alive) and the user it names (null if there is none or the row is gone). The master-data
   * stand is read for `mandant` (an API call's X-Mandant), else for the session's tenant.
   */
  async loadWithUser(sid: string, mandant: string | null = null): Promise<{ sess: SessionData | null; user: SessionUser | null }> {
    const now = new Date(this.now());
    // Messages are valid by German days, as every date of the portal.
    const p = partsIn('Europe/Berlin', now);
    const heute = `${p.year}-${p.month}-${p.day}`;
    const row = await this.readSession({ sid, now, absoluteSince: new Date(this.now() - SESSION_ABSOLUTE_MS), heute, mandant });
    if (!row) return { sess: null, user: null };
    const sess = typeof row.sess === 'string' ? JSON.parse(row.sess) : row.sess;
    if (row.id == null) return { sess, user: null };
    const found: SessionUser = toCurrentUser(row);
    if (row.nachrichten_ungelesen != null) found.nachrichtenUngelesen = { mandant: String(row.sitzung_mandant), anzahl: Number(row.nachrichten_ungelesen) };
    // null when the user is no member of that tenant (the function answers only for members).
    if (row.tabellenstaende != null) {
      const tabellen = typeof row.tabellenstaende === 'string' ? JSON.parse(row.tabellenstaende) : row.tabellenstaende;
      found.staende = { mandant: String(row.stand_mandant), stammdaten: stammdatenStand(tabellen), tabellen };
    }
    return { sess, user: found };
  }

  /**
   * The session's statement: the same text for every signed-in request, so built by knex once and then only
   * given its values (building and compiling it for each request was about a tenth of a remembered list
   * page's CPU, bench/README.md "2026-12-02, third session"), and prepared (PostgreSQL parses and plans it once
   * per connection). The reads that arrive in one turn of the event loop go out together (src/db/one-turn.ts):
   * one row of values each (`unnest … with ordinality`, the row's number tells whose answer is whose), and each
   * session looked up by its key in a lateral `limit 1`, so the plan stays an index lookup per read whatever the
   * planner guesses of the sessions table's size. Planned once, too: see sessionStatement().
   */
  private statement?: string;
  private reads?: OneTurn<SessionValues, Record<string, any> | undefined>;
  private readSession(values: SessionValues): Promise<Record<string, any> | undefined> {
    this.reads ??= new OneTurn((batch) => this.readSessions(batch), { most: READS_PER_STATEMENT, oneReadsFault: isDataException });
    return this.reads.read(values);
  }

  private async readSessions(batch: SessionValues[]): Promise<(Record<string, any> | undefined)[]> {
    const sql = (this.statement ??= sessionStatement(this.knex));
    const column = <K extends keyof SessionValues>(name: K, of: (v: SessionValues[K]) => unknown) => batch.map((v) => of(v[name]));
    const iso = (d: Date) => d.toISOString();
    const bindings = [
      column('sid', String), column('mandant', (m) => m), column('now', iso), column('absoluteSince', iso), column('heute', String),
    ] as unknown as Knex.RawBinding[];
    const { rows } = (await prepared(this.knex.raw(sql, bindings))) as { rows: Record<string, any>[] };
    const byNr: (Record<string, any> | undefined)[] = new Array(batch.length);
    for (const row of rows) byNr[Number(row.lese_nr) - 1] = row;
    return byNr;
  }

  private hand(sid: string, handed: Handed): void {
    if (this.handed.size >= HANDOVER_SWEEP_AT) {
      for (const [key, h] of this.handed) if (this.now() - h.at > HANDOVER_TTL_MS) this.handed.delete(key);
    }
    if (this.handed.size < HANDOVER_SWEEP_AT * 2) this.handed.set(sid, handed);
  }

  /**
   * The user get() read with this session in the current request, once; undefined if there is none (then
   * the caller loads the user itself). Only for the user id the session names.
   */
  takeUser(sid: string, userId: number): SessionUser | null | undefined {
    const handed = this.handed.get(sid);
    if (!handed) return undefined;
    this.handed.delete(sid);
    return handed.userId === userId && this.now() - handed.at <= HANDOVER_TTL_MS ? handed.user : undefined;
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

  /** Reads a session by id (same rows, same expiry rules as the cookie sessions). */
  async load(sid: string): Promise<SessionData | null> {
    return (await this.loadWithUser(sid)).sess;
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
    this.handed.delete(sid);
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
