// JSON API of the Bilanzen (api-contract.md, `bilanzen`): the list, a Bilanz, create/change/delete, its
// positions, and the operations as resources: `…/{id}/verteilung` (`?vorschau=1` previews), `…/zuruecksetzen`,
// `…/abschluss` (`?vorschau=1` lists the POCs it would issue), `…/positionen/{p}/teilung`, `…/positionen/{p}/abschluss`.
// Every write names the version it saw (body `version` or If-Match) or is not checked; a closed Bilanz is 409.
import { Router, type Request, type Response } from 'express';
import type { Knex } from 'knex';
import type { Clock } from '../../clock.js';
import { notFound } from '../../errors.js';
import { requireApiPermission } from '../../http/api.js';
import { formatter } from '../../http/format.js';
import { HttpError } from '../../http/errors.js';
import { actorOf, tenantScope } from '../../http/tenant.js';
import { mountListApi } from '../../records/list/routes.js';
import { heuteInDeutschland } from '../zuordnung/service.js';
import { bilanzDetail, verteilungDetail } from './detail.js';
import { bilanzListe } from './list.js';
import { parseBilanz, parsePosition, parsePositionAenderung, parseTeilung, parseVersion, parseZeitraum } from './schema.js';
import * as service from './service.js';
import { z } from 'zod';
import { DataOnly, Done, documentApis, Envelope } from '../api-docs/registry.js';
import { BilanzSchema, PositionAenderungSchema, PositionSchema, TeilungSchema, ZeitraumSchema } from './schema.js';

const dezimal = z.string().nullable();
/** A row of the list (bilanzListe.toRow). */
const BilanzZeile = z.object({
  id: z.number().int(), standortNr: z.string(), standortName: z.string(), produktNr: z.string(), produktName: z.string(),
  zeitraumVon: z.string(), zeitraumBis: z.string(), status: z.enum(['offen', 'geschlossen']), verteilt: z.boolean(), einheit: z.string(),
  mengeGesamt: dezimal, bioMenge: dezimal, zugeordnet: dezimal, restBioMenge: dezimal, biogehalt: dezimal, thgMinderungT: dezimal,
}).strict();

const Status = z.enum(['offen', 'geschlossen']);
const NichtGedeckt = z.object({ ablieferungNr: z.string(), positionId: z.number().int(), offen: z.string() }).strict();
/** A Bilanz as bilanzDetail presents it (detail.ts, BilanzDetail): decimals as exact strings, null until allocated. */
const BilanzDetail = z.object({
  id: z.number().int(), standortNr: z.string(), standortName: z.string(), produktNr: z.string(), produktName: z.string(),
  zeitraumVon: z.string(), zeitraumBis: z.string(), status: Status, einheit: z.string(), version: z.number().int(),
  verteilt: z.boolean(), verteiltAm: z.string().nullable(), geschlossenAm: z.string().nullable(), kommentar: z.string().nullable(),
  mengeGesamt: dezimal, bioMenge: dezimal, biogehalt: dezimal, restBioMenge: dezimal, zugeordnet: dezimal, thgMinderungT: dezimal,
  positionen: z.array(z.object({
    id: z.number().int(), partnerNr: z.string(), partnerName: z.string(), prioritaet: z.number().int(), biogehalt: dezimal, bioMenge: dezimal,
    status: Status, zugeordnet: z.string(),
  }).strict()),
  zuordnungen: z.array(z.object({
    nr: z.number().int(), positionId: z.number().int(), ablieferungNr: z.string(), lieferdatum: z.string().nullable(), partnerNr: z.string(),
    nachweisNr: z.string(), menge: z.string(), thg: dezimal, thgMinderungT: dezimal, vorlaeufig: z.boolean(), begruendung: z.string(),
    nachweisbescheinigungNr: z.string().nullable(),
  }).strict()),
  nichtGedeckt: z.array(NichtGedeckt),
  nachweise: z.array(z.object({ nachweisNr: z.string(), menge: z.string(), vorlaeufig: z.boolean() }).strict()),
}).strict();
/** What an allocation would give (`?vorschau=1`, detail.ts verteilungDetail): nothing is written. */
const VerteilungVorschau = z.object({
  success: z.literal(true), vorschau: z.literal(true),
  data: z.object({
    einheit: z.string(), mengeGesamt: z.string(), bioMenge: z.string(), zugeordnet: z.string(), restBioMenge: z.string(), biogehalt: dezimal,
    thgMinderungT: z.string(),
    zuordnungen: z.array(z.object({
      positionId: z.number().int(), ablieferungNr: z.string(), lieferdatum: z.string().nullable(), nachweisNr: z.string(), menge: z.string(),
      thg: z.string(), thgMinderungT: z.string(), vorlaeufig: z.boolean(), begruendung: z.string(),
    }).strict()),
    nichtGedeckt: z.array(NichtGedeckt),
  }).strict(),
}).strict();
/** A change answers the Bilanz as it is now. */
const Bilanz = Envelope(BilanzDetail);

