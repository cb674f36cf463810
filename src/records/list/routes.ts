// Mounts a declared list as a page and as a JSON API list, guarded by the route tree and scoped to tenant and
// permitted locations; both export what the filters show with `?format=csv|xlsx|pdf` (src/records/export).
// A feature calls these two and writes no list code.
import type { Request, Response, Router } from 'express';
import type { Knex } from 'knex';
import type { TenantScope } from '../../db/scope.js';
import { describeList, exportFile, listRows, writeExport, type ExportFormat } from '../export/index.js';
import { formatter } from '../../http/format.js';
import { guardsFor } from '../../http/guards.js';
import { fetchPage, listView, type ListDefinition, type ListSource, type ListState } from './engine.js';
import { pageOrRefusal, readListApi, readListRequest, registerList } from './request.js';
import { tenantScope } from '../../http/tenant.js';
import { requireApiPermission } from '../../http/api.js';
import { can, type Area } from '../../permissions/index.js';
import { PAGES } from '../../permissions/route-tree.js';
import { documentList } from '../../features/api-docs/records.js';
import type { Schema } from '../../features/api-docs/registry.js';

export interface ListPageOptions {
  /** Route-tree path below /{lang}, e.g. 'stammdaten/standorte'. */
  path: string;
  area: Area;
  /** Feature view that includes partials/ui/list-page. */
  view: string;
  /** i18n key of the page title. */
  title: string;
  /** File name of the exports (without extension). */
  filename: string;
  /** Address of the create form below the list path, for the "new" button (default `neu`). */
  createPath?: string;
  /** Address of an import page below the list path (a page of the route tree), for the "import" link. */
  importPath?: string;
}

/** What names an exported file: the list's title (i18n key) and the file name without extension. */
export interface ListExportOptions {
  title: string;
  filename: string;
}

/**
 * Answers with the list as a file of the format: everything the filters show, in the list's order, with its
 * sums. A failure after the first byte reaches the error handler, which cuts the connection.
 */
async function sendExport<R, S extends ListSource>(req: Request, res: Response, format: ExportFormat, def: ListDefinition<R, S>, scope: S, state: ListState, opts: ListExportOptions & { lang: string }) {
  const settings = res.locals.currentUser!.settings;
  const fmt = formatter(settings, opts.lang);
  const { contentType, extension, chunkSize } = exportFile(format);
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Disposition', `attachment; filename="${opts.filename}.${extension}"`);
  const ctx = { t: req.t, fmt, lang: opts.lang, settings, title: req.t(opts.title), description: describeList(def, state, req.t, fmt), now: new Date() };
  try {
    await writeExport(format, listRows(def, scope, state, chunkSize), ctx, res);
  } catch (err) {
    // Failed before the file began: an ordinary error answer, not an "attachment" holding an error page.
    if (!res.headersSent) {
      res.removeHeader('Content-Disposition');
      res.removeHeader('Content-Type');
    }
    throw err;
  }
}

/**
 * Sends the export a list request asks for (`?format=`), when every parameter was accepted: true when it did.
 * For the lists with pages and APIs of their own (users, tenants, the audit log); pages in the language of their
 * path, the API in that of Accept-Language.
 */
export async function sentExport<R, S extends ListSource>(
  req: Request, res: Response, list: { def: ListDefinition<R, S>; state: ListState; errors: unknown[]; format: ExportFormat | null }, source: S, opts: ListExportOptions,
): Promise<boolean> {
  if (!list.format || list.errors.length) return false;
  const lang = res.locals.lang ?? (req.language === 'en' ? 'en' : 'de');
  await sendExport(req, res, list.format, list.def, source, list.state, { ...opts, lang });
  return true;
}

/** A list page of its own (users, tenants, audit log): its export when asked for (null then), else its rows. */
export async function listPageOrExport<R, S extends ListSource>(req: Request, res: Response, declared: ListDefinition<R, S>, source: S, opts: ListExportOptions) {
  const list = await readListRequest(req, res, declared, source);
  if (await sentExport(req, res, list, source, opts)) return null;
  return { ...list, result: await pageOrRefusal(res, list, source) };
}

