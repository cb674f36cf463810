// /{lang}/benutzer/gesetzeswerte (system administrators): the legal values per kind with the row in force today,
// a form to add a value from a date on, a page per row to correct it (and, while it is not yet in force, to
// delete it after a confirmation, src/http/confirm.ts), and the history of the table from the audit log. Plain forms with
// POST-redirect-GET: everything works without JavaScript.
import { Router, type Request, type Response } from 'express';
import type { Knex } from 'knex';
import type { Clock } from '../../clock.js';
import { DEFAULT_SETTINGS } from '../../auth/current-user.js';
import { askFirst, isConfirmed } from '../../http/confirm.js';
import { formatter } from '../../http/format.js';
import { AEQUIVALENT_EINHEITEN, GESETZESWERT_ARTEN } from '../../domain/gesetzeswerte.js';
import { httpErrorOf } from '../../http/errors.js';
import { submitForm } from '../../http/forms.js';
import { guardsFor } from '../../http/guards.js';
import { actorOf } from '../../http/tenant.js';
import { idOr404 } from '../../http/validate.js';
import * as present from './present.js';
import { GesetzeswertId, Korrektur, NeuerGesetzeswert, parseInput } from './schema.js';
import { GesetzeswerteService, type GesetzeswertRow } from './service.js';

const PATH = 'benutzer/gesetzeswerte';

export function gesetzeswerteRoutes(knex: Knex, clock: Clock): Router {
  const router = Router({ mergeParams: true });
  const service = new GesetzeswerteService(knex, clock);
  const guards = guardsFor(PATH);
  const base = (res: Response) => `/${res.locals.lang}/${PATH}`;
  const idOf = (raw: unknown) => idOr404(GesetzeswertId, raw, 'gesetzeswerte:errors.notFound');

  async function indexPage(req: Request, res: Response, form: { values: Record<string, unknown>; errors: Record<string, string> }) {
    const [rows, history] = await Promise.all([service.list(), service.history()]);
    await res.page('gesetzeswerte/index', {
      title: req.t('gesetzeswerte:title'),
      abschnitte: present.abschnitte(rows),
      gueltig: service.gueltigHeute(rows),
      heute: service.heute(),
      history,
      arten: GESETZESWERT_ARTEN,
      einheiten: AEQUIVALENT_EINHEITEN,
      present,
      ...form,
    });
  }

  async function editPage(req: Request, res: Response, row: GesetzeswertRow, form: { values: Record<string, unknown>; errors: Record<string, string> }) {
    await res.page('gesetzeswerte/edit', {
      title: req.t('gesetzeswerte:edit.heading', { art: req.t(`gesetzeswerte:arten.${row.art}`) }),
      row,
      loeschbar: service.loeschbar(row),
      present,
      ...form,
    });
  }

  router.get(`/${PATH}`, ...guards, (req, res) => indexPage(req, res, { values: {}, errors: {} }));

  router.post(`/${PATH}`, ...guards, async (req, res) => {
    await submitForm(
      req, res,
      async () => {
        await service.create(actorOf(req, res), parseInput(NeuerGesetzeswert, req.body));
        return base(res);
      },
      (errors) => indexPage(req, res, { values: req.body ?? {}, errors }),
    );
  });

  router.get(`/${PATH}/:id`, ...guards, async (req, res) => {
    const row = await service.get(idOf(req.params.id));
    await editPage(req, res, row, { values: { wert: present.wertEditierbar(row.art, row.wert, res.locals.lang), kommentar: row.kommentar }, errors: {} });
  });

  router.post(`/${PATH}/:id`, ...guards, async (req, res) => {
    const id = idOf(req.params.id);
    await submitForm(
      req, res,
      async () => {
        await service.correct(actorOf(req, res), id, parseInput(Korrektur, req.body));
        return base(res);
      },
      async (errors) => editPage(req, res, await service.get(id), { values: req.body ?? {}, errors }),
    );
  });

  // The edit page's button posts here; the first post asks (naming the value and its date), a value in force is
  // refused at once.
  router.post(`/${PATH}/:id/loeschen`, ...guards, async (req, res) => {
    const id = idOf(req.params.id);
    if (!isConfirmed(req)) {
      const row = await service.get(id);
      if (service.loeschbar(row)) {
        const lang = res.locals.lang as string;
        const ctx = { fmt: formatter(res.locals.currentUser?.settings ?? DEFAULT_SETTINGS, lang), t: req.t, lang };
        const bezug = present.bezugText(row, ctx);
        const was = `${req.t(`gesetzeswerte:arten.${row.art}`)}${bezug ? ` · ${bezug}` : ''}`;
        return askFirst(req, res, {
          heading: req.t('gesetzeswerte:loeschen.frage', { was }),
          text: req.t('gesetzeswerte:loeschen.text', { wert: present.wertText(row.art, row.wert, ctx), datum: ctx.fmt.date(row.gueltigAb) }),
          confirm: req.t('gesetzeswerte:loeschen.confirm'),
          cancelHref: `${base(res)}/${row.id}`,
          trail: [{ label: req.t('nav.gesetzeswerte'), href: base(res) }, { label: req.t('gesetzeswerte:edit.title'), href: `${base(res)}/${row.id}` }],
        });
      }
    }
    try {
      await service.remove(actorOf(req, res), id);
    } catch (err) {
      if (httpErrorOf(err)?.status !== 409) throw err;
      res.flash('error', httpErrorOf(err)!.messageKey);
      return res.redirect(`${base(res)}/${id}`);
    }
    res.flash('success', 'gesetzeswerte:flash.deleted');
    res.redirect(base(res));
  });

  return router;
}
