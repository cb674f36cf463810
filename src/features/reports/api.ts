// JSON API of the reports (area `reports`, right 18; contract: /work/wt/reports-vertrag.md, api-contract.md):
//   GET /api/reports                 the catalogue: {data:[{id, name, frage, parameter, pflicht, formate}]}
//   GET /api/reports/{id}?startDate&endDate&partner&standort&produkt&format=json|csv|xlsx|pdf&page&pageSize
//       json (default): {data:[rows of the page], summen, erlaeuterungen:[text], parameter, total, page, pageSize}
//       csv|xlsx|pdf: the file, in the language of Accept-Language.
// A wrong parameter is a 400 naming it, a location that is not the user's a 403 with no rows, an unknown report 404.
import { Router, type Request, type Response } from 'express';
import type { Knex } from 'knex';
import type { Clock } from '../../clock.js';
import { requireApiPermission } from '../../http/api.js';
import { HttpError } from '../../http/errors.js';
import { formatter } from '../../http/format.js';
import { tenantScope } from '../../http/tenant.js';
import { MAX_PAGE_SIZE } from '../../records/list/page-size.js';
import { heuteInDeutschland } from '../zuordnung/service.js';
import { clientSignal, sendeDatei } from './ausgabe.js';
import type { ReportDefinition } from './definition.js';
import { findReport, REPORTS } from './katalog.js';
import { ausfuehren, erlaeuterungen, pruefen, ReportAbgebrochen, type T } from './service.js';
import { z } from 'zod';
import { documentApis } from '../api-docs/registry.js';

const Eintrag = z.object({ id: z.string(), name: z.string(), frage: z.string(), parameter: z.array(z.string()), pflicht: z.array(z.string()), formate: z.array(z.string()) }).strict();
documentApis([
  { method: 'get', path: '/reports', tag: 'reports', summary: 'reports.catalogue', ok: { 200: z.object({ data: z.array(Eintrag) }).strict() } },
  {
    method: 'get', path: '/reports/:id', tag: 'reports', summary: 'reports.run',
    query: z.object({
      startDate: z.iso.date().optional(), endDate: z.iso.date().optional(), partner: z.string().optional(), standort: z.string().optional(), produkt: z.string().optional(),
      format: z.enum(['json', 'csv', 'xlsx', 'pdf']).optional(), page: z.number().int().min(1).optional(), pageSize: z.number().int().min(1).optional(),
    }),
    ok: {
      200: {
        file: ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/pdf'],
        // A report's rows have the columns of that report (GET /api/reports names them).
        json: z.object({
          data: z.array(z.record(z.string(), z.unknown())), summen: z.unknown(), erlaeuterungen: z.array(z.string()),
          parameter: z.record(z.string(), z.unknown()), total: z.number().int(), page: z.number().int(), pageSize: z.number().int(),
        }).strict(),
      },
    },
  },
]);

export const AREA = 'reports';

/** The report of a path's id, or a 404. */
export function reportOr404(id: unknown): ReportDefinition {
  const def = typeof id === 'string' ? findReport(id) : undefined;
  if (!def) throw new HttpError(404, 'NOT_FOUND', 'reports:fehler.unbekannterBericht');
  return def;
}

/** A report in the catalogue's words. */
export function katalogEintrag(def: ReportDefinition, t: T) {
  return {
    id: def.id,
    name: t(`reports:katalog.${def.id}.name`),
    frage: t(`reports:katalog.${def.id}.frage`),
    parameter: [...def.parameter],
    pflicht: [...def.pflicht],
    formate: [...def.formate],
  };
}

export function reportsApi(knex: Knex, clock: Clock): Router {
  const router = Router();
  const view = requireApiPermission(AREA, 'view');

  router.get('/reports', view, (req, res) => {
    res.json({ data: REPORTS.map((def) => katalogEintrag(def, req.t as T)) });
  });

  router.get('/reports/:id', view, async (req: Request, res: Response) => {
    const def = reportOr404(req.params.id);
    const t = req.t as T;
    const lang = req.language === 'en' ? 'en' : 'de';
    const scope = tenantScope(knex, res, AREA);
    const anfrage = await pruefen(scope, def, req.query as Record<string, unknown>, t);
    try {
      const ergebnis = await ausfuehren(scope, def, anfrage.params, { lang, t, heute: heuteInDeutschland(new Date(clock.now())), signal: clientSignal(res) });
      if (anfrage.format && anfrage.format !== 'json') {
        await sendeDatei(req, res, scope, def, anfrage.params, ergebnis, anfrage.format, lang);
        return;
      }
      const pageSize = anfrage.pageSize ?? MAX_PAGE_SIZE;
      const start = (anfrage.page - 1) * pageSize;
      res.json({
        data: ergebnis.rows.slice(start, start + pageSize),
        summen: ergebnis.sums,
        erlaeuterungen: erlaeuterungen(ergebnis, t, formatter(res.locals.currentUser!.settings, lang)),
        parameter: anfrage.params,
        total: ergebnis.rows.length,
        page: anfrage.page,
        pageSize,
      });
    } catch (err) {
      if (err instanceof ReportAbgebrochen) return;
      throw err;
    }
  });

  return router;
}