/** A list API of its own: its export when asked for (null then), else exactly the page asked for. */
export async function listApiOrExport<R, S extends ListSource>(req: Request, res: Response, declared: ListDefinition<R, S>, source: S, opts: ListExportOptions) {
  const list = await readListApi(req, res, declared, source, { exports: true });
  if (await sentExport(req, res, list, source, opts)) return null;
  return { ...list, result: await fetchPage(list.def, source, list.state, undefined, { clampPage: false }) };
}

export function mountListPage<R>(router: Router, knex: Knex, declared: ListDefinition<R>, opts: ListPageOptions): void {
  registerList(declared, { page: opts.path, exports: true });
  // The import link is shown to whom the import page's own guard admits: one rule, the route tree's.
  const importPage = opts.importPath ? PAGES.find((p) => p.path === `${opts.path}/${opts.importPath}`) : undefined;
  if (opts.importPath && !importPage) throw new Error(`no page ${opts.path}/${opts.importPath} in the route tree`);
  router.get(`/${opts.path}`, ...guardsFor(opts.path), async (req, res) => {
    const scope = tenantScope(knex, res, opts.area);
    const list = await readListRequest(req, res, declared, scope);
    const { def, state, errors, input, format } = list;
    const lang = res.locals.lang;
    // A refused parameter exports nothing: the page says what was wrong.
    if (format && !errors.length) return sendExport(req, res, format, def, scope, state, { title: opts.title, filename: opts.filename, lang });
    const fmt = formatter(res.locals.currentUser!.settings, lang);
    const result = await pageOrRefusal(res, list, scope);
    const base = `/${lang}/${opts.path}`;
    await res.page(opts.view, {
      title: req.t(opts.title),
      list: listView(def, state, result, { base, lang, t: req.t, fmt, caption: req.t(opts.title), errors, input }),
      canEdit: can(res.locals.principal!, 'edit', opts.area),
      createPath: opts.createPath ?? 'neu',
      importHref: importPage && can(res.locals.principal!, importPage.action ?? 'view', importPage.gate) ? `${base}/${opts.importPath}` : null,
    });
  });
}

/**
 * GET /api/<resource>: strict about its parameters (a client's mistake is a 400 naming the parameter). With
 * `format` it answers the file instead of JSON, in the language of Accept-Language (German by default).
 */
export function mountListApi<R>(
  router: Router, knex: Knex, declared: ListDefinition<R>, resource: string, area: Area,
  exportOpts?: Partial<ListExportOptions> & {
    present?: (row: R, mandant: string) => unknown;
    /** A row as the API answers it, for the API description (a record type's comes from its EntityConfig). */
    row?: Schema;
    /** The tag of the list on the API docs page (default: the resource). */
    tag?: string;
  },
): void {
  registerList(declared, { api: resource, exports: true });
  documentList(declared as unknown as ListDefinition<unknown, never>, resource, { tag: exportOpts?.tag ?? resource, row: exportOpts?.row ?? null, exports: true });
  router.get(`/${resource}`, requireApiPermission(area, 'view'), async (req, res) => {
    const scope = tenantScope(knex, res, area);
    const { def, state, format } = await readListApi(req, res, declared, scope, { exports: true });
    if (format) {
      const lang = req.language === 'en' ? 'en' : 'de';
      return sendExport(req, res, format, def, scope, state, { title: exportOpts?.title ?? resource, filename: exportOpts?.filename ?? resource, lang });
    }
    const result = await fetchPage(def, scope, state, undefined, { clampPage: false });
    res.json({
      data: exportOpts?.present ? result.rows.map((r) => exportOpts.present!(r, scope.mandant)) : result.rows, total: result.total, totalExact: result.totalExact, page: result.page, pageSize: state.pageSize,
      ...(def.totals?.length ? { totals: result.totals } : {}),
    });
  });
}
