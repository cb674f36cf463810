// What the API description knows about each /api route: one declaration next to the route, with the zod schemas
// the route validates its input with and the one that describes its answer. The description (document.ts) is
// built from these and nothing else, so a route's documentation lives where its code does; a registered route
// without a declaration fails src/features/api-docs/api-docs.test.ts, naming it.
//
//   documentApi({ method: 'post', path: '/bilanzen/:id/abschluss', tag: 'bilanzen', body: Schema, ok: { 201: Answer } });
//
// Paths are Express patterns below /api exactly as the route is mounted (`/v1/account/login`, `/bilanzen/:id`).
// Declaring again replaces (each test file builds its own app, and record types declare when their routes are made).
import { z } from 'zod';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A JSON Schema (2020-12) written or generated directly, where no zod schema exists (the list engine's rows). */
export interface JsonSchema {
  [key: string]: unknown;
}

/** A schema as a declaration gives it: zod (converted for the description) or JSON Schema. */
export type Schema = z.ZodType | JsonSchema;

/** A success answer that is not JSON (an export, a PDF, a file): its content types; `json` when it may also be JSON (a list that exports). */
export interface FileAnswer {
  file: readonly string[];
  json?: Schema | null;
}

export type Answer = Schema | FileAnswer | null;

export interface ApiOperation {
  method: Method;
  /** Express pattern below /api, as the route is mounted. */
  path: string;
  /** Group of the operation on the docs page: a key of `api-docs:tags`. */
  tag: string;
  /** Key of the summary below `api-docs:ops` (the description's English, the page in its language); default: method and path. */
  summary?: string;
  /** Path parameters (default: each is a string). */
  params?: Schema;
  /** Query parameters: an object schema, one parameter per property. */
  query?: Schema;
  /** The JSON body; `multipart` for uploads, with the named file part. */
  body?: Schema | { multipart: Schema };
  /**
   * Success answers by status. A schema: the JSON body; a FileAnswer: a file of those types; null: no body
   * described (see UNDESCRIBED in api-docs.test.ts; new routes describe theirs).
   */
  ok: Record<number, Answer>;
  /** Error statuses beyond those every operation of its kind can answer (see document.ts, errorStatuses). */
  errors?: number[];
  /** No sign-in at all (the public THG display, the docs themselves). */
  public?: boolean;
  /** Headers of the request beyond X-Mandant, Idempotency-Key and Authorization (e.g. If-Match). */
  headers?: { name: string; description: string }[];
}

const operations = new Map<string, ApiOperation>();

export const operationKey = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

/** Declares (or replaces) the description of one route. */
export function documentApi(op: ApiOperation): void {
  operations.set(operationKey(op.method, op.path), op);
}

/** Declares several routes of one feature at once. */
export function documentApis(ops: ApiOperation[]): void {
  for (const op of ops) documentApi(op);
}

const named = new Map<string, JsonSchema>();

/** A schema under a name of its own (`components/schemas/<name>`), for answers that share it. */
export function nameSchema(name: string, schema: JsonSchema): JsonSchema {
  named.set(name, schema);
  return { $ref: `#/components/schemas/${name}` };
}

/** The named schemas (document.ts puts them under components). */
export function namedSchemas(): Record<string, JsonSchema> {
  return Object.fromEntries(named);
}

/** Every declared operation, in declaration order. */
export function declaredOperations(): ApiOperation[] {
  return [...operations.values()];
}

export const isZod = (s: unknown): s is z.ZodType => s instanceof z.ZodType;
export const isFileAnswer = (a: Answer): a is FileAnswer => a !== null && !isZod(a) && Array.isArray((a as FileAnswer).file);

// Shapes every feature's answers share (api-contract.md, HTTP conventions).

/** `{success: true}` and nothing else: a delete, a revocation. */
export const Done = z.object({ success: z.literal(true) }).strict();

/** `{success: true, data}`: one record, created or changed. */
export const Envelope = <S extends z.ZodType>(data: S) => z.object({ success: z.literal(true), data }).strict();

/** `{data}`: a read of one record (some features answer reads without `success`). */
export const DataOnly = <S extends z.ZodType>(data: S) => z.object({ data }).strict();

/** A page of a list: `{data, total, page, pageSize}` (the list engine adds totalExact and totals). */
export const Page = <S extends z.ZodType>(row: S) =>
  z.object({ data: z.array(row), total: z.number().int(), totalExact: z.boolean().optional(), page: z.number().int(), pageSize: z.number().int() }).strict();

/** The list exports' content types (src/records/export/formats.ts). */
export const EXPORT_TYPES = ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/pdf'] as const;
