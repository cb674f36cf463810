// Per-request i18n: one i18next instance per language, shared by the requests in that language (setUpI18n).
// The language comes from the URL prefix (/de, /en); for /api from Accept-Language, else the signed-in user's
// setting (apiLanguage in api.ts), else German.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Request, RequestHandler, Response } from 'express';
import i18next, { type i18n, type Resource, type TFunction } from 'i18next';
import { LanguageDetector } from 'i18next-http-middleware';
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
 * The key a translation is remembered under: the key alone, or with options whose values are all short strings,
 * numbers or booleans (a page number, a count, a caption): those decide the text entirely. Else null (objects,
 * arrays, returnObjects, long values): translated anew each time.
 */
function memoKey(key: string, options: unknown): string | null {
  if (options === undefined) return key;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return null;
  let memo = key;
  for (const [name, value] of Object.entries(options)) {
    const kind = typeof value;
    if (kind === 'string' ? (value as string).length > 200 : kind !== 'number' && kind !== 'boolean') return null;
    memo += `\u0000${name}\u0000${kind[0]}${String(value)}`;
  }
  return memo;
}

/** What a request in one language is given: that language's i18next and its translator. */
interface LanguageContext {
  lang: Lang;
  i18n: i18n;
  t: TFunction;
}

/** Each language's context, found from any of them (useLanguage switches between siblings). */
const siblings = new WeakMap<i18n, Record<Lang, LanguageContext>>();

/**
 * One i18next per language for the life of the process, and its translator with `t(key)` remembered: a page
 * translates a few hundred fixed keys (navigation, labels, headers), and i18next resolves each anew every time
 * (namespaces, fallbacks, nesting, interpolation, plurals). Calls with simple options are remembered with them
 * (memoKey): a list page's pagination alone made a dozen such calls. The resources never change while the process
 * runs. The instances are never switched to another language (changeLanguage throws): a request
 * that needs another language takes the other instance (useLanguage).
 */
function languageContexts(root: i18n): Record<Lang, LanguageContext> {
  const contexts = {} as Record<Lang, LanguageContext>;
  for (const lang of LANGUAGES) {
    const instance = root.cloneInstance({ lng: lang, initAsync: false });
    void instance.changeLanguage(lang);
    instance.changeLanguage = () => {
      throw new Error('A language’s i18next is shared by all requests: use useLanguage(req, res, lang)');
    };
    const translate = instance.getFixedT(lang);
    const known = new Map<string, string>();
    const t = ((key: unknown, options?: unknown) => {
      const memo = typeof key === 'string' ? memoKey(key, options) : null;
      const hit = memo === null ? undefined : known.get(memo);
      if (hit !== undefined) return hit;
      const value = (translate as (k: unknown, o?: unknown) => unknown)(key, options);
      // Only text is remembered (returnObjects gives objects).
      if (memo !== null && typeof value === 'string' && known.size < MEMO_LIMIT) known.set(memo, value);
      return value;
    }) as TFunction;
    contexts[lang] = { lang, i18n: instance, t };
    siblings.set(instance, contexts);
  }
  return contexts;
}

/** The request's language from here on: its translator (req.t, res.locals.t), req.i18n, req.language. */
export function useLanguage(req: Request, res: Response, lang: Lang): void {
  const context = siblings.get(req.i18n)?.[lang];
  if (!context) throw new Error('useLanguage before setUpI18n');
  apply(req, res, context);
}

function apply(req: Request, res: Response, { lang, i18n: instance, t }: LanguageContext): void {
  req.i18n = instance;
  req.t = t;
  req.language = lang;
  res.locals.t = t;
  res.setHeader('Content-Language', lang);
}

/**
 * Per-request i18n: the language of the URL's prefix (/de, /en), else of Accept-Language, else German, as
 * i18next-http-middleware's detector finds it. The request gets that language's instance and translator, shared
 * by all requests in the language (an instance never changes its language), so one user's language never leaks
 * into another's and nothing is cloned per request (the middleware's `handle`, which clones the instance for
 * every request, cost 5 % of a list page's CPU).
 */
export function setUpI18n(root: i18n): RequestHandler {
  const contexts = languageContexts(root);
  const detector = root.services.languageDetector as { detect(req: Request, res: Response): string | undefined };
  return (req, res, next) => {
    const detected = detector.detect(req, res)?.toLowerCase();
    apply(req, res, contexts[isLang(detected) ? detected : DEFAULT_LANG]);
    next();
  };
}
