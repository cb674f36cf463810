// The JSON API's edge: Bearer tokens (bound to a server-side session) or the cookie session of the pages,
// and the X-Mandant rules of the API contract, applied to every /api call in one place.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { principalFor } from '../auth/current-user.js';
import { can, type Action, type Gate } from '../permissions/index.js';
import type { AccountService } from '../auth/services.js';
import { bearerToken, type TokenProblem, type TokenService } from '../auth/tokens.js';
import { HttpError } from './errors.js';
import { DEFAULT_LANG, requestedLanguage, useLanguage } from './i18n.js';
import { isPassiveCheck } from './session.js';
import type { SessionUser } from './session-store.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** The session id behind the request's Bearer token, or the cookie session's id. */
    apiSid?: string;
  }
}

/** Resolves an API key (`Bearer npk_…`) to its principal and continues, or refuses it (src/features/api-keys/auth.ts). */
export type KeyAuthenticator = (key: string, req: Request, res: Response, next: NextFunction) => Promise<void>;

const API_KEY_HEADER = /^Bearer (npk_\S*)$/;

/**
 * Resolves a Bearer token to its user; a token that is invalid, expired or revoked is a 401. An API key
 * (`npk_…`, never a JWT) goes to `keys` instead: one branch, here.
 */
export function apiAuthentication(accounts: AccountService, keys?: KeyAuthenticator): RequestHandler {
  return async (req, res, next) => {
    const header = req.headers.authorization;
    if (header === undefined) {
      if (req.user) req.apiSid = req.sessionID;
      return next();
    }
    const apiKey = keys ? API_KEY_HEADER.exec(header)?.[1] : undefined;
    if (apiKey !== undefined) {
      // A key speaks for a system, not for the browser's session: the cookie's user, if any, is not used.
      req.user = undefined;
      return keys!(apiKey, req, res, next);
    }
    const token = bearerToken(header);
    const found = token ? await accounts.userForToken(token, isPassiveCheck(req), namedTenant(req) || null) : null;
    if (!found) return next(new HttpError(401, 'SESSION_EXPIRED', 'account:errors.sessionExpired'));
    req.user = found.user;
    req.apiSid = found.sid;
    res.locals.currentUser = found.user;
    res.locals.mandant = found.mandant;
    next();
  };
}

/**
 * The API's language (contract: German, or English when the request asks for it): an Accept-Language that
 * names de or en decides, else the signed-in user's language setting, else German. The header comes first
 * for the same reason the URL does on pages (spec section 9): it is this request's choice, the setting a
 * stored one. The islands send their page's language, so a page and its calls speak alike; a client that
 * sends no such header gets the user's setting. Runs after authentication, when the user is known.
 */
export function apiLanguage(): RequestHandler {
  return (req, res, next) => {
    const lang = requestedLanguage(req.headers['accept-language']) ?? req.user?.settings.language ?? DEFAULT_LANG;
    if (req.language !== lang) useLanguage(req, res, lang);
    next();
  };
}

const TOKEN_PROBLEMS: Record<TokenProblem, [code: string, messageKey: string]> = {
  missing: ['TOKEN_MISSING', 'account:errors.tokenMissing'],
  format: ['TOKEN_FORMAT', 'account:errors.tokenFormat'],
  undecodable: ['TOKEN_UNDECODABLE', 'account:errors.tokenUndecodable'],
  noUser: ['TOKEN_NO_USER', 'account:errors.userIdMissing'],
};

/**
 * Before apiAuthentication, on the second-factor reset (also one's own, spec section 7, which takes the user
 * from the token): a 401 that names what is wrong with the Authorization header (section 8's self-reset
 * texts) instead of the general "session expired". No header at all is left to the cookie session and then
 * to requireApiUser (401 Nicht autorisiert, section 8's text for this call).
 */
export function explainTokenProblems(tokens: TokenService): RequestHandler {
  return async (req, _res, next) => {
    const header = req.headers.authorization;
    if (header === undefined) return next();
    const problem = await tokens.problemWith(header);
    next(problem ? new HttpError(401, ...TOKEN_PROBLEMS[problem]) : undefined);
  };
}

/** Routes about a person (their account, session, password, settings, inbox): an API key is refused (403). */
export function refuseApiKeys(): RequestHandler {
  return (req, _res, next) => next(req.user?.apiKey ? new HttpError(403, 'API_KEY_NOT_ALLOWED', 'api-keys:errors.nurPersonen') : undefined);
}

export function requireApiUser(): RequestHandler {
  return (req, _res, next) => next(req.user ? undefined : new HttpError(401, 'UNAUTHORIZED', 'errors.unauthorized'));
}

/** The tenant the request's X-Mandant names ('' when there is none). */
const namedTenant = (req: Request): string => (typeof req.headers['x-mandant'] === 'string' ? req.headers['x-mandant'].trim().toUpperCase() : '');

/** The tenant a response is about: the valid X-Mandant of the request, else the session's tenant. */
function responseTenant(req: Request, res: Response): string | null {
  const wanted = namedTenant(req);
  const user = req.user;
  if (user && wanted && user.mandanten.some((m) => m.mandant === wanted)) return wanted;
  if (res.locals.mandant) return res.locals.mandant;
  if (user && user.mandanten.length === 1) return user.mandanten[0].mandant;
  return null;
}

/** Every response except login carries X-Mandant (contract). */
export function tenantResponseHeader(): RequestHandler {
  return (req, res, next) => {
    const original = res.writeHead;
    res.writeHead = function (this: Response, ...args: Parameters<typeof original>) {
      const tenant = responseTenant(req, res);
      if (tenant && !this.headersSent && !this.getHeader('X-Mandant')) this.setHeader('X-Mandant', tenant);
      return original.apply(this, args);
    } as typeof original;
    next();
  };
}

/**
 * X-Mandant is required: missing → 400 "Mandant ist erforderlich"; a tenant the user does not belong to → 403.
 * Membership is checked against the database on every call, never trusted from the token's claims.
 */
export function requireTenant(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const user = req.user;
    // An API key belongs to one tenant: X-Mandant may be left out; naming another tenant is a 403 below.
    const wanted = namedTenant(req) || (user?.apiKey ? (res.locals.mandant as string) : '');
    if (!wanted) return next(new HttpError(400, 'MANDANT_REQUIRED', 'account:errors.mandantRequired'));
    if (!user) return next(new HttpError(401, 'UNAUTHORIZED', 'errors.unauthorized'));
    if (!user.mandanten.some((m) => m.mandant === wanted)) {
      return next(new HttpError(403, 'MANDANT_FORBIDDEN', 'account:errors.mandantForbidden'));
    }
    res.locals.mandant = wanted;
    res.locals.principal = principalFor(user, wanted);
    // The tenant's change counters, if the session's read found them for this tenant (src/db/scope.ts, Staende).
    const staende = (user as SessionUser).staende;
    res.locals.staende = staende && staende.mandant === wanted ? staende : null;
    next();
  };
}

/** The API's permission guard: the same can() as pages and sidebar; refused → 403 with the contract's shape. */
export function requireApiPermission(gate: Gate, action: Action = 'view', messageKey = 'errors.forbidden'): RequestHandler {
  return (_req, res, next) => {
    const principal = res.locals.principal;
    if (!principal) return next(new HttpError(401, 'UNAUTHORIZED', 'errors.unauthorized'));
    next(can(principal, action, gate) ? undefined : new HttpError(403, 'FORBIDDEN', messageKey));
  };
}
