// JSON API of the Tankstelle (the contract with its island: /work/wt/tankstelle-vertrag.md, kept in
// docs/decisions.md "Tankstelle views"):
//   GET /api/tankstelle?standortNr=S                         tanks with their traffic lights, the 10 latest deliveries
//   GET /api/tankstelle/zapfsaeulen?standortNr=S             outbound deliveries of the last 30 days by product
//   GET /api/tankstelle/lieferkette?standortNr=S&produktNr=P where the tank's bio content comes from
//   GET|PUT /api/tankstelle/einstellungen                    the tenant's thresholds {reichweiteTage, verbrauchTage}
// Viewing needs right 13 or 14 (area tankstelle-bestand), changing the thresholds 14; rows are limited to the
// user's locations, and a location that is not theirs is a 404 like one that does not exist.
import { Router, type Request, type Response } from 'express';
import type { Knex } from 'knex';
import type { Clock } from '../../clock.js';
import { requireApiPermission } from '../../http/api.js';
import { HttpError } from '../../http/errors.js';
import { actorOf, tenantScope } from '../../http/tenant.js';
import { heuteInDeutschland } from '../zuordnung/service.js';
import { parseEinstellungen } from './schema.js';
import { z } from 'zod';
import { documentApis } from '../api-docs/registry.js';
import { VERKNUEPFUNG_STATUS, ZERTIFIKAT_STATUS } from '../../domain/lieferkette.js';
import { TANK_AMPELN } from '../../domain/tankampel.js';
import { EINHEITEN } from '../../domain/units.js';
import { LIEFERSTATUS } from '../lieferungen/names.js';
import { EinstellungenSchema } from './schema.js';

const standort = z.object({ standortNr: z.string().max(32).optional() });
const Einstellungen = z.object({ reichweiteTage: z.number().int(), verbrauchTage: z.number().int() });

// The views' answers (service.ts): decimals as exact strings, litres unless an `einheit` says otherwise, dates ISO.
const Einheit = z.enum(EINHEITEN);
const ZertifikatStatus = z.enum(ZERTIFIKAT_STATUS);
/** A row of the location's 10 latest deliveries (`ein` inbound, `ab` outbound), with the link to its record. */
const LetzteLieferung = z.object({
  art: z.enum(['ein', 'ab']), nr: z.string(), datum: z.string(), partnerNr: z.string(), partnerName: z.string().nullable(),
  produktNr: z.string(), produktName: z.string().nullable(), menge: z.string(), einheit: Einheit, status: z.enum(LIEFERSTATUS),
  zertifikatStatus: ZertifikatStatus.nullable(), verknuepfungStatus: z.enum(VERKNUEPFUNG_STATUS).nullable(), href: z.string(),
}).strict();
const Tank = z.object({
  standortNr: z.string(), produktNr: z.string(), produktName: z.string(), bestandDatum: z.string().nullable(), volumen: z.string().nullable(),
  fuellstand: z.string().nullable(), bioAnteil: z.string(), bioMenge: z.string().nullable(), gedeckt: z.string(), gedecktProzent: z.string().nullable(),
  verbrauchProTag: z.string(), reichweiteTage: z.number().int().nullable(), aktiveEinlieferungNr: z.string().nullable(), nachfolger: z.boolean(),
  ampel: z.enum(TANK_AMPELN), ampelText: z.string(), ampelFarbe: z.enum(['gruen', 'gelb', 'rot', 'grau', 'blau']), ampelIcon: z.string(),
}).strict();
/** GET /api/tankstelle: the location's tanks with their traffic lights. */
const TankUebersicht = z.object({
  standortNr: z.string(), stand: z.string(), einstellungen: Einstellungen.strict(),
  standorte: z.array(z.object({ nr: z.string(), name: z.string() }).strict()),
  tanks: z.array(Tank), letzteLieferungen: z.array(LetzteLieferung),
}).strict();
/** GET /api/tankstelle/zapfsaeulen: the outbound deliveries of the last 30 days by product. */
const Zapfsaeulen = z.object({
  standortNr: z.string(), stand: z.string(), von: z.string(), bis: z.string(),
  produkte: z.array(z.object({
    produktNr: z.string(), produktName: z.string(), menge: z.string(), bioMenge: z.string(),
    anzahl: z.object({ keine: z.number().int(), ohne_endgueltige: z.number().int(), mit_endgueltigen: z.number().int() }).strict(),
    ablieferungen: z.array(z.object({
      nr: z.string(), datum: z.string(), partnerName: z.string().nullable(), menge: z.string(), einheit: Einheit, bioMenge: z.string(),
      zertifikatStatus: ZertifikatStatus, href: z.string(),
    }).strict()),
  }).strict()),
}).strict();
/** GET /api/tankstelle/lieferkette: the inbound deliveries a tank's bio content is made of, newest first. */
const Lieferkette = z.object({
  standortNr: z.string(), produktNr: z.string(), produktName: z.string(), bioMenge: z.string().nullable(),
  anteile: z.array(z.object({
    einlieferungNr: z.string(), datum: z.string(), partnerName: z.string().nullable(), bioMenge: z.string(), anteil: z.string(),
    abholungNr: z.string().nullable(), href: z.string(), verfolgungHref: z.string(),
    nachweise: z.array(z.object({
      nr: z.string(), rest: z.string(), einheit: Einheit, vorlaeufig: z.boolean(), thg: z.string().nullable(), href: z.string(),
    }).strict()),
  }).strict()),
  ohneHerkunft: z.string(), summe: z.string(),
}).strict();
documentApis([
  { method: 'get', path: '/tankstelle', tag: 'tankstelle', summary: 'tankstelle.tanks', query: standort, ok: { 200: TankUebersicht } },
  { method: 'get', path: '/tankstelle/zapfsaeulen', tag: 'tankstelle', summary: 'tankstelle.pumps', query: standort, ok: { 200: Zapfsaeulen } },
  { method: 'get', path: '/tankstelle/lieferkette', tag: 'tankstelle', summary: 'tankstelle.chain', query: standort.extend({ produktNr: z.string().max(32).optional() }), ok: { 200: Lieferkette } },
  { method: 'get', path: '/tankstelle/einstellungen', tag: 'tankstelle', summary: 'tankstelle.settingsRead', ok: { 200: Einstellungen.strict() } },
  { method: 'put', path: '/tankstelle/einstellungen', tag: 'tankstelle', summary: 'tankstelle.settingsWrite', body: EinstellungenSchema, ok: { 200: Einstellungen.extend({ success: z.literal(true) }).strict() } },
]);
import * as service from './service.js';

