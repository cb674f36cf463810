// Mounts a declared list as a page (with CSV export via ?format=csv) and as a JSON API list, guarded by the
// route tree and scoped to tenant and permitted locations. A feature calls these two and writes no list code.
import type { Router } from 'express';
import type { Knex } from 'knex';
import { formatter } from './format.js';
import { guardsFor } from './guards.js';
import { listView, streamCsv, type ListDefinition } from './list.js';
import { pageOrRefusal, readListApi, readListRequest, registerList } from './list-request.js';
import { tenantScope } from './tenant.js';
import { requireApiPermission } from './api.js';
import { can, type Area } from '../permissions/index.js';

export interface ListPageOptions {
  /** Route-tree path below /{lang}, e.g. 'stammdaten/standorte'. */
  path: string;
  area: Area;
  /** Feature view that includes partials/ui/list-page. */
  view: string;
  /** i18n key of the page title. */
  title: string;
  /** File name of the CSV export (without extension). */
  filename: string;
  /** Address of the create form below the list path, for the "new" button (default `neu`). */
  createPath?: string;
}

export function mountListPage<R>(router: Router, knex: Knex, declared: ListDefinition<R>, opts: ListPageOptions): void {
  registerList(declared, { page: opts.path });
  router.get(`/${opts.path}`, ...guardsFor(opts.path), async (req, res) => {
    const scope = tenantScope(knex, res, opts.area);
    const list = await readListRequest(req, res, declared, scope);
    const { def, state, errors, input } = list;
    const fmt = formatter(res.locals.currentUser!.settings, res.locals.lang);
    // A refused parameter exports nothing: the page says what was wrong.
    if (req.query.format === 'csv' && !errors.length) {
      return streamCsv(def, scope, state, res, { fmt, t: req.t, lang: res.locals.lang, filename: opts.filename });
    }
    const result = await pageOrRefusal(res, list, scope);
    const base = `/${res.locals.lang}/${opts.path}`;
    await res.page(opts.view, {
      title: req.t(opts.title),
      list: listView(def, state, result, { base, lang: res.locals.lang, t: req.t, fmt, caption: req.t(opts.title), errors, input }),
      canEdit: can(res.locals.principal!, 'edit', opts.area),
      createPath: opts.createPath ?? 'neu',
    });
  });
}

/** GET /api/<resource>: strict about its parameters (a client's mistake is a 400 naming the parameter). */
export function mountListApi<R>(router: Router, knex: Knex, declared: ListDefinition<R>, resource: string, area: Area): void {
  registerList(declared, { api: resource });
  router.get(`/${resource}`, requireApiPermission(area, 'view'), async (req, res) => {
    const scope = tenantScope(knex, res, area);
    const { def, state, result } = await readListApi(req, res, declared, scope);
    res.json({
      data: result.rows, total: result.total, totalExact: result.totalExact, page: result.page, pageSize: state.pageSize,
      ...(def.totals?.length ? { totals: result.totals } : {}),
    });
  });
}