const tag = 'bilanzen';
const id = z.string().regex(/^[1-9]\d{0,9}$/);
const one = z.object({ id });
const pos = z.object({ id, p: id });
const version = z.object({ version: z.number().int().optional() });
const vorschau = z.object({ vorschau: z.enum(['0', '1', 'true']).optional() });
const ifMatch = [{ name: 'If-Match', description: 'the version the change is based on; none: unchecked' }];
const Pocs = z.object({ success: z.literal(true), vorschau: z.boolean(), data: z.object({ nachweisbescheinigungen: z.array(z.unknown()) }).strict() }).strict();
documentApis([
  { method: 'get', path: '/bilanzen/:id', tag, summary: 'bilanzen.read', params: one, ok: { 200: DataOnly(BilanzDetail) } },
  { method: 'post', path: '/bilanzen', tag, summary: 'bilanzen.create', body: BilanzSchema, ok: { 201: Bilanz } },
  { method: 'put', path: '/bilanzen/:id', tag, summary: 'bilanzen.update', params: one, headers: ifMatch, body: ZeitraumSchema.extend(version.shape), ok: { 200: Bilanz } },
  { method: 'delete', path: '/bilanzen/:id', tag, summary: 'bilanzen.delete', params: one, headers: ifMatch, ok: { 200: Done } },
  { method: 'post', path: '/bilanzen/:id/positionen', tag, summary: 'bilanzen.positionCreate', params: one, headers: ifMatch, body: PositionSchema.extend(version.shape), ok: { 201: Bilanz } },
  { method: 'put', path: '/bilanzen/:id/positionen/:p', tag, summary: 'bilanzen.positionUpdate', params: pos, headers: ifMatch, body: PositionAenderungSchema.extend(version.shape), ok: { 200: Bilanz } },
  { method: 'delete', path: '/bilanzen/:id/positionen/:p', tag, summary: 'bilanzen.positionDelete', params: pos, headers: ifMatch, ok: { 200: Bilanz } },
  { method: 'post', path: '/bilanzen/:id/positionen/:p/teilung', tag, summary: 'bilanzen.positionSplit', params: pos, headers: ifMatch, body: TeilungSchema.extend(version.shape), ok: { 201: Bilanz } },
  { method: 'post', path: '/bilanzen/:id/verteilung', tag, summary: 'bilanzen.allocate', params: one, query: vorschau, headers: ifMatch, body: version, ok: { 200: z.union([Bilanz, VerteilungVorschau]) } },
  { method: 'post', path: '/bilanzen/:id/zuruecksetzen', tag, summary: 'bilanzen.reset', params: one, headers: ifMatch, body: version, ok: { 200: Bilanz } },
  { method: 'post', path: '/bilanzen/:id/abschluss', tag, summary: 'bilanzen.close', params: one, query: vorschau, headers: ifMatch, body: version, ok: { 200: Pocs, 201: Pocs } },
  { method: 'post', path: '/bilanzen/:id/positionen/:p/abschluss', tag, summary: 'bilanzen.positionClose', params: pos, query: vorschau, headers: ifMatch, body: version, ok: { 200: Pocs, 201: Pocs } },
]);

const AREA = 'bilanzen';

/** A Bilanz's or position's id from the path: a positive whole number, else 404 (as an unknown one). */
export function idOf(raw: unknown): number {
  const s = String(raw ?? '');
  if (!/^[1-9]\d{0,9}$/.test(s) || Number(s) > 2_147_483_647) throw notFound();
  return Number(s);
}

