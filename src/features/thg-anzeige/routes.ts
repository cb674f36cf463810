// Pages of the public THG display and of its publication.
//
// Public (thgAnzeigeOeffentlich, mounted in app.ts before the session is loaded): /{lang}/thg-anzeige explains
// what the display is and how a tenant administrator publishes one; /{lang}/thg-anzeige/{token} shows a
// tenant's figures, ?vollbild=1 for a wall: no chrome, type readable from across a room, a reload every five
// minutes without JavaScript. These pages depend on the link, the language, the theme (cookie or ?thema=) and
// nothing else: no session, no user, no CSRF token, no cookie set. So they are the same for everyone and may
// be cached for a minute; they load no script at all.
//
// For the tenant administrators (thgAnzeigeRoutes): /{lang}/benutzer/thg-anzeige shows whether the display is
// published, its links and a preview, with plain forms to publish, to replace the link and to revoke it. Replacing
// and revoking break every screen showing the current link, so both ask first (src/http/confirm.ts).
import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Knex } from 'knex';
import { DEFAULT_SETTINGS } from '../../auth/current-user.js';
import type { Clock } from '../../clock.js';
import { askFirst, isConfirmed } from '../../http/confirm.js';
import { formatter } from '../../http/format.js';
import { httpErrorOf } from '../../http/errors.js';
import { guardsFor } from '../../http/guards.js';
import { isLang, useLanguage } from '../../http/i18n.js';
import { actorOf, tenantScope } from '../../http/tenant.js';
import { CACHE_CONTROL } from './api.js';
import { ThgAnzeigeService, type Erwartet } from './service.js';

const PATH = 'benutzer/thg-anzeige';
const THEMEN = { hell: 'light', dunkel: 'dark' } as const;

/** The language of the path, as the pages router sets it (this router runs before that one). */
const sprache: RequestHandler = (req, res, next) => {
  if (!isLang(req.params.lang)) return next('route');
  res.locals.lang = req.params.lang;
  if (req.language !== req.params.lang) useLanguage(req, res, req.params.lang);
  next();
};

/** A page for everyone: cacheable, the theme from ?thema= or the cookie, numbers and dates in the language's default form. */
function oeffentlich(req: Request, res: Response) {
  res.set('Cache-Control', CACHE_CONTROL);
  // A flash message waiting in its cookie is shown by the next page of the portal, not consumed (and its cookie
  // cleared) by a page that must not set cookies.
  if (req.cookies) delete req.cookies.flash;
  const gewaehlt = typeof req.query.thema === 'string' ? THEMEN[req.query.thema as keyof typeof THEMEN] : undefined;
  const lang = res.locals.lang as string;
  return {
    layout: 'thg-anzeige/layout',
    theme: gewaehlt ?? (req.cookies?.theme === 'dark' ? 'dark' : 'light'),
    fmt: formatter(DEFAULT_SETTINGS, lang),
    flashes: [],
  };
}

export function thgAnzeigeOeffentlich(knex: Knex, clock: Clock): Router {
  const router = Router({ mergeParams: true });
  const service = new ThgAnzeigeService(knex, clock);

  router.get('/thg-anzeige', sprache, async (req, res) => {
    const basis = oeffentlich(req, res);
    await res.page('thg-anzeige/info', { ...basis, title: req.t('thg-anzeige:title'), vollbild: false, links: links(res, null, basis.theme, false) });
  });

  router.get('/thg-anzeige/:token', sprache, async (req, res) => {
    const anzeige = await service.oeffentlich(String(req.params.token));
    const basis = oeffentlich(req, res);
    const vollbild = req.query.vollbild === '1';
    await res.page('thg-anzeige/anzeige', {
      ...basis,
      title: req.t('thg-anzeige:titleMandant', { mandant: anzeige.mandant }),
      anzeige,
      vollbild,
      links: links(res, String(req.params.token), basis.theme, vollbild),
    });
  });
  return router;
}

