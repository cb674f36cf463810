// `Authorization: Bearer npk_…` on /api: the key resolved to its principal (service.authenticate), its own rate
// limit, and the rest of the request run with the key known to the audit log (src/db/audit.ts auditKey).
import type { NextFunction, Request, Response } from 'express';
import { RateLimiter, type LimitRule } from '../../auth/rate-limit.js';
import type { Clock } from '../../clock.js';
import { auditKey } from '../../db/audit.js';
import { HttpError } from '../../http/errors.js';
import type { KeyAuthenticator } from '../../http/api.js';
import type { Knex } from 'knex';
import { ApiKeyService } from './service.js';

/** Requests per key and minute unless the configuration says otherwise (API_KEY_RATE_LIMIT). */
export const DEFAULT_KEY_LIMIT: LimitRule = { points: 600, windowMs: 60_000 };

export function apiKeyAuthenticator(knex: Knex, clock: Clock, rule: LimitRule = DEFAULT_KEY_LIMIT): KeyAuthenticator {
  const service = new ApiKeyService(knex, clock);
  const limiter = new RateLimiter(knex, clock);
  return async (key: string, req: Request, res: Response, next: NextFunction) => {
    const found = await service.authenticate(key);
    if (!found) return next(new HttpError(401, 'API_KEY_INVALID', 'api-keys:errors.keyInvalid'));
    // Every call counts (fixed window per key); past the limit the call is refused before it does anything.
    const state = await limiter.fail(`api-key:${found.key.id}`, rule);
    if (state.blocked) return next(new HttpError(429, 'RATE_LIMITED', 'api-keys:errors.rateLimited', [], { retryAfter: state.retryAfter }));
    req.user = found.user;
    res.locals.currentUser = found.user;
    res.locals.mandant = found.mandant;
    auditKey.run(found.key, () => next());
  };
}
