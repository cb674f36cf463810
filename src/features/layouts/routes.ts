// The living style guide: /{lang}/layouts/* shows the project's own partials in all their states.
import { Router } from 'express';
import { requireLogin, requireMandant } from '../../http/guards.js';
import { LAYOUT_PAGES } from '../../permissions/route-tree.js';

export function layoutRoutes(): Router {
  const router = Router({ mergeParams: true });
  router.get('/layouts', (_req, res) => res.redirect(`/${res.locals.lang}/layouts/about`));
  for (const name of LAYOUT_PAGES) {
    router.get(`/layouts/${name}`, requireLogin(), requireMandant(), async (req, res) => {
      await res.page(`layouts/${name}`, {
        title: req.t(`layouts:pages.${name}`),
        layoutPages: LAYOUT_PAGES,
        layoutPage: name,
        islands: name === 'about',
      });
    });
  }
  return router;
}