/** The version an operation is based on: the body's `version` or the If-Match header; none: unchecked. */
export function versionOf(req: Request): number | undefined {
  const ifMatch = typeof req.headers['if-match'] === 'string' ? req.headers['if-match'].replace(/"/g, '') : undefined;
  return parseVersion({ version: req.body?.version ?? ifMatch });
}

/** `?vorschau=1`: a preview, nothing written; anything but 0/1 is a 400. */
export function vorschauOf(req: Request): boolean {
  const v = req.query.vorschau;
  if (v === undefined || v === '' || v === '0') return false;
  if (v === '1' || v === 'true') return true;
  throw new HttpError(400, 'VALIDATION', 'bilanzen:errors.vorschau', [{ field: 'vorschau', message: 'bilanzen:errors.vorschau' }]);
}

/** Numbers and dates as the request's user reads them (the reasons' quantities), in its language. */
export const fmtOf = (req: Request, res: Response) => formatter(res.locals.currentUser!.settings, (res.locals.lang ?? req.language) === 'en' ? 'en' : 'de');

export function bilanzenApi(knex: Knex, clock: Clock): Router {
  const router = Router();
  mountListApi(router, knex, bilanzListe, 'bilanzen', AREA, { title: 'bilanzen:title', filename: 'bilanzen', row: BilanzZeile });
  const view = requireApiPermission(AREA, 'view');
  const edit = requireApiPermission(AREA, 'edit');
  const heute = () => heuteInDeutschland(new Date(clock.now()));
  const fmt = fmtOf;
  const scope = (res: Response, action: 'view' | 'edit' = 'edit') => tenantScope(knex, res, AREA, action);

  async function detail(req: Request, res: Response, id: number, status = 200) {
    const d = await bilanzDetail(scope(res, 'view'), id, req.t, fmt(req, res), heute());
    if (!d) throw notFound();
    res.status(status).json(status === 200 && req.method === 'GET' ? { data: d } : { success: true, data: d });
  }

  router.get('/bilanzen/:id', view, (req, res) => detail(req, res, idOf(req.params.id)));

  router.post('/bilanzen', edit, async (req, res) => {
    const id = await service.anlegen(scope(res), actorOf(req, res), parseBilanz(req.body));
    res.setHeader('Location', `/api/bilanzen/${id}`);
    await detail(req, res, id, 201);
  });

  router.put('/bilanzen/:id', edit, async (req, res) => {
    const id = idOf(req.params.id);
    await service.aendern(scope(res), actorOf(req, res), id, { ...parseZeitraum(req.body), version: versionOf(req) });
    await detail(req, res, id);
  });

  router.delete('/bilanzen/:id', edit, async (req, res) => {
    await service.loeschen(scope(res), actorOf(req, res), idOf(req.params.id), versionOf(req));
    res.json({ success: true });
  });

  router.post('/bilanzen/:id/positionen', edit, async (req, res) => {
    const id = idOf(req.params.id);
    const positionId = await service.positionAnlegen(scope(res), actorOf(req, res), id, { ...parsePosition(req.body), version: versionOf(req) });
    res.setHeader('Location', `/api/bilanzen/${id}/positionen/${positionId}`);
    await detail(req, res, id, 201);
  });

  router.put('/bilanzen/:id/positionen/:p', edit, async (req, res) => {
    const id = idOf(req.params.id);
    await service.positionAendern(scope(res), actorOf(req, res), id, idOf(req.params.p), { ...parsePositionAenderung(req.body), version: versionOf(req) });
    await detail(req, res, id);
  });

  router.delete('/bilanzen/:id/positionen/:p', edit, async (req, res) => {
    const id = idOf(req.params.id);
    await service.positionLoeschen(scope(res), actorOf(req, res), id, idOf(req.params.p), versionOf(req));
    await detail(req, res, id);
  });

  router.post('/bilanzen/:id/positionen/:p/teilung', edit, async (req, res) => {
    const id = idOf(req.params.id);
    await service.teilen(scope(res), actorOf(req, res), id, idOf(req.params.p), { ...parseTeilung(req.body), version: versionOf(req) }, heute());
    await detail(req, res, id, 201);
  });

  router.post('/bilanzen/:id/verteilung', edit, async (req, res) => {
    const id = idOf(req.params.id);
    const vorschau = vorschauOf(req);
    const v = await service.verteilen(scope(res), actorOf(req, res), id, { version: versionOf(req), vorschau }, heute());
    if (vorschau) {
      res.json({ success: true, vorschau: true, data: verteilungDetail(v, req.t, fmt(req, res)) });
      return;
    }
    await detail(req, res, id);
  });

  router.post('/bilanzen/:id/zuruecksetzen', edit, async (req, res) => {
    const id = idOf(req.params.id);
    await service.zuruecksetzen(scope(res), actorOf(req, res), id, versionOf(req));
    await detail(req, res, id);
  });

  router.post('/bilanzen/:id/abschluss', edit, async (req, res) => {
    const id = idOf(req.params.id);
    const vorschau = vorschauOf(req);
    const pocs = await service.abschliessen(scope(res), actorOf(req, res), id, { version: versionOf(req), vorschau });
    res.status(vorschau ? 200 : 201).json({ success: true, vorschau, data: { nachweisbescheinigungen: pocs } });
  });

  router.post('/bilanzen/:id/positionen/:p/abschluss', edit, async (req, res) => {
    const id = idOf(req.params.id);
    const vorschau = vorschauOf(req);
    const pocs = await service.positionAbschliessen(scope(res), actorOf(req, res), id, idOf(req.params.p), { version: versionOf(req), vorschau });
    res.status(vorschau ? 200 : 201).json({ success: true, vorschau, data: { nachweisbescheinigungen: pocs } });
  });

  return router;
}
