// Placeholder until the feature is built: registered in app.ts so the feature only fills this file in.
import { Router } from 'express';
import type { Knex } from 'knex';

export function stammdatenImportRoutes(_knex: Knex): Router {
  return Router({ mergeParams: true });
}
