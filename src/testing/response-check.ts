// Every answer the integration tests receive from /api is checked against the API description
// (src/features/api-docs): its status must be one the operation declares, a JSON body must match the declared
// schema (ajv, JSON Schema 2020-12: an undocumented field fails where the schema says additionalProperties
// false), a file must come with a declared content type. The check runs inside the test app (createTestApp),
// so no test has to ask for it; what it finds fails the test that made the request (response-check-setup.ts).
import type { Express, Request, Response } from 'express';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { i18n as I18n, TFunction } from 'i18next';
import { buildDocument, type OpenApiDocument } from '../features/api-docs/document.js';
import type { JsonSchema } from '../features/api-docs/registry.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

export interface Violation {
  method: string;
  url: string;
  /** The described operation, e.g. `GET /api/standorte/{nr}`. */
  operation: string;
  status: number;
  problem: string;
}

const found: Violation[] = [];

/** What the check found since the last call (the setup file fails the current test with it). */
export function takeViolations(): Violation[] {
  return found.splice(0, found.length);
}

interface Operation {
  key: string;
  pattern: RegExp;
  literals: number;
  responses: Record<string, JsonSchema>;
}

function operationsOf(doc: OpenApiDocument): Map<string, Operation[]> {
  const byMethod = new Map<string, Operation[]>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    const segments = path.split('/');
    const pattern = new RegExp(`^${segments.map((s) => (/^\{.+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/')}$`);
    const literals = segments.filter((s) => !/^\{.+\}$/.test(s)).length;
    for (const [method, op] of Object.entries(methods)) {
      const list = byMethod.get(method) ?? [];
      list.push({ key: `${method.toUpperCase()} ${path}`, pattern, literals, responses: (op as { responses: Record<string, JsonSchema> }).responses });
      byMethod.set(method, list);
    }
  }
  // The most specific first: `/api/nachweise/import/{token}` before `/api/nachweise/{nr}/versionen`, as mounted.
  for (const list of byMethod.values()) list.sort((a, b) => b.literals - a.literals);
  return byMethod;
}

/** The path pattern Express matched, as the description writes it (`/api/standorte/{nr}`), when a route handled the request. */
function matchedPattern(req: Request): string | null {
  const route = (req as Request & { route?: { path?: unknown } }).route;
  if (!route || typeof route.path !== 'string') return null;
  return `${req.baseUrl}${route.path}`.replace(/:([A-Za-z_$][\w$]*)/g, '{$1}').replace(/\/$/, '');
}

export function installResponseCheck(app: Express, i18n: I18n): void {
  let doc: OpenApiDocument | null = null;
  let operations: Map<string, Operation[]> | null = null;
  // The first error of an answer is enough to report, and stopping there keeps a recursive schema linear: with
  // allErrors, each branch of the trace node's anyOf went on into its children, 5^depth validations.
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  addFormats(ajv);
  const compiled = new Map<string, ValidateFunction>();

  const ready = () => {
    // Built at the first answer, when every route has declared itself (as the served document is).
    doc ??= buildDocument(i18n.getFixedT('en') as TFunction);
    operations ??= operationsOf(doc);
    return { doc, operations };
  };

  const schemaOf = (response: JsonSchema, d: OpenApiDocument): { content?: Record<string, { schema?: JsonSchema }> } => {
    const ref = response.$ref;
    if (typeof ref !== 'string') return response as { content?: Record<string, { schema?: JsonSchema }> };
    const name = ref.split('/').pop()!;
    return (d.components as { responses: Record<string, JsonSchema> }).responses[name] as { content?: Record<string, { schema?: JsonSchema }> };
  };

  // The document's named schemas, given to ajv once as the $defs of a schema of their own, so a reference to one
  // resolves at any depth, also a schema that refers to itself (the trace's tree of nodes).
  const DEFS = 'urn:portal:api-schemas';
  const toDefs = (schema: unknown): JsonSchema =>
    JSON.parse(JSON.stringify(schema), (_k, v) =>
      v && typeof v === 'object' && typeof v.$ref === 'string' && v.$ref.startsWith('#/components/schemas/')
        ? { ...v, $ref: `${DEFS}#/$defs/${v.$ref.split('/').pop()}` }
        : v);
  const resolveRefs = (schema: JsonSchema, d: OpenApiDocument): JsonSchema => {
    if (!ajv.getSchema(DEFS)) ajv.addSchema({ $id: DEFS, $defs: toDefs((d.components as { schemas: Record<string, JsonSchema> }).schemas) });
    return toDefs(schema);
  };

  function check(req: Request, res: Response, body: string | undefined, pattern: string | null): void {
    const url = req.originalUrl;
    const path = url.split('?')[0];
    if (!/^\/api(\/|$)/.test(path)) return;
    const { doc: d, operations: ops } = ready();
    const method = req.method.toLowerCase();
    const candidates = ops.get(method) ?? [];
    const op = (pattern && candidates.find((o) => o.key === `${method.toUpperCase()} ${pattern}`)) ?? candidates.find((o) => o.pattern.test(path));
    // No described operation answers this method and path: the 404 (or 405) of an address that is no route.
    if (!op) return;
    const status = res.statusCode;
    const report = (problem: string): void => {
      found.push({ method: req.method, url: url.slice(0, 300), operation: op.key, status, problem });
    };
    const declared = op.responses[String(status)];
    if (!declared) return report(`status ${status} is not declared (declared: ${Object.keys(op.responses).join(', ')})`);
    if (status === 304 || req.method === 'HEAD') return;
    const response = schemaOf(declared, d);
    const type = String(res.getHeader('content-type') ?? '').split(';')[0].trim().toLowerCase();
    const content = response.content ?? {};
    if (!type) return Object.keys(content).length ? report('no Content-Type') : undefined;
    const media = content[type];
    if (!media) return report(`Content-Type ${type} is not declared (declared: ${Object.keys(content).join(', ') || 'none'})`);
    if (type !== 'application/json' || !media.schema) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(body ?? '');
    } catch {
      return report('body is not JSON');
    }
    const key = `${op.key} ${status}`;
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile(resolveRefs(media.schema, d));
      compiled.set(key, validate);
    }
    if (!validate(parsed)) {
      const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`);
      report(`body does not match the schema: ${errors.join('; ')}; body: ${(body ?? '').slice(0, 300)}`);
    }
  }

  // A JSON answer passes through send() as text (res.json calls it): kept until the answer is finished.
  const proto = app.response as Response;
  const send = proto.send;
  proto.send = function (this: Response, body?: unknown) {
    const locals = this.locals as Record<string, unknown>;
    if (typeof body === 'string' && /json/.test(String(this.getHeader('content-type') ?? ''))) locals.checkedBody = body;
    // The route that answers, while the routers still say which one it is.
    locals.checkedPattern ??= matchedPattern(this.req);
    return send.call(this, body);
  } as Response['send'];

  const handle = (app as unknown as { handle: (req: Request, res: Response, next?: unknown) => void }).handle;
  (app as unknown as { handle: typeof handle }).handle = function (req, res, next) {
    res.on('finish', () => {
      try {
        const locals = (res.locals ?? {}) as Record<string, unknown>;
        check(req, res, locals.checkedBody as string | undefined, (locals.checkedPattern as string | null | undefined) ?? null);
      } catch (e) {
        found.push({ method: req.method, url: req.originalUrl, operation: '?', status: res.statusCode, problem: `the check failed: ${(e as Error).message}` });
      }
    });
    return handle.call(this, req, res, next);
  };
}
