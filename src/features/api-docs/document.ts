// The OpenAPI 3.1 description of /api, built from the routes' declarations (registry.ts): zod schemas become
// JSON Schema 2020-12 (the dialect of OpenAPI 3.1) through zod's own z.toJSONSchema, so no converter of ours
// sits between a route's validation and its description. What every operation shares is added here once: the
// error shape, X-Mandant on tenant operations, Idempotency-Key on POST, Accept-Language, the security schemes.
import { createHash } from 'node:crypto';
import type { TFunction } from 'i18next';
import { z } from 'zod';
import { isTenantExempt } from '../../http/tenant-exempt.js';
import { declaredOperations, isFileAnswer, isZod, namedSchemas, type Answer, type ApiOperation, type JsonSchema, type Schema } from './registry.js';

export type OpenApiDocument = JsonSchema & { paths: Record<string, Record<string, JsonSchema>> };

/** `/bilanzen/:id` → `/api/bilanzen/{id}`. */
export const openApiPath = (path: string) => `/api${path}`.replace(/:([A-Za-z_$][\w$]*)/g, '{$1}');

/** An operation's id, stable and unique: method and path, e.g. `get_bilanzen_id`. */
export const operationId = (op: Pick<ApiOperation, 'method' | 'path'>) =>
  `${op.method}${op.path.replace(/[:{}]/g, '').replace(/[^A-Za-z0-9]+/g, '_')}`.replace(/_$/, '');

export function jsonSchema(s: Schema, io: 'input' | 'output'): JsonSchema {
  if (!isZod(s)) return s;
  const { $schema, ...rest } = z.toJSONSchema(s, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  void $schema;
  if (io === 'input' && s instanceof z.ZodObject && Array.isArray(rest.required)) {
    // A field whose schema turns a missing value into one (a preprocess to null, a default) may be left out,
    // though zod's conversion names it required: asked of the schema itself, as the server will ask it.
    const shape = s.shape as Record<string, z.ZodType>;
    const required = (rest.required as string[]).filter((f) => !shape[f]?.safeParse(undefined).success);
    if (required.length) rest.required = required;
    else delete rest.required;
  }
  return rest;
}

/** Whether the operation needs a tenant (X-Mandant, or an API key's own): everything but the contract's exceptions. */
export const isTenantOperation = (op: ApiOperation) => !op.public && !isTenantExempt(`/api${op.path}`);

/** The error statuses an operation can answer: what every call can, what its kind of call can, what it declares. */
export function errorStatuses(op: ApiOperation): number[] {
  // 404 everywhere: an unknown record, and any address longer than the app accepts (src/app.ts).
  const s = new Set<number>([400, 404, 500, 503]);
  // 429: an API key over its own rate limit (src/features/api-keys), on anything a key may call.
  if (!op.public) [401, 403, 429].forEach((x) => s.add(x));
  if (op.method !== 'get') [409, 413].forEach((x) => s.add(x));
  // 422: an Idempotency-Key used again with another body.
  if (op.method === 'post') s.add(422);
  for (const x of op.errors ?? []) s.add(x);
  return [...s].sort((a, b) => a - b);
}

const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'The contract\'s error: a German message, or English when the request asked for en.',
  properties: {
    success: { const: false },
    message: { type: 'string' },
    code: { type: 'string', description: 'machine code, e.g. NOT_FOUND, BAD_REQUEST, MANDANT_REQUIRED' },
    errors: {
      type: 'array',
      // `index`: the record of a bulk write the error is about (its field then reads "[3].menge").
      items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' }, index: { type: 'integer', minimum: 0 } }, required: ['field', 'message'], additionalProperties: false },
    },
  },
  required: ['success', 'message', 'code', 'errors'],
  additionalProperties: false,
};

function content(answer: Answer, io: 'input' | 'output'): JsonSchema | undefined {
  if (answer === null) return { 'application/json': {} };
  if (isFileAnswer(answer)) {
    const files = Object.fromEntries(answer.file.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }]));
    return answer.json === undefined ? files : { 'application/json': answer.json === null ? {} : { schema: jsonSchema(answer.json, io) }, ...files };
  }
  return { 'application/json': { schema: jsonSchema(answer, io) } };
}

/** The object schema's properties as parameters of a place (query, path). */
function parametersOf(schema: Schema | undefined, place: 'query' | 'path', names?: string[]): JsonSchema[] {
  const json = schema ? jsonSchema(schema, 'input') : { properties: {} };
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  const all = names ?? Object.keys(properties);
  return all.map((name) => {
    const { description, ...s } = properties[name] ?? { type: 'string' };
    return { name, in: place, required: place === 'path' || required.has(name), schema: s, ...(description ? { description } : {}) };
  });
}

