// /{lang}/bewegungsdaten/nachweisverfolgung: the deliveries to trace (the list engine's page) and a delivery's
// trace. The detail answers, in this order: the choice of kind when the number exists as both; the warning
// "Keine Nachweise verfügbar" with "Abbrechen" and "Trotzdem fortfahren" (links: no JavaScript needed) when
// the chain holds no certificate and the user has not chosen to go on (`fortfahren=1`); else the chain as a
// nested list, printable as it is.
import { Router } from 'express';
import type { Knex } from 'knex';
import type { Clock } from '../../clock.js';
import { guardsFor } from '../../http/guards.js';
import { tenantScope } from '../../http/tenant.js';
import { can, type Area } from '../../permissions/index.js';
import { mountListPage } from '../../records/list/routes.js';
import { verfolgungHref, verfolgungListe } from './list.js';
import { detailAnfrage } from './schema.js';
import { oeffne } from './service.js';
import { heuteInDeutschland, MAX_KNOTEN, MAX_TIEFE, type Knoten } from './trace.js';

const PATH = 'bewegungsdaten/nachweisverfolgung';
const AREA = 'nachweisverfolgung';

/** The area whose pages show a node's record, and its address below /{lang}/bewegungsdaten. */
const SEITE: Record<Knoten['typ'], { area: Area; resource: string } | null> = {
  ablieferung: { area: 'ablieferungen', resource: 'ablieferungen' },
  einlieferung: { area: 'einlieferungen', resource: 'einlieferungen' },
  abholung: { area: 'abholungen', resource: 'abholungen' },
  nachweis: { area: 'nachweise', resource: 'nachweise' },
  nachweisbescheinigung: { area: 'nachweisbescheinigungen', resource: 'nachweisbescheinigungen' },
  lieferantenzertifikat: null,
};

/** Where a node's record lies, for the right to open its page. */
const standortVon = (k: Knoten): string | undefined =>
  k.typ === 'abholung' ? k.lieferstelleNr : k.typ === 'lieferantenzertifikat' ? undefined : k.standortNr;

export function nachweisverfolgungRoutes(knex: Knex, clock: Clock): Router {
  const router = Router({ mergeParams: true });

  mountListPage(router, knex, verfolgungListe, {
    path: PATH, area: AREA, view: 'nachweisverfolgung/index', title: 'nachweisverfolgung:title', filename: 'nachweisverfolgung',
  });

  router.get(`/${PATH}/:id`, ...guardsFor(`${PATH}/:id`), async (req, res) => {
    const lang = res.locals.lang;
    const anfrage = detailAnfrage(req.query as Record<string, unknown>);
    const scope = tenantScope(knex, res, AREA);
    const nr = req.params.id as string;
    const geoeffnet = await oeffne(scope, nr, anfrage.art, heuteInDeutschland(clock.now()));
    const index = `/${lang}/${PATH}`;
    if (geoeffnet.typ === 'auswahl') {
      return res.page('nachweisverfolgung/auswahl', {
        title: req.t('nachweisverfolgung:auswahl.heading'), nr, index,
        links: geoeffnet.arten.map((art) => ({ art, href: verfolgungHref(lang, art, nr) })),
      });
    }
    const v = geoeffnet.verfolgung;
    const hier = verfolgungHref(lang, v.art, v.nr);
    const art = req.t(`nachweisverfolgung:arten.${v.art}`);
    if (!v.nachweiseVorhanden && !anfrage.fortfahren) {
      return res.page('nachweisverfolgung/warnung', {
        title: req.t('nachweisverfolgung:warnung.heading'), v, art, index, fortfahren: `${hier}&fortfahren=1`,
      });
    }
    const principal = res.locals.principal!;
    await res.page('nachweisverfolgung/show', {
      title: req.t('nachweisverfolgung:detail.title', { art, nr: v.nr }),
      v, index, grenzen: { knoten: MAX_KNOTEN, tiefe: MAX_TIEFE },
      /** The node's own page, where the user may open it (its area at its location); else null (shown as text). */
      seite: (k: Knoten) => {
        const s = SEITE[k.typ];
        return s && k.nr && can(principal, 'view', s.area, standortVon(k)) ? `/${lang}/bewegungsdaten/${s.resource}/${encodeURIComponent(k.nr)}` : null;
      },
      verfolgen: (k: Knoten) => (k.typ === 'ablieferung' || k.typ === 'einlieferung' ? verfolgungHref(lang, k.typ, k.nr) : null),
    });
  });
  return router;
}
