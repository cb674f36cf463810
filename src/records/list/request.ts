// A list request, read the same way by every list page and list API, tenant lists and platform lists alike:
// the definition's data-backed choices filled in for the source, the parameters parsed strictly with the
// user's items per page as the default size, and rows fetched only when every parameter was accepted. A page
// with a refused parameter answers 400 and shows why above an empty list; an API answers 400 naming each one.
// Never the unfiltered list in place of a filtered one.
import type { Request, Response } from 'express';
import { HttpError, type FieldError } from '../../http/errors.js';
import {
  emptyPage, fetchPage, parseListState, withChoices,
  type ListDefinition, type ListFilter, type ListSource, type ListState, type PageResult,
} from './engine.js';
import { defaultPageSize } from './page-size.js';
import { parseExportFormat } from '../export/formats.js';
import { TenantScope } from '../../db/scope.js';
import { isIndexed, resolveReferences } from './search.js';

/** The list a request asks for: the definition with its choices, the state, what was typed, what was refused. */
export async function readListRequest<R, S extends ListSource>(req: Request, res: Response, declared: ListDefinition<R, S>, source: S) {
  const def = await withChoices(declared, source);
  const user = res.locals.currentUser ?? req.user;
  const parsed = parseListState(def, req.query as Record<string, unknown>, defaultPageSize(user?.settings));
  // `format` asks for an export of the list instead of its page (src/records/export): its value is checked there.
  const { format, error } = req.query.format === undefined ? { format: null, error: null } : parseExportFormat(req.query.format);
  if (error && !parsed.errors.some((e) => e.field === 'format')) parsed.errors.push(error);
  // The indexed search's master numbers, as constants for the list's statement, and which words find so many
  // records that the list is better read in its order (src/records/list/search.ts).
  if (parsed.state.q && !parsed.errors.length && isIndexed(def.search) && source instanceof TenantScope) {
    parsed.state.references = await resolveReferences(def.search, source, parsed.state.q);
  }
  return { def, ...parsed, format };
}

/** A list page's rows: none and status 400 when a parameter was refused (the page says why), else the page asked for. */
export async function pageOrRefusal<R, S extends ListSource>(
  res: Response,
  list: { def: ListDefinition<R, S>; state: ListState; errors: unknown[] },
  source: S,
): Promise<PageResult<R>> {
  if (!list.errors.length) return fetchPage(list.def, source, list.state);
  res.status(400);
  return emptyPage(list.state);
}

/** `format` on a list that offers no exports: refused like an unknown parameter, never ignored. */
const noExports = (list: { format: unknown; errors: FieldError[] }) => {
  if (list.format) list.errors.push({ field: 'format', message: 'list.errors.unknown', params: { name: 'format' } });
};

/** Reads the page of a list without exports (users, tenants, audit log) and its rows (see pageOrRefusal). */
export async function readListPage<R, S extends ListSource>(req: Request, res: Response, declared: ListDefinition<R, S>, source: S) {
  const list = await readListRequest(req, res, declared, source);
  noExports(list);
  return { ...list, result: await pageOrRefusal(res, list, source) };
}

/**
 * Reads a list API request: 400 naming every refused parameter, else exactly the page asked for (none beyond
 * the end). A list that offers exports (`exports: true`) returns no page for `format`: the caller streams the
 * file; on any other list `format` is refused like an unknown parameter, never ignored.
 */
export async function readListApi<R, S extends ListSource>(req: Request, res: Response, declared: ListDefinition<R, S>, source: S, opts: { exports?: boolean } = {}) {
  const list = await readListRequest(req, res, declared, source);
  if (!opts.exports) noExports(list);
  if (list.errors.length) throw new HttpError(400, 'BAD_REQUEST', 'errors.badRequest', list.errors);
  return list;
}

/** The page of a list API request (readListApi). */
export async function readListApiPage<R, S extends ListSource>(req: Request, res: Response, declared: ListDefinition<R, S>, source: S) {
  const list = await readListApi(req, res, declared, source);
  return { ...list, result: await fetchPage(list.def, source, list.state, undefined, { clampPage: false }) };
}

/** A list as mounted: its declaration, the page below /{lang} and the API resource below /api that serve it. */
export interface MountedList {
  id: string;
  /** Whether it offers the exports (?format=csv|xlsx|pdf). */
  exports?: boolean;
  filters: ListFilter<never>[];
  page?: string;
  api?: string;
}

const mounted = new Map<string, MountedList>();

/**
 * Records where a list is served, so the tests that hold for every list (strict parameters, aliases) find
 * each one without a list of their own. Mounting again (a second app in the same process) replaces the entry.
 */
export function registerList<R, S extends ListSource>(def: ListDefinition<R, S>, where: { page?: string; api?: string; exports?: boolean }): void {
  const known = mounted.get(def.id);
  mounted.set(def.id, { ...known, id: def.id, filters: def.filters as unknown as ListFilter<never>[], ...where });
}

/** Every list mounted so far, with its page and API. */
export function mountedLists(): MountedList[] {
  return [...mounted.values()];
}
