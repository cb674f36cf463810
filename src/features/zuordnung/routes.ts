// Pages and API of the certificates on an outbound delivery, mounted on the Ablieferungen entity
// (EntityConfig.extraRoutes and a detail tab):
// - page: the tab `?tab=nachweise` with a form per available certificate (POST …/{nr}/nachweise) and a remove
//   button per assignment (POST …/{nr}/nachweise/{nachweisNr}/entfernen); both come back to the tab, with the
//   problem at the form when refused. Works without JavaScript.
// - API: GET|POST /api/ablieferungen/{nr}/nachweise, DELETE /api/ablieferungen/{nr}/nachweise/{nachweisNr}.
// - the delivery's Nachweisbescheinigung as PDF: /{lang}/bewegungsdaten/ablieferungen/{nr}/nachweisbescheinigung.pdf
//   and /api/ablieferungen/{nr}/nachweisbescheinigung.pdf (language from the path, or Accept-Language).
// Handlers parse, guard (the area's rights; the delivery's location through kit.load) and call service.ts.
import { Router, type Request, type Response } from 'express';
import type { Knex } from 'knex';
import type { TenantScope } from '../../db/scope.js';
import { requireApiPermission } from '../../http/api.js';
import { refusedForm } from '../../http/forms.js';
import { guardsFor, requireActionPermission } from '../../http/guards.js';
import { actorOf } from '../../http/tenant.js';
import { parseOr400 } from '../../http/validate.js';
import type { EntityKit, RecordSection } from '../../records/entity.js';
import type { FileRef } from '../../records/files.js';
import { sendFile } from '../../records/files.js';
import type { Lieferung } from '../lieferungen/lieferung.js';
import type { Ablieferung } from './ablieferung.js';
import { nachweisbescheinigungDaten, nachweisbescheinigungPdf } from './pdf.js';
import { entfernen, uebersicht, uebersichtApi, zuordnen, ZuordnungSchema } from './service.js';
import { Envelope, documentApis } from '../api-docs/registry.js';
import { z } from 'zod';
import { EINHEITEN } from '../../domain/units.js';
import { ZERTIFIKAT_STATUS } from '../../domain/lieferkette.js';

// The answers (service.ts): quantities with three decimals and percentages as exact strings.
const Einheit = z.enum(EINHEITEN);
/** One live assignment (uebersichtApi: the tab's `datei` and `poc` left out). */
const Zugeordnet = z.object({
  nachweisNr: z.string(), nachweisbescheinigungNr: z.string(), volumen: z.string(), einheit: Einheit, anteil: z.string().nullable(),
  vorlaeufig: z.boolean(), thg: z.string().nullable(), einsparung: z.string().nullable(),
}).strict();
/** A certificate that could still be assigned. */
const Verfuegbar = z.object({
  nachweisNr: z.string(), mengeVerbleibend: z.string(), einheit: Einheit, lieferungVon: z.string().nullable(),
  thg: z.string().nullable(), einsparung: z.string().nullable(), vorlaeufig: z.boolean(), vorschlag: z.string(),
}).strict();
const Uebersicht = z.object({
  zugeordnet: z.array(Zugeordnet), verfuegbar: z.array(Verfuegbar),
  bioMenge: z.string(), gedeckt: z.string(), offen: z.string(), einheit: Einheit, zertifikatStatus: z.enum(ZERTIFIKAT_STATUS),
}).strict();
const Entfernt = z.object({ nachweisNr: z.string(), nachweisbescheinigungNr: z.string() }).strict();

documentApis([
  { method: 'get', path: '/ablieferungen/:nr/nachweise', tag: 'ablieferungen', summary: 'zuordnung.read', ok: { 200: Uebersicht } },
  { method: 'post', path: '/ablieferungen/:nr/nachweise', tag: 'ablieferungen', summary: 'zuordnung.assign', body: ZuordnungSchema, ok: { 201: Envelope(Zugeordnet) } },
  { method: 'delete', path: '/ablieferungen/:nr/nachweise/:nachweisNr', tag: 'ablieferungen', summary: 'zuordnung.remove', ok: { 200: Envelope(Entfernt) } },
  { method: 'get', path: '/ablieferungen/:nr/nachweisbescheinigung.pdf', tag: 'ablieferungen', summary: 'zuordnung.pdf', ok: { 200: { file: ['application/pdf'] } }, errors: [409] },
]);

const DETAIL = 'bewegungsdaten/ablieferungen/:id';
const TAB = 'nachweise';

