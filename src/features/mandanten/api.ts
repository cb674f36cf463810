import { Router } from 'express';
import type { AccountService } from '../../auth/services.js';

export function mandantenApi(_accounts: AccountService): Router {
  return Router();
}
