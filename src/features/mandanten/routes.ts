import { Router } from 'express';
import type { AccountService } from '../../auth/services.js';

export function mandantenRoutes(_accounts: AccountService): Router {
  return Router({ mergeParams: true });
}
