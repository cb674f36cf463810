// The query parameters of a list API, from the same ListDefinition whose parser (parseListState) reads them:
// its filters (with their aliases and fixed choices), sort over the sortable columns, page, pageSize, q when it
// searches, format when it exports. Data-backed choices (a tenant's locations) are strings here: they depend
// on the tenant, not on the API.
import { hasSearch } from '../../records/list/search.js';
import { FILTER_ALIASES, FILTER_MAX_LENGTH, type ListDefinition, type ListFilter } from '../../records/list/engine.js';
import { MAX_PAGE_SIZE } from '../../records/list/page-size.js';
import type { JsonSchema } from './registry.js';

function filterSchema(f: ListFilter<never>): JsonSchema {
  switch (f.kind) {
    case 'select':
      return f.options?.length ? { type: 'string', enum: f.options.map((o) => o.value) } : { type: 'string', maxLength: f.maxLength ?? FILTER_MAX_LENGTH };
    case 'dateFrom':
    case 'dateTo':
      return { type: 'string', format: 'date' };
    case 'boolean':
      return { type: 'string', enum: ['true', 'false'] };
    default:
      return { type: 'string', maxLength: f.maxLength ?? FILTER_MAX_LENGTH, ...(f.pattern ? { pattern: f.pattern.source } : {}) };
  }
}

/** An object schema whose properties are the list's query parameters (document.ts makes each a parameter). */
export function listQuery(def: ListDefinition<unknown, never>, opts: { exports?: boolean } = {}): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const keys = new Set(def.filters.map((f) => f.key));
  for (const f of def.filters as ListFilter<never>[]) properties[f.key] = filterSchema(f);
  for (const [alias, target] of Object.entries(FILTER_ALIASES)) {
    if (keys.has(target) && !keys.has(alias)) properties[alias] = { ...properties[target], description: `= ${target}` };
  }
  const sortable = def.columns.filter((c) => c.sql).map((c) => c.key);
  if (hasSearch(def.search)) properties.q = { type: 'string', maxLength: FILTER_MAX_LENGTH };
  properties.sort = { type: 'string', enum: sortable.flatMap((k) => [`${k}:asc`, `${k}:desc`]) };
  properties.page = { type: 'integer', minimum: 1, default: 1 };
  // Above the cap is no mistake (the contract caps it): the answer's pageSize says what was served.
  properties.pageSize = { type: 'integer', minimum: 1, description: `at most ${MAX_PAGE_SIZE} rows are served` };
  if (opts.exports) properties.format = { type: 'string', enum: ['csv', 'xlsx', 'pdf'] };
  return { type: 'object', properties };
}