export const AREA = 'tankstelle-bestand';

/** A query parameter that names a number (location, product): one value of sensible length, or none. */
export function nrParam(raw: unknown, field: string): string | null {
  if (raw === undefined || raw === '') return null;
  if (typeof raw !== 'string' || raw.length > 32) throw new HttpError(404, 'NOT_FOUND', field === 'produktNr' ? 'tankstelle:errors.tankUnbekannt' : 'tankstelle:errors.standortUnbekannt');
  return raw;
}

export const darstellungApi = (req: Request): service.Darstellung => ({ lang: req.language === 'en' ? 'en' : 'de', t: req.t as service.Darstellung['t'] });

export function tankstelleApi(knex: Knex, clock: Clock): Router {
  const router = Router();
  const view = requireApiPermission(AREA, 'view');
  const edit = requireApiPermission(AREA, 'edit');
  const scope = (res: Response, action: 'view' | 'edit' = 'view') => tenantScope(knex, res, AREA, action);
  const heute = () => heuteInDeutschland(new Date(clock.now()));

  router.get('/tankstelle', view, async (req, res) => {
    res.json(await service.tankUebersicht(scope(res), nrParam(req.query.standortNr, 'standortNr'), heute(), darstellungApi(req)));
  });

  router.get('/tankstelle/zapfsaeulen', view, async (req, res) => {
    res.json(await service.zapfsaeulen(scope(res), nrParam(req.query.standortNr, 'standortNr'), heute(), darstellungApi(req)));
  });

  router.get('/tankstelle/lieferkette', view, async (req, res) => {
    res.json(await service.lieferkette(scope(res), nrParam(req.query.standortNr, 'standortNr'), nrParam(req.query.produktNr, 'produktNr'), heute(), darstellungApi(req)));
  });

  router.get('/tankstelle/einstellungen', view, async (_req, res) => {
    res.json(await service.einstellungenLesen(scope(res)));
  });

  router.put('/tankstelle/einstellungen', edit, async (req, res) => {
    const neu = await service.einstellungenAendern(scope(res, 'edit'), actorOf(req, res), parseEinstellungen(req.body));
    res.json({ success: true, ...neu });
  });

  return router;
}
