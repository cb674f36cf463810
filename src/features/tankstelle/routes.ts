// Pages of the Tankstelle, complete without JavaScript:
//   GET  /{lang}/bewegungsdaten/tankstelle-bestand?standort=S&ansicht=tanks|zapfsaeulen|lieferkette&produkt=P
//   GET  /{lang}/bewegungsdaten/tankstelle-bestand/einstellungen     the tenant's thresholds (edit right 14)
//   POST /{lang}/bewegungsdaten/tankstelle-bestand/einstellungen     save → back to the Tankstelle with a message
// The location is chosen in a GET form, the views are links (tabs); every view shows the location's 10 latest
// deliveries below it. The same service functions answer the JSON API (api.ts), which the island uses to switch
// views and locations without a page load.
//
// The sidebar shows the entry to Cockpit holders (17) as the spec says, so the page opens to them (route tree,
// 'open'); without the area's view right (13 or 14) it tells them so and shows no stock data (docs/decisions.md,
// "Navigation").
import { Router, type Request, type Response } from 'express';
import type { Knex } from 'knex';
import type { Clock } from '../../clock.js';
import { formErrors } from '../../http/forms.js';
import { guardsFor } from '../../http/guards.js';
import { actorOf, tenantScope } from '../../http/tenant.js';
import { can } from '../../permissions/index.js';
import { AMPEL_DARSTELLUNG, TANK_AMPELN } from '../../domain/tankampel.js';
import { heuteInDeutschland } from '../zuordnung/service.js';
import { AREA, nrParam } from './api.js';
import { inselProps } from './insel.js';
import { MAX_TAGE, MIN_TAGE, parseEinstellungen } from './schema.js';
import * as service from './service.js';

const PATH = 'bewegungsdaten/tankstelle-bestand';
export const ANSICHTEN = ['tanks', 'zapfsaeulen', 'lieferkette'] as const;
export type Ansicht = (typeof ANSICHTEN)[number];

/** The badge variant of a traffic light's colour (the colour only supports icon and text). */
export const AMPEL_VARIANTE = { gruen: 'success', gelb: 'warning', rot: 'error', grau: 'neutral', blau: 'info' } as const;

/** The page's address with these parameters (those given as null are left out). */
export function seitenHref(lang: string, p: { standort?: string | null; ansicht?: Ansicht | null; produkt?: string | null }): string {
  const q = new URLSearchParams();
  if (p.standort) q.set('standort', p.standort);
  if (p.ansicht) q.set('ansicht', p.ansicht);
  if (p.produkt) q.set('produkt', p.produkt);
  const s = q.toString();
  return `/${lang}/${PATH}${s ? `?${s}` : ''}`;
}

export function tankstelleRoutes(knex: Knex, clock: Clock): Router {
  const router = Router({ mergeParams: true });
  const heute = () => heuteInDeutschland(new Date(clock.now()));
  const scope = (res: Response, action: 'view' | 'edit' = 'view') => tenantScope(knex, res, AREA, action);
  const darstellung = (req: Request, res: Response): service.Darstellung => ({ lang: res.locals.lang, t: req.t as service.Darstellung['t'] });
  const einstellungenHref = (res: Response) => `/${res.locals.lang}/${PATH}/einstellungen`;

  router.get(`/${PATH}`, ...guardsFor(PATH, 'open'), async (req, res) => {
    const principal = res.locals.principal!;
    const lang = res.locals.lang as string;
    const title = req.t('nav.tankstelle-bestand');
    if (!can(principal, 'view', AREA)) {
      await res.page('tankstelle/index', { title, nurCockpit: true });
      return;
    }
    const ansicht: Ansicht = (ANSICHTEN as readonly string[]).includes(String(req.query.ansicht)) ? (req.query.ansicht as Ansicht) : 'tanks';
    const d = darstellung(req, res);
    const s = scope(res);
    const standortNr = nrParam(req.query.standort, 'standortNr');
    const uebersicht = await service.tankUebersicht(s, standortNr, heute(), d);
    const S = uebersicht.standortNr;
    const produktNr = nrParam(req.query.produkt, 'produktNr') ?? uebersicht.tanks[0]?.produktNr ?? null;
    const zapfsaeulen = ansicht === 'zapfsaeulen' ? await service.zapfsaeulen(s, S, heute(), d) : null;
    const kette = ansicht === 'lieferkette' && (produktNr || uebersicht.tanks.length) ? await service.lieferkette(s, S, produktNr, heute(), d) : null;
    await res.page('tankstelle/index', {
      title,
      nurCockpit: false,
      ansicht,
      u: uebersicht,
      zapfsaeulen,
      kette,
      darfEinstellen: can(principal, 'edit', AREA),
      einstellungenHref: einstellungenHref(res),
      tabs: ANSICHTEN.map((a) => ({
        label: req.t(`tankstelle:ansichten.${a}`),
        href: `${seitenHref(lang, { standort: S, ansicht: a, produkt: a === 'lieferkette' ? kette?.produktNr ?? null : null })}#tankstelle-tabs`,
        current: a === ansicht,
      })),
      ketteHref: (produkt: string) => seitenHref(lang, { standort: S, ansicht: 'lieferkette', produkt }),
      aktion: `/${lang}/${PATH}`,
      ampeln: TANK_AMPELN.map((a) => ({ ampel: a, ...AMPEL_DARSTELLUNG[a], variante: AMPEL_VARIANTE[AMPEL_DARSTELLUNG[a].farbe] })),
      variante: (farbe: keyof typeof AMPEL_VARIANTE) => AMPEL_VARIANTE[farbe],
      // The island (islands/tankstelle) switches views and locations in place and refreshes every minute; its
      // code and React are preloaded on this page only.
      insel: inselProps({
        lang, standortNr: S, ansicht, produktNr: kette?.produktNr ?? null, t: req.t, varianten: AMPEL_VARIANTE,
        datumsformat: res.locals.currentUser?.settings.dateFormat ?? 'dd.MM.yyyy', zeitzone: res.locals.currentUser?.settings.timezone ?? 'Europe/Berlin',
      }),
      islands: ['tankstelle'],
    });
  });

  async function einstellungenSeite(req: Request, res: Response, werte: Record<string, unknown> | null, fehler: Record<string, string>) {
    const aktuell = await service.einstellungenLesen(scope(res, 'edit'));
    await res.page('tankstelle/einstellungen', {
      title: req.t('tankstelle:einstellungen.title'),
      index: `/${res.locals.lang}/${PATH}`,
      aktion: einstellungenHref(res),
      werte: werte ?? aktuell,
      fehler,
      min: MIN_TAGE,
      max: MAX_TAGE,
    });
  }

  router.get(`/${PATH}/einstellungen`, ...guardsFor(PATH, 'edit'), (req, res) => einstellungenSeite(req, res, null, {}));

  router.post(`/${PATH}/einstellungen`, ...guardsFor(PATH, 'edit'), async (req, res) => {
    try {
      await service.einstellungenAendern(scope(res, 'edit'), actorOf(req, res), parseEinstellungen(req.body));
      res.flash('success', 'tankstelle:flash.gespeichert');
      res.redirect(`/${res.locals.lang}/${PATH}`);
    } catch (err) {
      const fehler = formErrors(err, req);
      if (!fehler) throw err;
      res.status(400);
      await einstellungenSeite(req, res, { reichweiteTage: req.body?.reichweiteTage, verbrauchTage: req.body?.verbrauchTage }, fehler);
    }
  });

  return router;
}
