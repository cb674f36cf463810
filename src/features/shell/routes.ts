// The public pages, the display preferences (theme, sidebar) and the authenticated route tree. Pages whose
// feature is not built yet render a page that says what will come there (their detail pages, having no
// records, answer 404); the route, guard and sidebar entry are real. Feature routers registered before this one take over their paths.
import { Router } from 'express';
import { z } from 'zod';
import { notFound } from '../../http/errors.js';
import { guardsFor } from '../../http/guards.js';
import { safeRedirectTarget } from '../../http/language.js';
import { PAGES } from '../../permissions/route-tree.js';

const ONE_YEAR = 365 * 24 * 3600 * 1000;
const Preference = z.object({ value: z.enum(['light', 'dark', 'expanded', 'collapsed']), return: z.string().max(2048).optional() });

export function publicRoutes(): Router {
  const router = Router({ mergeParams: true });

  router.get('/', async (req, res) => {
    await res.page('shell/home', { title: req.t('home.title'), layout: 'public' });
  });

  // Display preferences live in plain cookies so the server renders the right theme and sidebar from the
  // first byte (no flash of the wrong theme). The forms work without JavaScript; shell.ts enhances them.
  for (const [name, allowed] of [['theme', ['light', 'dark']], ['sidebar', ['expanded', 'collapsed']]] as const) {
    router.post(`/preferences/${name}`, (req, res) => {
      const parsed = Preference.safeParse(req.body);
      if (parsed.success && (allowed as readonly string[]).includes(parsed.data.value)) {
        res.cookie(name, parsed.data.value, { sameSite: 'lax', path: '/', maxAge: ONE_YEAR, httpOnly: false });
      }
      res.redirect(safeRedirectTarget(parsed.data?.return, res.locals.lang) ?? `/${res.locals.lang}`);
    });
  }
  return router;
}

/** Every page of spec section 2's authenticated tree, guarded by the permission service. */
export function routeTree(): Router {
  const router = Router({ mergeParams: true });
  // Guards per route, not per router: an unknown path is a 404 for everyone, signed in or not.
  for (const p of PAGES) {
    // A detail page whose feature is not built has no records, so no id exists there: 404 as for any unknown
    // record (after the guard, so who may not open the area learns nothing more). Its list stays a placeholder.
    if (p.path.includes(':id')) {
      router.get(`/${p.path}`, ...guardsFor(p.path), (_req, _res, next) => next(notFound('records:errors.notFound')));
      continue;
    }
    // A sidebar entry's page opens to whoever sees the entry ('open': view or the spec's sidebar roles).
    router.get(`/${p.path}`, ...guardsFor(p.path, p.inSidebar && p.action !== 'edit' ? 'open' : undefined), async (req, res) => {
      const view = p.key === 'dashboard' ? 'shell/dashboard' : 'shell/upcoming';
      await res.page(view, { title: req.t(`nav.${p.key}`), pageKey: p.key });
    });
  }
  return router;
}
