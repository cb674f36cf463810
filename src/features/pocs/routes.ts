// /{lang}/bewegungsdaten/pocs: the POCs closed Bilanzen issued (the list engine's page, with its exports). A POC
// has no page of its own here: its number links to the Nachweisbescheinigung it is.
import { Router } from 'express';
import type { Knex } from 'knex';
import { mountListPage } from '../../records/list/routes.js';
import { pocListe } from './list.js';

export const POCS_PATH = 'bewegungsdaten/pocs';
/** The permission area (right 25, PocRead: read only). */
export const POCS_AREA = 'pocs';

export function pocsRoutes(knex: Knex): Router {
  const router = Router({ mergeParams: true });
  mountListPage(router, knex, pocListe, { path: POCS_PATH, area: POCS_AREA, view: 'pocs/index', title: 'pocs:title', filename: 'pocs' });
  return router;
}
