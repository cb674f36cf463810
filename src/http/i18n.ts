// Per-request i18n: i18next-http-middleware clones the instance per request, so one user's language never
// leaks into another's. The language comes from the URL prefix (/de, /en); for /api from Accept-Language, else
// the signed-in user's setting (apiLanguage in api.ts), else German.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { RequestHandler } from 'express';
import i18next, { type i18n, type Resource } from 'i18next';
import { LanguageDetector, handle } from 'i18next-http-middleware';
import { ROOT } from '../paths.js';

export const LANGUAGES = ['de', 'en'] as const;
export type Lang = (typeof LANGUAGES)[number];
export const DEFAULT_LANG: Lang = 'de';

export const LOCALES_DIR = path.join(ROOT, 'locales');

export function isLang(value: unknown): value is Lang {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * The language an Accept-Language header asks for, if it names de or en: the most preferred (highest q, then
 * first) of its entries whose primary subtag is one of them. `fr, en;q=0.5` → en; `fr`, `*` or none → null.
 */
export function requestedLanguage(header: unknown): Lang | null {
  if (typeof header !== 'string' || header.length > 1000) return null;
  const entries = header.split(',').map((part, index) => {
    const [tag = '', ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p)?.[1]).find(Boolean);
    return { lang: tag.trim().toLowerCase().split(/[-_]/)[0], q: q === undefined ? 1 : Number(q), index };
  });
  const best = entries
    .filter((e) => isLang(e.lang) && e.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)[0];
  return best ? (best.lang as Lang) : null;
}

/** All of locales/<lang>/<namespace>.json, read once at start. */
export function loadResources(dir = LOCALES_DIR): Resource {
  const resources: Resource = {};
  for (const lng of LANGUAGES) {
    resources[lng] = {};
    for (const file of readdirSync(path.join(dir, lng)).filter((f) => f.endsWith('.json'))) {
      resources[lng][file.replace(/\.json$/, '')] = JSON.parse(readFileSync(path.join(dir, lng, file), 'utf8'));
    }
  }
  return resources;
}

export async function createI18n(): Promise<i18n> {
  const resources = loadResources();
  const instance = i18next.createInstance();
  await instance.use(LanguageDetector).init({
    resources,
    ns: Object.keys(resources.de),
    defaultNS: 'common',
    fallbackLng: DEFAULT_LANG,
    supportedLngs: [...LANGUAGES],
    nonExplicitSupportedLngs: false,
    load: 'languageOnly',
    preload: [...LANGUAGES],
    interpolation: { escapeValue: false }, // EJS escapes on output
    returnNull: false,
    detection: {
      order: ['path', 'header'],
      lookupFromPathIndex: 0,
      caches: false,
      ignoreCase: true,
    },
  });
  return instance;
}

/** Distinct keys remembered per language; beyond that (keys from a cookie, say) translations are not kept. */
const MEMO_LIMIT = 5000;

/**
 * i18next per request, with `req.t(key)` remembered per language: a page translates a few hundred fixed keys
 * (navigation, labels, headers), and i18next resolves each anew every time (namespaces, fallbacks, nesting),
 * which was the largest single cost of rendering a page. Only calls without options are remembered; the
 * resources never change while the process runs.
 */
export function setUpI18n(instance: i18n): RequestHandler[] {
  const memo = new Map<string, Map<string, string>>();
  const remembered: RequestHandler = (req, res, next) => {
    const t = req.t;
    const perRequest = req.i18n;
    const fast = ((key: unknown, options?: unknown) => {
      if (options !== undefined || typeof key !== 'string') return (t as (k: unknown, o?: unknown) => unknown)(key, options);
      const lng = perRequest.language;
      let known = memo.get(lng);
      if (!known) memo.set(lng, (known = new Map()));
      let value = known.get(key);
      if (value === undefined) {
        value = String(t(key));
        if (known.size < MEMO_LIMIT) known.set(key, value);
      }
      return value;
    }) as typeof t;
    req.t = fast;
    res.locals.t = fast;
    next();
  };
  return [handle(instance), remembered];
}