function operationObject(op: ApiOperation, t: TFunction): JsonSchema {
  const tenant = isTenantOperation(op);
  const pathParams = [...op.path.matchAll(/:([A-Za-z_$][\w$]*)/g)].map((m) => m[1]);
  const parameters: JsonSchema[] = [
    ...parametersOf(op.params, 'path', pathParams),
    ...parametersOf(op.query, 'query'),
    ...(tenant ? [{ $ref: '#/components/parameters/XMandant' }] : []),
    ...(op.method === 'post' ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
    { $ref: '#/components/parameters/AcceptLanguage' },
    ...(op.headers ?? []).map((h) => ({ name: h.name, in: 'header', required: false, schema: { type: 'string' }, description: h.description })),
  ];
  const responses: Record<string, JsonSchema> = {};
  for (const [status, answer] of Object.entries(op.ok)) {
    const description = t(`api-docs:status.${status}`, { defaultValue: 'OK' });
    responses[status] = status === '304' ? { description } : { description, content: content(answer, 'output') };
  }
  for (const status of errorStatuses(op)) responses[String(status)] = { $ref: `#/components/responses/E${status}` };
  const summaryKey = `api-docs:ops.${op.summary ?? operationId(op)}`;
  const summary = t(summaryKey, { resource: op.tag, defaultValue: '' });
  let requestBody: JsonSchema | undefined;
  if (op.body) {
    requestBody = 'multipart' in op.body && !isZod(op.body)
      ? { required: true, content: { 'multipart/form-data': { schema: jsonSchema(op.body.multipart as Schema, 'input') } } }
      : { required: op.method === 'post', content: { 'application/json': { schema: jsonSchema(op.body as Schema, 'input') } } };
  }
  return {
    operationId: operationId(op),
    tags: [op.tag],
    summary: summary || `${op.method.toUpperCase()} ${openApiPath(op.path)}`,
    parameters,
    ...(requestBody ? { requestBody } : {}),
    responses,
    // Public: no sign-in. Login and its second factor: none yet (the second factor's calls carry their token in
    // the body). Everything else: a login token, an API key, or the pages' session cookie (with the CSRF header
    // on changes).
    security: op.public || (!tenant && /^\/v1\/(account\/(login|mfa\/.*)|sso\/login)$/.test(op.path))
      ? []
      : [{ bearerToken: [] }, ...(tenant ? [{ apiKey: [] }] : []), op.method === 'get' ? { sessionCookie: [] } : { sessionCookie: [], csrfToken: [] }],
  };
}

/** The whole description, with texts in the language of `t` (the JSON: English; the page: its own). */
export function buildDocument(t: TFunction, ops: ApiOperation[] = declaredOperations()): OpenApiDocument {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const op of ops) (paths[openApiPath(op.path)] ??= {})[op.method] = operationObject(op, t);
  const tags = [...new Set(ops.map((o) => o.tag))].sort().map((name) => ({ name, description: t(`api-docs:tags.${name}`, { defaultValue: name }) }));
  const statuses = [...new Set(ops.flatMap(errorStatuses))].sort();
  return {
    openapi: '3.1.0',
    info: { title: t('api-docs:title'), version: '1', description: t('api-docs:description') },
    servers: [{ url: '/' }],
    tags,
    paths,
    components: {
      schemas: { Error: ERROR_SCHEMA, ...namedSchemas() },
      responses: Object.fromEntries(statuses.map((s) => [
        `E${s}`,
        { description: t(`api-docs:status.${s}`), content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      ])),
      parameters: {
        XMandant: { name: 'X-Mandant', in: 'header', required: false, schema: { type: 'string', maxLength: 50 }, description: t('api-docs:params.xMandant') },
        IdempotencyKey: { name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 }, description: t('api-docs:params.idempotencyKey') },
        AcceptLanguage: { name: 'Accept-Language', in: 'header', required: false, schema: { type: 'string' }, description: t('api-docs:params.acceptLanguage') },
      },
      securitySchemes: {
        bearerToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: t('api-docs:security.bearerToken') },
        apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'API key', description: t('api-docs:security.apiKey') },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'portal.sid', description: t('api-docs:security.sessionCookie') },
        csrfToken: { type: 'apiKey', in: 'header', name: 'X-CSRF-Token', description: t('api-docs:security.csrfToken') },
      },
    },
  };
}

/** The description as served: its JSON and an ETag over it, made once per app and language. */
export function servedDocument(t: TFunction): { json: string; etag: string; doc: OpenApiDocument } {
  const doc = buildDocument(t);
  const json = JSON.stringify(doc);
  return { json, doc, etag: `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"` };
}
