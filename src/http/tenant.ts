// The request's tenant scope: built from the chosen tenant (page session or X-Mandant) and, for an area,
// from the locations the user's right covers. Handlers take their scope from here and nowhere else.
import type { Request, Response } from 'express';
import type { CurrentUser } from '../auth/current-user.js';
import type { Knex } from 'knex';
import { TenantRequest, TenantScope } from '../db/scope.js';
import { standortScope, type Area, type Principal } from '../permissions/index.js';
import { HttpError } from './errors.js';

/** The scopes of one request share their reads' transaction and their memo (see TenantRequest). */
const requestState = new WeakMap<Response, TenantRequest>();

export function tenantScope(knex: Knex, res: Response, area?: Area, action: 'view' | 'edit' = 'view'): TenantScope {
  const mandant = res.locals.mandant;
  const principal = res.locals.principal;
  if (!mandant || !principal) throw new HttpError(400, 'MANDANT_REQUIRED', 'account:errors.mandantRequired');
  let shared = requestState.get(res);
  if (!shared || shared.mandant !== mandant) requestState.set(res, (shared = new TenantRequest(knex, mandant, res.locals.staende ?? null)));
  return new TenantScope(knex, mandant, area ? standortScope(principal, action, area) : 'all', shared);
}

/** Who acts, in which tenant, with which rights: what services need to decide and to audit. */
export interface RequestActor {
  user: CurrentUser;
  mandant: string;
  principal: Principal;
  ip?: string;
}

export function actorOf(req: Request, res: Response): RequestActor {
  const user = res.locals.currentUser ?? req.user;
  if (!user) throw new HttpError(401, 'UNAUTHORIZED', 'errors.unauthorized');
  const mandant = res.locals.mandant;
  const principal = res.locals.principal;
  if (!mandant || !principal) throw new HttpError(400, 'MANDANT_REQUIRED', 'account:errors.mandantRequired');
  return { user, mandant, principal, ip: req.ip };
}
