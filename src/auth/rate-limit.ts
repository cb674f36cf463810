// Attempt counters in the database (shared by every app process). rate-limiter-flexible's PostgreSQL store
// does not run on PGlite, so this is the few lines it would have given us: a fixed window per key, counted
// with one atomic upsert.
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';

export interface LimitRule {
  /** Failures allowed in the window; the next one blocks until the window ends. */
  points: number;
  windowMs: number;
}

export interface LimitState {
  blocked: boolean;
  /** Seconds until the block ends (for Retry-After). */
  retryAfter: number;
}

export class RateLimiter {
  constructor(private readonly knex: Knex, private readonly clock: Clock) {}

  async check(key: string, rule: LimitRule): Promise<LimitState> {
    const row = await this.knex('rate_limits').where({ key }).first('points', 'expires_at');
    return this.state(row, rule);
  }

  /**
   * Several keys in one round trip (a login checks three). `counted` says whether the key has a live counter,
   * so a success resets only counters that exist instead of sending deletes that find nothing.
   */
  async checkMany(entries: readonly (readonly [string, LimitRule])[]): Promise<(LimitState & { counted: boolean })[]> {
    const rows: { key: string; points: number; expires_at: Date | string }[] = await this.knex('rate_limits')
      .whereIn('key', entries.map(([key]) => key))
      .select('key', 'points', 'expires_at');
    return entries.map(([key, rule]) => {
      const row = rows.find((r) => r.key === key);
      return { ...this.state(row, rule), counted: Boolean(row) && new Date(row!.expires_at).getTime() > this.clock.now() };
    });
  }

  /** Counts one failure and says whether the key is now blocked. */
  async fail(key: string, rule: LimitRule): Promise<LimitState> {
    const now = new Date(this.clock.now());
    const expires = new Date(this.clock.now() + rule.windowMs);
    const result = await this.knex.raw(
      `insert into rate_limits (key, points, expires_at) values (?, 1, ?)
       on conflict (key) do update set
         points = case when rate_limits.expires_at <= ? then 1 else rate_limits.points + 1 end,
         expires_at = case when rate_limits.expires_at <= ? then excluded.expires_at else rate_limits.expires_at end
       returning points, expires_at`,
      [key, expires, now, now],
    );
    return this.state(result.rows[0], rule);
  }

  async reset(...keys: string[]): Promise<void> {
    if (keys.length) await this.knex('rate_limits').whereIn('key', keys).delete();
  }

  private state(row: { points: number; expires_at: Date | string } | undefined, rule: LimitRule): LimitState {
    if (!row) return { blocked: false, retryAfter: 0 };
    const remaining = new Date(row.expires_at).getTime() - this.clock.now();
    if (remaining <= 0 || row.points < rule.points) return { blocked: false, retryAfter: 0 };
    return { blocked: true, retryAfter: Math.ceil(remaining / 1000) };
  }
}

const MINUTE = 60_000;

/**
 * Login: 5 failures per login and address, then 15 minutes' wait for that pair only (so an attacker at one
 * address cannot lock the real user out of another for long); 100 per login from anywhere (the account's hard
 * ceiling); 100 per address across logins. Second-factor codes: 5 wrong ones per user per 5 minutes.
 */
export const LIMITS = {
  loginPerAddress: { points: 5, windowMs: 15 * MINUTE },
  loginPerAccount: { points: 100, windowMs: 15 * MINUTE },
  addressAcrossLogins: { points: 100, windowMs: 15 * MINUTE },
  mfaCode: { points: 5, windowMs: 5 * MINUTE },
} as const satisfies Record<string, LimitRule>;
