// The page of API keys under Administration (tenant administrators), plain forms that work without JavaScript:
//   GET  /{lang}/benutzer/api-keys                 the keys (name, prefix, scope, locations, created, last used,
//                                                  status) and the form for a new one
//   POST /{lang}/benutzer/api-keys                 creates it and shows the key once (no redirect: the secret
//                                                  must not travel through a flash cookie or a URL)
//   POST /{lang}/benutzer/api-keys/{id}/widerruf   first the confirmation naming the key (src/http/confirm.ts),
//                                                  confirmed it revokes the key, back to the list
import { Router, type Request, type Response } from 'express';
import type { Knex } from 'knex';
import type { Clock } from '../../clock.js';
import { askFirst, isConfirmed } from '../../http/confirm.js';
import { formErrors } from '../../http/forms.js';
import { guardsFor } from '../../http/guards.js';
import { actorOf, tenantScope } from '../../http/tenant.js';
import { idOr404, parseOr400 } from '../../http/validate.js';
import { ROLE_TYPES } from '../../permissions/index.js';
import { ApiKeyCreateBody, ApiKeyId, MAX_NAME } from './schema.js';
import { ApiKeyService } from './service.js';

export const PATH = 'benutzer/api-keys';

/** The role types a key may hold, by number, with their names: the form's checkboxes and the list's scope. */
export const ROLLEN = Object.entries(ROLE_TYPES).map(([nr, name]) => ({ nr: Number(nr), name }));

export function apiKeysRoutes(knex: Knex, clock: Clock): Router {
  const router = Router({ mergeParams: true });
  const service = new ApiKeyService(knex, clock);
  const guards = guardsFor(PATH);
  const scope = (res: Response) => tenantScope(knex, res);
  const seite = (res: Response) => `/${res.locals.lang}/${PATH}`;

  async function zeige(req: Request, res: Response, werte: { name?: string; rollen: number[]; standorte: string[] }, fehler: Record<string, string>) {
    const s = scope(res);
    const [keys, standorte] = await Promise.all([service.list(s), s.table('standorte').orderBy('nr').select('nr', 'name')]);
    await res.page('api-keys/index', {
      title: req.t('nav.api-keys'),
      keys,
      standorte,
      rollen: ROLLEN,
      werte,
      fehler,
      maxName: MAX_NAME,
      aktion: seite(res),
    });
  }

  router.get(`/${PATH}`, ...guards, (req, res) => zeige(req, res, { rollen: [], standorte: [] }, {}));

  router.post(`/${PATH}`, ...guards, async (req, res) => {
    try {
      const input = parseOr400(ApiKeyCreateBody, req.body);
      const created = await service.create(scope(res), actorOf(req, res), input);
      res.set('Cache-Control', 'no-store');
      res.status(201);
      await res.page('api-keys/erstellt', { title: req.t('api-keys:erstellt.title'), created, zurueck: seite(res) });
    } catch (err) {
      const gefunden = formErrors(err, req);
      if (!gefunden) throw err;
      // A role type is refused at its position (rollen.3): the form shows it at the group of checkboxes.
      const fehler: Record<string, string> = {};
      for (const [feld, text] of Object.entries(gefunden)) fehler[feld.split('.')[0]] ??= text;
      res.status(400);
      const b = (req.body ?? {}) as Record<string, unknown>;
      const many = (v: unknown) => (v === undefined ? [] : Array.isArray(v) ? v.map(String) : [String(v)]);
      await zeige(req, res, { name: typeof b.name === 'string' ? b.name : '', rollen: many(b.rollen).map(Number), standorte: many(b.standorte) }, fehler);
    }
  });

  // The list's button posts here; the first post asks, naming the key (src/http/confirm.ts). A key revoked
  // meanwhile is not asked about: revoking it again changes nothing and says so.
  router.post(`/${PATH}/:id/widerruf`, ...guards, async (req, res) => {
    const id = idOr404(ApiKeyId, req.params.id, 'api-keys:errors.notFound');
    if (!isConfirmed(req)) {
      const key = await service.get(scope(res), id);
      if (key.status === 'aktiv') {
        return askFirst(req, res, {
          heading: req.t('api-keys:widerruf.title', { name: key.name }),
          text: req.t('api-keys:widerruf.warnung', { name: key.name, praefix: key.praefix }),
          confirm: req.t('api-keys:widerruf.bestaetigen', { name: key.name }),
          cancelHref: seite(res),
          trail: [{ label: req.t('nav.api-keys'), href: seite(res) }],
        });
      }
    }
    const key = await service.revoke(scope(res), actorOf(req, res), id);
    res.flash('success', key.status === 'widerrufen' ? 'api-keys:flash.widerrufen' : 'api-keys:flash.unveraendert');
    res.redirect(seite(res));
  });

  return router;
}
