// The description of a record type's API, generated from its EntityConfig, the same declaration routes.ts
// builds the routes from: the list's parameters from its ListDefinition, the bodies from its zod schema (and
// the spec's alias names, src/records/api-names.ts), the records from its store's fields. Nothing here is
// written per record type, so a field added to a type is in the description the moment it is in the API.
import { MAX_BULK } from '../../records/bulk.js';
import { z } from 'zod';
import type { EntityConfig } from '../../records/entity.js';
import type { ListDefinition } from '../../records/list/engine.js';
import { jsonSchema } from './document.js';
import { listQuery } from './lists.js';
import { FILE_KINDS } from '../../records/files.js';
import { documentApi, EXPORT_TYPES, nameSchema, type JsonSchema, type Schema } from './registry.js';

type Rec = Record<string, unknown>;

const NULL = { type: 'null' };
const nullable = (s: JsonSchema): JsonSchema => (Object.keys(s).length === 0 ? s : { anyOf: [s, NULL] });

/** The JSON Schema of a zod schema's object properties (input or output), without the document's $schema. */
export function propertiesOf(schema: z.ZodType, io: 'input' | 'output'): { properties: Record<string, JsonSchema>; required: string[] } {
  const json = jsonSchema(schema, io);
  return { properties: (json.properties as Record<string, JsonSchema>) ?? {}, required: (json.required as string[]) ?? [] };
}

/**
 * A stored record as the API answers it: the number, version, status and time of the store, every field of the
 * store (null when empty; typed from the input schema where it names the field), the spec's alias names, and
 * what the type adds to its answers (`api.fields`). No other field: an undocumented one fails the tests.
 */
export function recordSchema(cfg: EntityConfig<Rec>): JsonSchema {
  const typed = propertiesOf(cfg.schema, 'output').properties;
  const properties: Record<string, JsonSchema> = {
    nr: { type: 'string' },
    version: { type: 'integer', minimum: 1 },
    status: { type: 'string' },
    updatedAt: { type: 'string' },
  };
  for (const field of Object.keys(cfg.store.spec.fields)) properties[field] = nullable(stripped(typed[field] ?? {}));
  for (const [spec, field] of Object.entries(cfg.api?.aliases ?? {})) properties[spec] = properties[field] ?? {};
  if (cfg.api?.fields) Object.assign(properties, propertiesOf(z.object(cfg.api.fields), 'output').properties);
  return { type: 'object', properties, required: ['nr', 'version'], additionalProperties: false };
}

const COLUMN_TYPES: Record<string, JsonSchema> = {
  text: { type: ['string', 'null'] },
  number: { type: ['string', 'number', 'null'] },
  date: { type: ['string', 'null'] },
  datetime: { type: ['string', 'null'] },
  boolean: { type: ['boolean', 'null'] },
};

/**
 * A list row of a record type: the record, and what its list adds, each column of the list definition that the
 * record does not store (a partner's name beside its number), typed by the column's kind.
 */
export function rowSchema(cfg: EntityConfig<Rec>): JsonSchema {
  const record = recordSchema(cfg);
  const properties = { ...(record.properties as Record<string, JsonSchema>) };
  for (const c of cfg.list.columns) properties[c.key] ??= COLUMN_TYPES[c.kind ?? 'text'];
  return { ...record, properties };
}

/**
 * A stored value's type, without the input's limits: what was stored under an older rule (a longer text, a
 * value since refused) is still answered as it is.
 */
function stripped(s: JsonSchema): JsonSchema {
  const { maxLength, minLength, pattern, minimum, maximum, exclusiveMinimum, exclusiveMaximum, format, ...rest } = s;
  void [maxLength, minLength, pattern, minimum, maximum, exclusiveMinimum, exclusiveMaximum, format];
  if (Array.isArray(rest.anyOf)) rest.anyOf = (rest.anyOf as JsonSchema[]).map(stripped);
  return rest;
}

/** The body of a create or change: the type's input schema, each aliased field also under its spec name. */
function bodySchema(cfg: EntityConfig<Rec>, withNr: boolean): JsonSchema {
  const { properties, required } = propertiesOf(cfg.schema, 'input');
  const all: Record<string, JsonSchema> = { ...(withNr && !cfg.generateNr ? { nr: { type: 'string' } } : {}), ...properties };
  const aliased = new Set<string>();
  for (const [spec, field] of Object.entries(cfg.api?.aliases ?? {})) {
    if (properties[field]) all[spec] = { ...properties[field], description: `= ${field}` };
    aliased.add(field);
  }
  all.version = { type: 'integer', minimum: 1, description: 'the version the change is based on (or If-Match); none: unchecked' };
  // A field that may come under its spec name is required under neither name alone.
  const req = [...(withNr && !cfg.generateNr ? ['nr'] : []), ...required.filter((f) => !aliased.has(f))];
  return { type: 'object', properties: all, ...(req.length ? { required: req } : {}) };
}

