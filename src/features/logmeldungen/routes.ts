// /{lang}/reports/logmeldungen: the audit log for support staff. A plain GET form filters; the filters and the
// page live in the URL (bookmarkable, back button works); each entry has a detail page with its changes.
import { Router, type Request } from 'express';
import type { Knex } from 'knex';
import { guardsFor } from '../../http/guards.js';
import { notFound } from '../../http/errors.js';
import { LogId, NO_MANDANT, parseFilterLenient, type LogFilter } from './schema.js';
import { filterOptions, getLogmeldung, listLogmeldungen, mandantAllowed, viewerOf } from './service.js';

const PATH = 'reports/logmeldungen';

/** The list's URL state as a query string (only what is set; page 1 is the default). */
function listQuery(filter: LogFilter, page = 1): string {
  const params = new URLSearchParams();
  for (const key of ['from', 'to', 'benutzer', 'mandant', 'kind'] as const) {
    if (filter[key]) params.set(key, filter[key]!);
  }
  if (page > 1) params.set('page', String(page));
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** Labels of kinds and entities: translated where the namespace knows them, raw otherwise (new ones need no release). */
function labellers(req: Request) {
  const label = (group: string) => (name: string) =>
    req.t(`logmeldungen:${group}.${name.replace(/\./g, '_')}`, { defaultValue: name });
  return { kindLabel: label('kinds'), entityLabel: label('entities') };
}

export function logmeldungenRoutes(knex: Knex): Router {
  const router = Router({ mergeParams: true });

  router.get(`/${PATH}`, ...guardsFor(PATH), async (req, res) => {
    const user = res.locals.currentUser!;
    const viewer = viewerOf(user);
    // Repeated parameters arrive as arrays and are refused like any other bad value, never a crash.
    const query = req.query as Record<string, unknown>;
    const { filter, page, errors } = parseFilterLenient(query);
    if (filter.mandant && !mandantAllowed(viewer, filter.mandant)) {
      errors.push({ field: 'mandant', key: 'logmeldungen:errors.mandant' });
      delete filter.mandant;
    }
    const [options, result] = await Promise.all([
      filterOptions(knex, viewer),
      listLogmeldungen(knex, viewer, filter, { page, clampPage: true }),
    ]);
    const { kindLabel, entityLabel } = labellers(req);
    // A kind from a bookmark that no longer occurs stays selectable, so the form shows what is applied.
    const kinds = filter.kind && !options.kinds.includes(filter.kind) ? [...options.kinds, filter.kind] : options.kinds;
    // Refused text stays in its field so it can be corrected; refused dates and choices cannot be shown back.
    const benutzerInput = errors.some((e) => e.field === 'benutzer') && typeof query.benutzer === 'string' ? query.benutzer.slice(0, 200) : filter.benutzer;
    if (errors.length) res.status(400);
    await res.page('logmeldungen/index', {
      title: req.t('nav.logmeldungen'),
      values: { ...filter, benutzer: benutzerInput ?? '' },
      fieldErrors: Object.fromEntries(errors.map((e) => [e.field, req.t(e.key)])),
      kindOptions: kinds.map((k) => ({ value: k, label: kindLabel(k) })).sort((a, b) => a.label.localeCompare(b.label, res.locals.lang)),
      mandantOptions: options.mandanten,
      noMandant: NO_MANDANT,
      visibleMandanten: viewer.mandanten,
      result,
      kindLabel,
      entityLabel,
      pageHref: (p: number) => `/${res.locals.lang}/${PATH}${listQuery(filter, p)}`,
      detailHref: (id: number) => `/${res.locals.lang}/${PATH}/${id}${listQuery(filter, result.page)}`,
      resetHref: `/${res.locals.lang}/${PATH}`,
    });
  });

  router.get(`/${PATH}/:id`, ...guardsFor(PATH), async (req, res) => {
    const id = LogId.safeParse(req.params.id);
    if (!id.success) throw notFound('logmeldungen:errors.notFound');
    const viewer = viewerOf(res.locals.currentUser!);
    const entry = await getLogmeldung(knex, viewer, id.data);
    // Another tenant's entry is "not found", exactly like one that does not exist.
    if (!entry) throw notFound('logmeldungen:errors.notFound');
    // The list the user came from (its filters and page travel along in the URL), without refused values.
    const { filter, page } = parseFilterLenient(req.query as Record<string, unknown>);
    if (!mandantAllowed(viewer, filter.mandant)) delete filter.mandant;
    await res.page('logmeldungen/show', {
      title: req.t('logmeldungen:detail.title', { id: entry.id }),
      entry,
      ...labellers(req),
      backHref: `/${res.locals.lang}/${PATH}${listQuery(filter, page)}`,
    });
  });

  return router;
}
