// /{lang}/reports/logmeldungen: the audit log for support staff. A plain GET form filters; the filters and the
// page live in the URL (bookmarkable, back button works); each entry has a detail page with its changes.
import { Router, type Request } from 'express';
import type { Knex } from 'knex';
import { guardsFor } from '../../http/guards.js';
import { notFound } from '../../http/errors.js';
import { exportLinks, listErrorsView, listHref } from '../../records/list/engine.js';
import { readListRequest, registerList } from '../../records/list/request.js';
import { listPageOrExport } from '../../records/list/routes.js';
import { logList } from './list.js';
import { LogId, NO_MANDANT } from './schema.js';
import { getLogmeldung, kindOptions, logSource, viewerOf } from './service.js';

const PATH = 'reports/logmeldungen';

/** Labels of kinds and entities: translated where the namespace knows them, raw otherwise (new ones need no release). */
function labellers(req: Request) {
  const label = (group: string) => (name: string) =>
    req.t(`logmeldungen:${group}.${name.replace(/\./g, '_')}`, { defaultValue: name });
  return { kindLabel: label('kinds'), entityLabel: label('entities') };
}

export function logmeldungenRoutes(knex: Knex): Router {
  const router = Router({ mergeParams: true });

  registerList(logList, { page: PATH, exports: true });
  router.get(`/${PATH}`, ...guardsFor(PATH), async (req, res) => {
    const viewer = viewerOf(res.locals.currentUser!);
    const base = `/${res.locals.lang}/${PATH}`;
    // A refused parameter (repeated ones arrive as arrays and are refused too) is a 400 with the reasons above
    // an empty list; the form keeps what was typed so it can be corrected.
    const [list, kinds] = await Promise.all([
      listPageOrExport(req, res, logList, logSource(knex, viewer), { title: 'nav.logmeldungen', filename: 'logmeldungen' }),
      kindOptions(knex, viewer),
    ]);
    if (!list) return;
    const { def, state, input, errors, result } = list;
    const { kindLabel, entityLabel } = labellers(req);
    // A kind from a bookmark that no longer occurs stays selectable, so the form shows what is applied.
    const kind = state.filters.kind;
    const offered = kind && !kinds.includes(kind) ? [...kinds, kind] : kinds;
    const listErrors = listErrorsView(def.filters, errors, req.t);
    const current = { ...state, page: result.page };
    const mandanten = def.filters.find((f) => f.key === 'mandant')?.options ?? [];
    await res.page('logmeldungen/index', {
      title: req.t('nav.logmeldungen'),
      values: { ...input.filters, ...state.filters },
      fieldErrors: Object.fromEntries(listErrors.map((e) => [e.field, e.message])),
      listErrors,
      kindOptions: offered.map((k) => ({ value: k, label: kindLabel(k) })).sort((a, b) => a.label.localeCompare(b.label, res.locals.lang)),
      mandantOptions: mandanten.filter((o) => o.value !== NO_MANDANT).map((o) => ({ mandant: o.value, name: o.label })),
      noMandant: NO_MANDANT,
      visibleMandanten: viewer.mandanten,
      result: { data: result.rows, total: result.total, page: result.page, pageSize: state.pageSize },
      kindLabel,
      entityLabel,
      pageHref: (p: number) => listHref(base, current, { page: p }, def.defaultSort),
      exports: exportLinks(base, current, req.t, def.defaultSort),
      detailHref: (id: number) => listHref(`${base}/${id}`, current, {}, def.defaultSort),
      resetHref: base,
    });
  });

  router.get(`/${PATH}/:id`, ...guardsFor(PATH), async (req, res) => {
    const id = LogId.safeParse(req.params.id);
    if (!id.success) throw notFound('logmeldungen:errors.notFound');
    const viewer = viewerOf(res.locals.currentUser!);
    const entry = await getLogmeldung(knex, viewer, id.data);
    // Another tenant's entry is "not found", exactly like one that does not exist.
    if (!entry) throw notFound('logmeldungen:errors.notFound');
    // The list the user came from (its filters and page travel along in the URL), without refused values:
    // this page is no list, so they do not make it a 400.
    const { def, state } = await readListRequest(req, res, logList, logSource(knex, viewer));
    await res.page('logmeldungen/show', {
      title: req.t('logmeldungen:detail.title', { id: entry.id }),
      entry,
      ...labellers(req),
      backHref: listHref(`/${res.locals.lang}/${PATH}`, state, {}, def.defaultSort),
    });
  });

  return router;
}
