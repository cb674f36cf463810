// One error type for everything a user can get wrong, and one handler that renders it as a translated page
// (HTML) or as the contract's JSON error shape (/api). Never a stack trace in a response.
import type { i18n } from 'i18next';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { ProblemError, type FieldError, type ProblemKind } from '../errors.js';

export type { FieldError };

export class HttpError extends Error {
  constructor(
    readonly status: number,
    /** Machine code, e.g. NOT_FOUND. */
    readonly code: string,
    /** i18n key of the message (namespace:key), or a message already translated. */
    readonly messageKey: string,
    readonly errors: FieldError[] = [],
    readonly params: Record<string, unknown> = {},
  ) {
    super(messageKey);
  }
}

export const notFound = (key = 'errors.notFound') => new HttpError(404, 'NOT_FOUND', key);
export const badRequest = (key = 'errors.badRequest', errors: FieldError[] = []) => new HttpError(400, 'BAD_REQUEST', key, errors);
export const forbidden = (key = 'errors.forbidden') => new HttpError(403, 'FORBIDDEN', key);
export const unauthorized = (key = 'errors.unauthorized') => new HttpError(401, 'UNAUTHORIZED', key);

export const isApi = (path: string) => path === '/api' || path.startsWith('/api/');

/** Everything that reached no route. */
export function notFoundHandler(): RequestHandler {
  return (_req, _res, next) => next(notFound());
}

/** A database outage is usually over in seconds (failover, restart): clients may try again after this long. */
const UNAVAILABLE_RETRY_S = 5;

/** The status of each kind of problem the layers below HTTP report (src/errors.ts): the one place that decides it. */
const STATUS_OF: Record<ProblemKind, number> = { invalid: 400, forbidden: 403, not_found: 404, conflict: 409 };

/**
 * A user's mistake as an HttpError: an HttpError as it is, a ProblemError of the storage layer or the record
 * service with the status of its kind; null for anything else (a bug, an outage), which must travel on.
 */
export function httpErrorOf(err: unknown): HttpError | null {
  if (err instanceof HttpError) return err;
  if (err instanceof ProblemError) return new HttpError(STATUS_OF[err.kind], err.code, err.messageKey, err.errors, err.params);
  return null;
}

/** Errors thrown by body parsers and the like carry a status; map them to the contract's codes. */
function normalise(err: unknown): HttpError {
  const known = httpErrorOf(err);
  if (known) return known;
  const e = err as { status?: number; statusCode?: number; type?: string; code?: string };
  const status = e?.status ?? e?.statusCode;
  if (e?.code === 'EBADCSRFTOKEN' || e?.code === 'ERR_BAD_CSRF_TOKEN' || (err as Error)?.message === 'invalid csrf token') {
    return new HttpError(403, 'CSRF', 'errors.csrf');
  }
  if (status === 413 || e?.type === 'entity.too.large') return new HttpError(413, 'TOO_LARGE', 'errors.tooLarge');
  if (status === 400 || e?.type === 'entity.parse.failed') return new HttpError(400, 'BAD_REQUEST', 'errors.badRequest');
  if (err instanceof URIError) return new HttpError(400, 'BAD_REQUEST', 'errors.badRequest');
  if (status && status >= 400 && status < 500) return new HttpError(status, 'BAD_REQUEST', 'errors.badRequest');
  if (isDatabaseUnavailable(err)) return new HttpError(503, 'UNAVAILABLE', 'errors.unavailable', [], { retryAfter: UNAVAILABLE_RETRY_S });
  return new HttpError(500, 'INTERNAL', 'errors.internal');
}

/**
 * `i18n` translates errors that happen before the per-request translation is set up (a malformed body, say):
 * in the language of the path, else German.
 */
export function errorHandler(log: (err: unknown) => void, i18n?: i18n): ErrorRequestHandler {
  const early = (path: string) => i18n?.getFixedT(/^\/en(\/|$)/.test(path) ? 'en' : 'de') ?? ((k: string) => k);
  return (err, req, res, _next) => {
    const httpError = normalise(err);
    if (httpError.status >= 500) log(err);
    // Part of the answer is out (a CSV export that failed midway): cut the connection, so the client sees an
    // incomplete download rather than a file that looks whole.
    if (res.headersSent) return res.destroy();
    const t = req.t ?? early(req.path);
    const message = String(t(httpError.messageKey, httpError.params));
    const errors = httpError.errors.map((fe) => ({ ...(fe.index === undefined ? {} : { index: fe.index }), field: fe.field, message: String(t(fe.message, fe.params ?? {})) }));
    res.status(httpError.status);
    if (typeof httpError.params.retryAfter === 'number') res.setHeader('Retry-After', String(httpError.params.retryAfter));
    if (isApi(req.path) || !req.accepts('html')) {
      res.json({ success: false, message, code: httpError.code, errors });
      return;
    }
    res.locals.status = httpError.status;
    res.locals.message = message;
    res.locals.errors = errors;
    // An error raised before the CSRF middleware ran (the session could not be loaded from a database that is
    // down, a malformed URL) still gets the full page; its forms carry no token, and posting one is refused.
    if (!Object.hasOwn(res.locals, 'csrfToken')) res.locals.csrfToken = '';
    res.page('errors/error', { title: message, status: httpError.status, message }).catch(() => {
      res.type('text/plain').send(message);
    });
  };
}
