// GET /api/pocs: the POCs ({data,total,page,pageSize} and the volume's sum, the list engine's API; `format=csv|xlsx|pdf`
// for the exports), with the read right of the area (25, PocRead).
import { Router } from 'express';
import { z } from 'zod';
import type { Knex } from 'knex';
import { mountListApi } from '../../records/list/routes.js';
import { pocListe } from './list.js';
import { POCS_AREA } from './routes.js';

const text = z.string().nullable();
/** A row of the list (pocListe.toRow). */
const PocZeile = z.object({
  nr: z.string(), lieferdatum: z.string(), ablieferungNr: z.string(), partnerNr: text, partnerName: text, standortNr: z.string(), standortName: z.string(),
  produktNr: z.string(), produktName: z.string(), produktgruppe: z.string(), nachweisNr: z.string(), volumen: z.string(), einheit: z.string(),
  thgEmission: z.string(), nnwEnergie: text, rohstoff: text, anbauland: text, zertifizierungssystem: text, bilanzId: z.number().int(),
  zeitraumVon: text, zeitraumBis: text, storniert: z.boolean(),
}).strict();

export function pocsApi(knex: Knex): Router {
  const router = Router();
  mountListApi(router, knex, pocListe, 'pocs', POCS_AREA, { title: 'pocs:title', filename: 'pocs', row: PocZeile });
  return router;
}