/** The delivery's certificates tab: assigned, the bio quantity, available (with forms where the user may assign). */
export const nachweiseTab: RecordSection<Lieferung> = {
  key: TAB,
  label: 'zuordnung:tab',
  view: 'zuordnung/nachweise',
  locals: async ({ scope, editScope, record }) => {
    const l = record as Ablieferung;
    return { zuordnung: await uebersicht(scope, l), darfZuordnen: editScope.allowsStandort(l.standortNr) && !l.storniert };
  },
};

export function zuordnungRoutes(_knex: Knex, kit: EntityKit<Lieferung>): { pages: Router; api: Router } {
  const pages = Router({ mergeParams: true });
  const api = Router();
  const tabHref = (res: Response, nr: string) => `/${res.locals.lang}/bewegungsdaten/ablieferungen/${encodeURIComponent(nr)}?tab=${TAB}`;
  const lang = (req: Request, res: Response): 'de' | 'en' => ((res.locals.lang ?? req.language) === 'en' ? 'en' : 'de');

  /** A change from the tab: done → back to the tab with a message; refused → the tab again, the problem at its form. */
  async function submit(req: Request, res: Response, change: (scope: TenantScope, nr: string) => Promise<unknown>, flash: string, form: Record<string, unknown>) {
    const { scope, record } = await kit.load(res, String(req.params.id), 'edit');
    try {
      await change(scope, record.nr);
      res.flash('success', flash);
      res.redirect(tabHref(res, record.nr));
    } catch (err) {
      const { status, errors } = refusedForm(err, req);
      res.status(status);
      await kit.renderDetail(req, res, (await kit.load(res, record.nr)).record, { tab: TAB, zuordnungForm: { ...form, errors } });
    }
  }

  const editGuards = [...guardsFor(DETAIL), requireActionPermission('ablieferungen', 'edit')];

  pages.post(`/${DETAIL}/nachweise`, ...editGuards, (req, res) => {
    const values = { nachweisNr: String(req.body?.nachweisNr ?? ''), volumen: String(req.body?.volumen ?? '') };
    return submit(req, res, (scope, nr) => zuordnen(scope, actorOf(req, res), nr, parseOr400(ZuordnungSchema, req.body)), 'zuordnung:flash.zugeordnet', { art: 'zuordnen', nachweisNr: values.nachweisNr, values });
  });

  pages.post(`/${DETAIL}/nachweise/:nachweisNr/entfernen`, ...editGuards, (req, res) => {
    const nachweisNr = String(req.params.nachweisNr);
    return submit(req, res, (scope, nr) => entfernen(scope, actorOf(req, res), nr, nachweisNr), 'zuordnung:flash.entfernt', { art: 'entfernen', nachweisNr });
  });

  /** The PDF of a delivery the user may see. */
  async function pdf(req: Request, res: Response, nr: string) {
    const { scope, record } = await kit.load(res, nr);
    const daten = await nachweisbescheinigungDaten(scope, record as Ablieferung);
    const sprache = lang(req, res);
    const inhalt = await nachweisbescheinigungPdf(daten, req.t, sprache);
    const name = `${req.t('zuordnung:pdf.dateiname')}-${record.nr}.pdf`;
    sendFile(res, { name, type: 'application/pdf' } as FileRef, inhalt);
  }
  pages.get(`/${DETAIL}/nachweisbescheinigung.pdf`, ...guardsFor(DETAIL), (req, res) => pdf(req, res, String(req.params.id)));

  // API.
  const view = requireApiPermission('ablieferungen', 'view');
  const edit = requireApiPermission('ablieferungen', 'edit');

  api.get('/ablieferungen/:nr/nachweise', view, async (req, res) => {
    const { scope, record } = await kit.load(res, String(req.params.nr));
    res.json(uebersichtApi(await uebersicht(scope, record as Ablieferung)));
  });

  api.post('/ablieferungen/:nr/nachweise', edit, async (req, res) => {
    const { scope, record } = await kit.load(res, String(req.params.nr), 'edit');
    const data = await zuordnen(scope, actorOf(req, res), record.nr, parseOr400(ZuordnungSchema, req.body));
    res.status(201).json({ success: true, data });
  });

  api.delete('/ablieferungen/:nr/nachweise/:nachweisNr', edit, async (req, res) => {
    const { scope, record } = await kit.load(res, String(req.params.nr), 'edit');
    const data = await entfernen(scope, actorOf(req, res), record.nr, String(req.params.nachweisNr));
    res.json({ success: true, data });
  });

  api.get('/ablieferungen/:nr/nachweisbescheinigung.pdf', view, (req, res) => pdf(req, res, String(req.params.nr)));

  return { pages, api };
}
