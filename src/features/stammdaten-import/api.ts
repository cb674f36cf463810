// Placeholder until the feature is built: registered in app.ts (behind requireApiUser and requireTenant).
import { Router } from 'express';
import type { Knex } from 'knex';

export function stammdatenImportApi(_knex: Knex): Router {
  return Router();
}
