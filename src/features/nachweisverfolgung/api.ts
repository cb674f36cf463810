// GET /api/nachweisverfolgung: the deliveries to trace ({data,total,page,pageSize}, the list engine's API), and
// GET /api/nachweisverfolgung/{nr}?art=…: a delivery's trace (docs/decisions.md, "Nachweisverfolgung"). The
// read right of the area; 404 for a number the user's tenant and locations do not have; 409 for a number that
// exists as both kinds when no `art` is given.
import { Router } from 'express';
import type { Knex } from 'knex';
import type { Clock } from '../../clock.js';
import { ProblemError } from '../../errors.js';
import { requireApiPermission } from '../../http/api.js';
import { tenantScope } from '../../http/tenant.js';
import { mountListApi } from '../../records/list/routes.js';
import { LIEFERSTATUS } from '../lieferungen/names.js';
import { verfolgungListe } from './list.js';
import { ARTEN } from './repo.js';
import { detailAnfrage } from './schema.js';
import { z } from 'zod';
import { documentApi, nameSchema } from '../api-docs/registry.js';

/** A row of GET /api/nachweisverfolgung (list.ts, toRow): decimals as exact strings. */
const VerfolgungZeile = z.object({
  art: z.enum(ARTEN), nr: z.string(), datum: z.string(), partnerNr: z.string(), partnerName: z.string(), standortNr: z.string(), standortName: z.string(),
  produktNr: z.string(), produktName: z.string(), produktgruppe: z.string(), menge: z.string(), mengeExakt: z.string(), einheit: z.string(),
  biogehalt: z.string().nullable(), status: z.enum(LIEFERSTATUS), storniert: z.boolean(),
}).strict();

