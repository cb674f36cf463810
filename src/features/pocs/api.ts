// GET /api/pocs: the POCs ({data,total,page,pageSize} and the volume's sum, the list engine's API; `format=csv|xlsx|pdf`
// for the exports), with the read right of the area (25, PocRead).
import { Router } from 'express';
import type { Knex } from 'knex';
import { mountListApi } from '../../records/list/routes.js';
import { pocListe } from './list.js';
import { POCS_AREA } from './routes.js';

export function pocsApi(knex: Knex): Router {
  const router = Router();
  mountListApi(router, knex, pocListe, 'pocs', POCS_AREA, { title: 'pocs:title', filename: 'pocs' });
  return router;
}
