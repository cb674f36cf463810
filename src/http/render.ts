// res.page(view, locals): renders a view, then the layout around it, with everything the shell needs.
// Flash messages travel in a short-lived cookie (works for anonymous visitors too, costs no database write).
import path from 'node:path';
import type { Express, Request, RequestHandler, Response } from 'express';
import type { i18n } from 'i18next';
import { DEFAULT_SETTINGS, fullName } from '../auth/current-user.js';
import { formatter } from './format.js';
import { LANGUAGES } from './i18n.js';
import { defaultPageSize } from '../records/list/page-size.js';
import type { Assets } from './assets.js';
import { pathWithoutLang } from './language.js';
import { sidebarFor } from './navigation.js';
import { ROOT } from '../paths.js';
import { Templates } from './templates.js';

export const VIEWS_DIR = path.join(ROOT, 'views');
const FLASH_COOKIE = 'flash';
const FLASH_TYPES = new Set(['success', 'info', 'warning', 'error']);

export interface Flash {
  type: 'success' | 'info' | 'warning' | 'error';
  key: string;
}

function readFlash(req: Request): Flash[] {
  const raw = req.cookies?.[FLASH_COOKIE];
  if (!raw) return [];
  try {
    const list = JSON.parse(raw);
    return Array.isArray(list)
      ? list.filter((f) => FLASH_TYPES.has(f?.type) && typeof f?.key === 'string' && /^[\w:.-]{1,80}$/.test(f.key)).slice(0, 5)
      : [];
  } catch {
    return [];
  }
}

export interface RenderOptions {
  assets: Assets;
  cacheViews: boolean;
  i18n: i18n;
  /** Session timing the browser needs for its countdown. */
  idleMs: number;
  countdownAfterMs: number;
}

const PENDING_FLASHES = Symbol('pending flashes');
type FlashingResponse = Response & { [PENDING_FLASHES]?: Flash[] };

/**
 * Gives every response of the app res.page and res.flash. They are methods of the app's response prototype, not
 * closures made per request by a middleware: a request that renders nothing (an API call, a health check, a
 * static file) pays nothing for them, and the error handler can render even before the first middleware ran.
 */
export function setUpRendering(app: Express, { assets, cacheViews, i18n: i18nInstance, idleMs, countdownAfterMs }: RenderOptions): void {
  const templates = new Templates(VIEWS_DIR, { cache: cacheViews });
  app.response.flash = function flash(this: FlashingResponse, type, key) {
    const pending = (this[PENDING_FLASHES] ??= []);
    pending.push({ type, key });
    this.cookie(FLASH_COOKIE, JSON.stringify(pending), { httpOnly: true, sameSite: 'lax', path: '/', maxAge: 60_000 });
  };
  app.response.page = async function page(this: Response, view, locals = {}) {
    const req = this.req;
    const res = this;
    const flashes = readFlash(req);
    if (flashes.length) res.clearCookie(FLASH_COOKIE, { path: '/' });
    const lang = res.locals.lang ?? 'de';
    // Errors raised before the i18n middleware ran still render in the request's language.
    const t = req.t ?? i18nInstance.getFixedT(lang);
    const rest = pathWithoutLang(req.path);
    const user = res.locals.currentUser ?? null;
    const principal = res.locals.principal ?? null;
    const data = {
      ...res.locals,
      t,
      lang,
      languages: LANGUAGES,
      pathRest: rest,
      currentPath: req.originalUrl,
      flashes: flashes.filter((f) => t(f.key) !== f.key),
      // Shell locals are named so that a page's own `user` (an edited record) cannot shadow them.
      currentUser: user,
      userFullName: fullName(user),
      sidebar: user && principal && res.locals.mandant ? sidebarFor(principal, lang, rest) : [],
      theme: req.cookies?.theme === 'dark' ? 'dark' : 'light',
      sidebarCollapsed: req.cookies?.sidebar === 'collapsed',
      assets,
      /** The icons' sprite, for `<use href="<%= sprite %>#i-name">`. */
      sprite: assets.sprite,
      islands: false,
      session: { idleMs, countdownAfterMs },
      fmt: formatter(user?.settings ?? DEFAULT_SETTINGS, lang),
      itemsPerPage: defaultPageSize(user?.settings),
      ...locals,
    };
    const body = templates.render(view, data);
    // `layout`: the shell with sidebar (signed in), `public` (header only: login, home), or a page's own frame
    // (a view path: the public THG display's, which carries nothing of the visitor so that it can be cached).
    const wanted = (locals as { layout?: string }).layout;
    const layout = wanted && wanted !== 'public' ? wanted : wanted === 'public' || !user ? 'public' : 'layout';
    const html = templates.render(layout, { ...data, body });
    // The page depends on the session, theme and sidebar cookies (it is no-store anyway: src/http/security.ts).
    res.vary('Cookie');
    res.type('html').send(html);
  };
}

/** Wraps an async handler so a rejected promise reaches the error handler (Express 5 does this too). */
export const page = (view: string, locals?: (req: Request, res: Response) => Record<string, unknown>): RequestHandler =>
  async (req, res) => {
    await res.page(view, locals?.(req, res));
  };
