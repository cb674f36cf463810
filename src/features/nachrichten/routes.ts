// The page of Nachrichten, complete without JavaScript:
//   GET  /{lang}/benutzer/nachrichten                       messages valid today (unread marked); administrators also
//                                                          the form and every message of the tenant
//   POST /{lang}/benutzer/nachrichten                       write one (administrators) → back with a message
//   POST /{lang}/benutzer/nachrichten/gelesen               all read
//   POST /{lang}/benutzer/nachrichten/:id/gelesen           one read
//   POST /{lang}/benutzer/nachrichten/:id/loeschen          delete one (administrators), after a confirmation
//                                                          (src/http/confirm.ts)
// Every change redirects back to the page (POST-redirect-GET), whose header count is read anew with the session.
import { Router, type Request, type Response } from 'express';
import type { Knex } from 'knex';
import type { Clock } from '../../clock.js';
import { askFirst, isConfirmed } from '../../http/confirm.js';
import { formErrors } from '../../http/forms.js';
import { guardsFor, requireActionPermission } from '../../http/guards.js';
import { idOr404, parseOr400 } from '../../http/validate.js';
import { actorOf, tenantScope } from '../../http/tenant.js';
import { heuteInDeutschland } from '../zuordnung/service.js';
import { MAX_TEXT, MAX_TITEL, NachrichtId, NachrichtSchema } from './schema.js';
import * as service from './service.js';

const PATH = 'benutzer/nachrichten';

/** A message's text as paragraphs (blank lines) of lines, for the view to escape and join with <br>. */
export function absaetze(text: string): string[][] {
  return text.split(/\n\s*\n/).map((p) => p.split('\n')).filter((p) => p.some((l) => l.trim() !== ''));
}

export function nachrichtenRoutes(knex: Knex, clock: Clock): Router {
  const router = Router({ mergeParams: true });
  const heute = () => heuteInDeutschland(new Date(clock.now()));
  const scope = (res: Response) => tenantScope(knex, res);
  const seite = (res: Response) => `/${res.locals.lang}/${PATH}`;
  const admin = requireActionPermission('admin', 'view');

  async function zeige(req: Request, res: Response, werte: Record<string, unknown> | null, fehler: Record<string, string>) {
    const actor = actorOf(req, res);
    const s = scope(res);
    const [nachrichten, verwaltung] = await Promise.all([
      service.aktuelle(s, actor, heute()),
      service.darfSchreiben(actor) ? service.alle(s, actor) : Promise.resolve(null),
    ]);
    await res.page('nachrichten/index', {
      title: req.t('nav.nachrichten'),
      nachrichten,
      verwaltung,
      ungelesen: nachrichten.filter((n) => n.ungelesen).length,
      darfAnAlle: service.darfAnAlle(actor),
      heute: heute(),
      werte: werte ?? { gueltigVon: heute(), an: 'mandant' },
      fehler,
      maxTitel: MAX_TITEL,
      maxText: MAX_TEXT,
      aktion: seite(res),
      absaetze,
    });
  }

  router.get(`/${PATH}`, ...guardsFor(PATH), (req, res) => zeige(req, res, null, {}));

  router.post(`/${PATH}`, ...guardsFor(PATH), admin, async (req, res) => {
    try {
      await service.anlegen(scope(res), actorOf(req, res), parseOr400(NachrichtSchema, req.body));
      res.flash('success', 'nachrichten:flash.angelegt');
      res.redirect(seite(res));
    } catch (err) {
      const fehler = formErrors(err, req);
      if (!fehler) throw err;
      res.status(400);
      const b = req.body ?? {};
      await zeige(req, res, { titel: b.titel, text: b.text, gueltigVon: b.gueltigVon, gueltigBis: b.gueltigBis, an: b.an }, fehler);
    }
  });

  router.post(`/${PATH}/gelesen`, ...guardsFor(PATH), async (req, res) => {
    await service.alleAlsGelesen(scope(res), actorOf(req, res), heute());
    res.flash('success', 'nachrichten:flash.alleGelesen');
    res.redirect(seite(res));
  });

  router.post(`/${PATH}/:id/gelesen`, ...guardsFor(PATH), async (req, res) => {
    const id = idOr404(NachrichtId, req.params.id, 'nachrichten:errors.notFound');
    await service.alsGelesen(scope(res), actorOf(req, res), id, heute());
    res.flash('success', 'nachrichten:flash.gelesen');
    res.redirect(`${seite(res)}#nachricht-${id}`);
  });

  router.post(`/${PATH}/:id/loeschen`, ...guardsFor(PATH), admin, async (req, res) => {
    const id = idOr404(NachrichtId, req.params.id, 'nachrichten:errors.notFound');
    if (!isConfirmed(req)) {
      const n = await service.eine(scope(res), actorOf(req, res), id);
      // An unknown message is refused by the deletion itself (404), without asking.
      if (n) {
        return askFirst(req, res, {
          heading: req.t('nachrichten:confirmLoeschen.heading', { titel: n.titel }),
          text: req.t(n.anAlle ? 'nachrichten:confirmLoeschen.textAnAlle' : 'nachrichten:confirmLoeschen.text', { titel: n.titel }),
          confirm: req.t('nachrichten:confirmLoeschen.confirm'),
          cancelHref: `${seite(res)}#verwaltung`,
          trail: [{ label: req.t('nav.nachrichten'), href: seite(res) }],
        });
      }
    }
    await service.loeschen(scope(res), actorOf(req, res), id);
    res.flash('success', 'nachrichten:flash.geloescht');
    res.redirect(seite(res));
  });

  return router;
}