const VERSIONS = z.object({
  data: z.array(z.object({
    version: z.number().int(),
    at: z.string(),
    benutzer: z.string().nullable(),
    quelle: z.string().nullable(),
    /** The API key that wrote this version, if one did (its creator is `benutzer`). */
    apiKey: z.string().nullable().optional(),
    autor: z.string(),
    changes: z.array(z.object({ field: z.string(), before: z.unknown(), after: z.unknown() }).strict()),
    data: z.record(z.string(), z.unknown()),
  }).strict()),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
}).strict();

export const envelope = (data: JsonSchema): JsonSchema => ({ type: 'object', properties: { success: { const: true }, data }, required: ['success', 'data'], additionalProperties: false });

/** A list API's page, `{data, total, totalExact, page, pageSize}` and the sums of lists that have them. */
export function pageSchema(row: JsonSchema | null, def: ListDefinition<unknown, never>): JsonSchema {
  return {
    type: 'object',
    properties: {
      data: { type: 'array', ...(row ? { items: row } : {}) },
      total: { type: 'integer' },
      totalExact: { type: 'boolean' },
      page: { type: 'integer' },
      pageSize: { type: 'integer' },
      ...(def.totals?.length
        ? { totals: { type: 'object', properties: Object.fromEntries(def.totals.map((t) => [t.key, { type: ['string', 'null'] }])), additionalProperties: false } }
        : {}),
    },
    required: ['data', 'total', 'page', 'pageSize'],
    additionalProperties: false,
  };
}

/** Declares a list API (mountListApi): its parameters from the definition, its rows as given. */
export function documentList(def: ListDefinition<unknown, never>, resource: string, opts: { tag: string; row?: Schema | null; exports?: boolean }): void {
  const row = opts.row === undefined || opts.row === null ? null : opts.row instanceof z.ZodType ? (z.toJSONSchema(opts.row, { io: 'output', unrepresentable: 'any' }) as JsonSchema) : opts.row;
  documentApi({
    method: 'get', path: `/${resource}`, tag: opts.tag, summary: 'generic.list',
    query: listQuery(def, { exports: opts.exports }),
    ok: { 200: opts.exports ? { file: EXPORT_TYPES, json: row && pageSchema(row, def) } : row && pageSchema(row, def) },
  });
}

/** `{success: true, data: <a record of that type>}`, for answers of other routes that carry one. */
export const recordEnvelope = (resource: string): JsonSchema => envelope({ $ref: `#/components/schemas/${resource}` });

/** Declares every generic route entityRoutes mounts for this record type. */
export function documentEntity(cfg: EntityConfig<Rec>): void {
  const tag = cfg.resource;
  const base = `/${cfg.resource}`;
  const one = `${base}/:nr`;
  // One record schema per type, named after its resource (the generated client's type of it).
  const record = nameSchema(cfg.resource, recordSchema(cfg));
  const ifMatch = [{ name: 'If-Match', description: 'the version the change is based on ("3"); none: unchecked' }];
  documentApi({ method: 'get', path: one, tag, summary: 'generic.read', ok: { 200: envelope(record) } });
  documentApi({ method: 'get', path: `${one}/versionen`, tag, summary: 'generic.versions', ok: { 200: VERSIONS } });
  documentApi({ method: 'post', path: base, tag, summary: 'generic.create', body: bodySchema(cfg, true), ok: { 201: envelope(record) } });
  documentApi({ method: 'put', path: one, tag, summary: 'generic.update', body: bodySchema(cfg, false), headers: ifMatch, ok: { 200: envelope(record) } });
  if (cfg.removable) documentApi({ method: 'delete', path: one, tag, summary: 'generic.delete', ok: { 200: { type: 'object', properties: { success: { const: true } }, required: ['success'], additionalProperties: false } } });
  if (cfg.bulk) {
    documentApi({
      method: 'post', path: `${base}/bulk`, tag, summary: 'generic.bulk', errors: [413],
      body: { type: 'object', properties: { data: { type: 'array', items: bodySchema(cfg, true), minItems: 1, maxItems: MAX_BULK } }, required: ['data'], additionalProperties: false },
      ok: { 201: { type: 'object', properties: { success: { const: true }, data: { type: 'array', items: record }, total: { type: 'integer' } }, required: ['success', 'data', 'total'], additionalProperties: false } },
    });
  }
  for (const action of cfg.actions ?? []) {
    const answer = action.answer;
    documentApi({
      method: 'post', path: `${one}/${action.name}`, tag, summary: `actions.${action.name}`, headers: ifMatch,
      body: action.input,
      ok: answer ? { [answer.status]: envelope(answer.many ? { type: 'array', items: record } : record) } : { 200: envelope(record) },
    });
  }
  for (const field of cfg.form.filter((f) => f.kind === 'file')) {
    const kinds = (field.file?.kinds ?? ['pdf']).map((k) => FILE_KINDS[k].type);
    documentApi({ method: 'get', path: `${one}/${field.name}`, tag, summary: 'generic.fileRead', ok: { 200: { file: kinds } } });
    documentApi({
      method: 'put', path: `${one}/${field.name}`, tag, summary: 'generic.fileWrite', headers: ifMatch,
      body: { multipart: { type: 'object', properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } }, required: ['file'] } },
      ok: { 200: envelope(record) },
    });
  }
}