// The trace: a tree (trace.ts) whose nodes of five kinds carry `kinder` of any kind, cut only at MAX_TIEFE and
// MAX_KNOTEN, so its node schema is a named component that refers to itself.
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const text = { type: 'string' };
const textOrNull = { type: ['string', 'null'] };
const node = (typ: unknown, props: Record<string, unknown>, required: string[], optional: Record<string, unknown> = {}) => ({
  type: 'object',
  properties: { typ, ...props, ...optional, anteil: { anyOf: [ref('NachweisverfolgungAnteil'), { type: 'null' }] }, kinder: { type: 'array', items: ref('NachweisverfolgungKnoten') } },
  required: ['typ', ...required, 'anteil', 'kinder'],
  additionalProperties: false,
});
const lieferung = node({ enum: [...ARTEN] }, {
  nr: text, datum: text, status: text, storniert: { type: 'boolean' }, menge: text, einheit: text, biogehalt: textOrNull, produktgruppe: text,
  partnerNr: text, partnerName: textOrNull, standortNr: text, standortName: textOrNull, produktNr: text, produktName: textOrNull,
  abholungNr: textOrNull, bioMenge: textOrNull,
}, ['nr', 'datum', 'status', 'storniert', 'menge', 'einheit', 'biogehalt', 'produktgruppe', 'partnerNr', 'partnerName', 'standortNr', 'standortName', 'produktNr', 'produktName', 'abholungNr', 'bioMenge'],
{ zugeordnet: text, zertifikatStatus: text });
nameSchema('NachweisverfolgungAnteil', {
  type: 'object', properties: { menge: text, einheit: text, prozent: textOrNull, von: { enum: ['bioMenge', 'nachweis', 'abholung', 'bescheinigung'] }, nr: text },
  required: ['menge', 'einheit', 'prozent', 'von', 'nr'], additionalProperties: false,
});
nameSchema('NachweisverfolgungKnoten', {
  anyOf: [
    lieferung,
    node({ const: 'abholung' }, { nr: text, lieferdatum: text, lieferstelleNr: text, lieferant: textOrNull, produktgruppe: text, kraftstoffmenge: text, einheit: text, eingeliefert: text },
      ['nr', 'lieferdatum', 'lieferstelleNr', 'lieferant', 'produktgruppe', 'kraftstoffmenge', 'einheit', 'eingeliefert']),
    node({ const: 'nachweis' }, {
      nr: text, teilVon: textOrNull, standortNr: text, produktgruppe: text, rohstoff: textOrNull, menge: text, mengeVerbleibend: text, verwendet: text, einheit: text,
      thg: textOrNull, einsparung: textOrNull, vorlaeufig: { type: 'boolean' }, storniert: { type: 'boolean' }, zeitraumBis: textOrNull, ablauf: textOrNull,
      lieferant: textOrNull, lieferantZertifikatNr: textOrNull, status: text,
    }, ['nr', 'teilVon', 'standortNr', 'produktgruppe', 'rohstoff', 'menge', 'mengeVerbleibend', 'verwendet', 'einheit', 'thg', 'einsparung', 'vorlaeufig', 'storniert', 'zeitraumBis', 'ablauf', 'lieferant', 'lieferantZertifikatNr', 'status'],
    { verteilt: text }),
    node({ const: 'nachweisbescheinigung' }, {
      nr: text, nachweisNr: text, teilVon: textOrNull, ablieferungNr: textOrNull, standortNr: text, lieferdatum: text, volumen: text, volumenVerbleibend: text, einheit: text, thg: textOrNull, status: text,
    }, ['nr', 'nachweisNr', 'teilVon', 'ablieferungNr', 'standortNr', 'lieferdatum', 'volumen', 'volumenVerbleibend', 'einheit', 'thg', 'status']),
    node({ const: 'lieferantenzertifikat' }, { nr: textOrNull, lieferant: textOrNull }, ['nr', 'lieferant']),
  ],
});
const Verfolgung = {
  type: 'object',
  properties: {
    data: {
      type: 'object',
      properties: {
        art: { enum: [...ARTEN] }, nr: text, richtung: { enum: ['rueckwaerts', 'vorwaerts'] }, nachweiseVorhanden: { type: 'boolean' },
        grund: { enum: ['keine_zuordnung', 'keine_abholung', 'abholung_ohne_nachweise', null] }, hinweise: { type: 'array', items: { enum: ['gekappt', 'ausgeblendet'] } },
        knoten: ref('NachweisverfolgungKnoten'),
      },
      required: ['art', 'nr', 'richtung', 'nachweiseVorhanden', 'grund', 'hinweise', 'knoten'],
      additionalProperties: false,
    },
  },
  required: ['data'],
  additionalProperties: false,
};
documentApi({
  method: 'get', path: '/nachweisverfolgung/:nr', tag: 'nachweisverfolgung', summary: 'nachweisverfolgung.read',
  query: z.object({ art: z.enum(['einlieferung', 'ablieferung']).optional() }), ok: { 200: Verfolgung }, errors: [409],
});
import { oeffne } from './service.js';
import { heuteInDeutschland } from './trace.js';

const AREA = 'nachweisverfolgung';

export function nachweisverfolgungApi(knex: Knex, clock: Clock): Router {
  const router = Router();
  mountListApi(router, knex, verfolgungListe, 'nachweisverfolgung', AREA, { title: 'nachweisverfolgung:title', filename: 'nachweisverfolgung', row: VerfolgungZeile });
  router.get('/nachweisverfolgung/:nr', requireApiPermission(AREA, 'view'), async (req, res) => {
    const { art } = detailAnfrage(req.query as Record<string, unknown>, ['art']);
    const nr = req.params.nr as string;
    const geoeffnet = await oeffne(tenantScope(knex, res, AREA), nr, art, heuteInDeutschland(clock.now()));
    if (geoeffnet.typ === 'auswahl') {
      const params = { nr, arten: geoeffnet.arten.join(', ') };
      throw new ProblemError('conflict', 'ART_MEHRDEUTIG', 'nachweisverfolgung:errors.mehrdeutig', [{ field: 'art', message: 'nachweisverfolgung:errors.mehrdeutig', params }], params);
    }
    res.json({ data: geoeffnet.verfolgung });
  });
  return router;
}
