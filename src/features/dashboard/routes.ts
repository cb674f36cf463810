// GET /{lang}/benutzer/dashboard: the figures the user may see (service.ts decides with the permission service),
// each linking to the list it summarises, then the shortcuts to the user's areas. Plain HTML, no island.
import { Router } from 'express';
import type { Knex } from 'knex';
import type { Clock } from '../../clock.js';
import { guardsFor } from '../../http/guards.js';
import { actorOf } from '../../http/tenant.js';
import { heuteInDeutschland } from '../zuordnung/service.js';
import { balkendiagramm, dashboard } from './service.js';

const PATH = 'benutzer/dashboard';

export function dashboardRoutes(knex: Knex, clock: Clock): Router {
  const router = Router({ mergeParams: true });
  router.get(`/${PATH}`, ...guardsFor(PATH, 'open'), async (req, res) => {
    const actor = actorOf(req, res);
    const lang = res.locals.lang as string;
    const d = await dashboard(knex, { principal: actor.principal, mandant: actor.mandant, benutzerId: actor.user.id }, heuteInDeutschland(new Date(clock.now())), lang);
    await res.page('dashboard/index', {
      title: req.t('nav.dashboard'),
      pageKey: 'dashboard',
      d,
      diagramm: (format: (v: string) => string) => (d.bestaende ? balkendiagramm(d.bestaende, format) : null),
    });
  });
  return router;
}
