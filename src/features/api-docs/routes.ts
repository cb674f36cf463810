// GET /api/docs/openapi.json: the OpenAPI 3.1 description of /api; GET /api/docs: the same as a page, in German
// or English (`?lang=`, else Accept-Language, else German), server-rendered, no script.
//
// Both are public and the same for everyone: mounted in app.ts before the session is loaded (no cookie is read
// or set, like the public THG display), so any cache may keep them for an hour and revalidate with the ETag. The
// description is built once per app and language, at the first request, when every route has declared itself.
import { createHash } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import type { i18n, TFunction } from 'i18next';
import { isLang, requestedLanguage, useLanguage, type Lang } from '../../http/i18n.js';
import { servedDocument, type OpenApiDocument } from './document.js';
import { documentApis } from './registry.js';

documentApis([
  { method: 'get', path: '/docs', tag: 'docs', summary: 'docs.page', public: true, query: { type: 'object', properties: { lang: { type: 'string', enum: ['de', 'en'] } } }, ok: { 200: { file: ['text/html'] }, 304: null } },
  { method: 'get', path: '/docs/openapi.json', tag: 'docs', summary: 'docs.json', public: true, ok: { 200: { type: 'object', description: 'this document' }, 304: null } },
]);

/** An hour: the description changes with a deployment, and the ETag makes revalidating after that cheap. */
export const CACHE_CONTROL = 'public, max-age=3600';

const langOf = (req: Request): Lang => (isLang(req.query.lang) ? req.query.lang : requestedLanguage(req.headers['accept-language']) ?? 'de');

/** 304 when the client holds this version. */
function fresh(req: Request, res: Response, etag: string): boolean {
  res.set({ 'Cache-Control': CACHE_CONTROL, ETag: etag });
  const held = req.headers['if-none-match'];
  if (typeof held === 'string' && held.split(',').some((e) => e.trim() === etag || e.trim() === `W/${etag}`)) {
    res.status(304).end();
    return true;
  }
  return false;
}

export function apiDocsRoutes(i18n: i18n): Router {
  const router = Router();
  const built = new Map<Lang, ReturnType<typeof servedDocument>>();
  const served = (lang: Lang) => {
    if (!built.has(lang)) built.set(lang, servedDocument(i18n.getFixedT(lang) as TFunction));
    return built.get(lang)!;
  };

  // The JSON speaks English: it is read by tools and by developers anywhere (the page speaks both).
  router.get('/docs/openapi.json', (req, res) => {
    const { json, etag } = served('en');
    if (fresh(req, res, etag)) return;
    res.type('application/json').send(json);
  });

  router.get('/docs', async (req, res) => {
    const lang = langOf(req);
    res.locals.lang = lang;
    if (req.language !== lang) useLanguage(req, res, lang);
    const { doc, etag } = served(lang);
    const theme = req.cookies?.theme === 'dark' ? 'dark' : 'light';
    res.vary('Accept-Language');
    if (fresh(req, res, `"${createHash('sha256').update(`${etag}${lang}${theme}`).digest('base64url').slice(0, 27)}"`)) return;
    await res.page('api-docs/index', { layout: 'api-docs/layout', title: req.t('api-docs:title'), groups: groupsOf(doc), theme, flashes: [] });
  });
  return router;
}

interface PageOperation {
  id: string;
  method: string;
  path: string;
  summary: string;
  parameters: { name: string; in: string; required: boolean; type: string }[];
  body: boolean;
  statuses: string[];
}

/** The page's view of the description: operations by tag, each with its parameters and answers. */
function groupsOf(doc: OpenApiDocument): { tag: string; description: string; operations: PageOperation[] }[] {
  const components = (doc.components as { parameters: Record<string, { name: string; in: string; required: boolean }> }).parameters;
  const groups = new Map<string, PageOperation[]>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const o = op as { operationId: string; tags: string[]; summary: string; parameters: Record<string, unknown>[]; requestBody?: unknown; responses: Record<string, unknown> };
      const parameters = o.parameters.map((p) => {
        const ref = typeof p.$ref === 'string' ? components[p.$ref.split('/').pop()!] : null;
        const schema = (p.schema ?? {}) as { type?: string; enum?: unknown[] };
        return ref
          ? { name: ref.name, in: ref.in, required: ref.required, type: 'string' }
          : { name: String(p.name), in: String(p.in), required: Boolean(p.required), type: schema.enum ? schema.enum.slice(0, 8).join(' | ') + (schema.enum.length > 8 ? ' | …' : '') : String(schema.type ?? 'string') };
      });
      const list = groups.get(o.tags[0]) ?? [];
      list.push({ id: o.operationId, method: method.toUpperCase(), path, summary: o.summary, parameters, body: Boolean(o.requestBody), statuses: Object.keys(o.responses) });
      groups.set(o.tags[0], list);
    }
  }
  const tags = (doc.tags as { name: string; description: string }[]) ?? [];
  return tags.filter((t) => groups.has(t.name)).map((t) => ({ tag: t.name, description: t.description, operations: groups.get(t.name)! }));
}