/** The page's own links: the other theme, the other language, in and out of the large-screen mode. */
function links(res: Response, token: string | null, theme: string, vollbild: boolean) {
  const lang = res.locals.lang as string;
  const href = (o: { lang?: string; thema?: string | null; vollbild?: boolean }) => {
    const q = new URLSearchParams();
    if (o.vollbild ?? vollbild) q.set('vollbild', '1');
    const thema = o.thema === undefined ? (res.req.query.thema as string | undefined) : o.thema;
    if (thema && thema in THEMEN) q.set('thema', thema);
    const query = q.toString();
    return `/${o.lang ?? lang}/thg-anzeige${token ? `/${token}` : ''}${query ? `?${query}` : ''}`;
  };
  return {
    anderesThema: href({ thema: theme === 'dark' ? 'hell' : 'dunkel' }),
    sprachen: Object.fromEntries(['de', 'en'].map((l) => [l, href({ lang: l })])),
    vollbild: href({ vollbild: true }),
    normal: href({ vollbild: false }),
  };
}

export function thgAnzeigeRoutes(knex: Knex, clock: Clock): Router {
  const router = Router({ mergeParams: true });
  const service = new ThgAnzeigeService(knex, clock);
  const guards = guardsFor(PATH);
  const base = (res: Response) => `/${res.locals.lang}/${PATH}`;

  router.get(`/${PATH}`, ...guards, async (req, res) => {
    const stand = await service.stand(actorOf(req, res));
    const origin = `${req.protocol}://${req.get('host')}`;
    const lang = res.locals.lang as string;
    await res.page('thg-anzeige/verwaltung', {
      title: req.t('thg-anzeige:verwaltung.title'),
      stand,
      link: stand.token ? `${origin}/${lang}/thg-anzeige/${stand.token}` : null,
      vollbildLink: stand.token ? `${origin}/${lang}/thg-anzeige/${stand.token}?vollbild=1` : null,
      vorschau: await service.zahlen(tenantScope(knex, res), stand.name),
    });
  });

  /** A change of the publication: flash and back to the page; a stale page (409) says so and changes nothing. */
  const aendern = (run: (req: Request, res: Response) => Promise<string>): RequestHandler => async (req, res) => {
    try {
      res.flash('success', await run(req, res));
    } catch (err) {
      const known = httpErrorOf(err);
      if (known?.status !== 409) throw err;
      res.flash('error', known.messageKey);
    }
    res.redirect(base(res));
  };

  /**
   * Replacing or revoking a published link asks first. Not published (a first publication, or a stale form the
   * service refuses with 409): nothing to lose, no question.
   */
  const fragen = (was: 'neuerLink' | 'widerrufen'): RequestHandler => async (req, res, next) => {
    if (isConfirmed(req) || (was === 'neuerLink' && req.body?.erwartet === 'unveroeffentlicht')) return next();
    const stand = await service.stand(actorOf(req, res));
    if (!stand.token) return next();
    await askFirst(req, res, {
      heading: req.t(`thg-anzeige:confirm.${was}.heading`),
      text: req.t(`thg-anzeige:confirm.${was}.text`, { mandant: stand.name }),
      confirm: req.t(`thg-anzeige:verwaltung.${was}`),
      cancelHref: base(res),
      trail: [{ label: req.t('nav.thg-anzeige-verwaltung'), href: base(res) }],
    });
  };

  router.post(`/${PATH}/link`, ...guards, fragen('neuerLink'), aendern(async (req, res) => {
    const erwartet: Erwartet | undefined = req.body?.erwartet === 'veroeffentlicht' || req.body?.erwartet === 'unveroeffentlicht' ? req.body.erwartet : undefined;
    const vorher = await service.stand(actorOf(req, res));
    await service.neuerLink(actorOf(req, res), erwartet);
    return vorher.token ? 'thg-anzeige:flash.neuerLink' : 'thg-anzeige:flash.veroeffentlicht';
  }));

  router.post(`/${PATH}/widerruf`, ...guards, fragen('widerrufen'), aendern(async (req, res) => {
    await service.widerrufen(actorOf(req, res));
    return 'thg-anzeige:flash.widerrufen';
  }));
  return router;
}
