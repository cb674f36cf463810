import { Router } from 'express';
import type { AccountService } from '../../auth/services.js';

export function benutzerApi(_accounts: AccountService): Router {
  return Router();
}
