// Idempotent POSTs on /api (issue 19 point 4): a POST with `Idempotency-Key: <key>` is done once per tenant,
// caller (API key or user) and key. The same key with the same request (method, URL and canonical JSON body)
// gets the first answer again (status and body, with `Idempotent-Replayed: true`) and writes nothing; with
// another request it is a 422; while the first is still running, a 409. Answers are kept for 24 hours.
//
// A reservation row is written before the request runs, in its own short transaction (one upsert), and the
// answer is stored in it before the answer is sent. The write itself runs in its own transaction in the
// service, which this middleware cannot join without reaching into every feature; the reservation is what
// makes two concurrent retries safe (only one gets it) and a retry after a cut connection safe (the first
// request keeps running and stores its answer; the retry gets it, or a 409 while it runs). A 5xx answer frees
// the key (its transaction rolled back, so trying again is right). The price: a process that dies between
// the write's commit and storing the answer leaves the key reserved without an answer, and its retries get 409
// for 24 hours instead of a second write (docs/decisions.md "API keys, idempotency and bulk writes").
import type { Request, RequestHandler, Response } from 'express';
import type { Knex } from 'knex';
import type { Clock } from '../../clock.js';
import { TenantScope } from '../../db/scope.js';
import { HttpError } from '../../http/errors.js';
import { canonicalJson, sha256 } from './keys.js';
import * as repo from './repo.js';
import { IdempotencyKeyHeader } from './schema.js';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const HEADER = 'Idempotency-Key';

const callerOf = (req: Request) => (req.user!.apiKey ? `k${req.user!.apiKey.id}` : `u${req.user!.id}`);

export function idempotentPosts(knex: Knex, clock: Clock, log: (err: unknown) => void = () => {}): RequestHandler {
  return async (req: Request, res: Response, next) => {
    if (req.method !== 'POST') return next();
    const raw = req.headers['idempotency-key'];
    if (raw === undefined) return next();
    const schluessel = IdempotencyKeyHeader.safeParse(raw);
    const problem = (message: string) => new HttpError(400, 'IDEMPOTENCY_KEY_INVALID', message, [{ field: HEADER, message }]);
    if (!schluessel.success) return next(problem('api-keys:errors.idempotencyKeyInvalid'));
    // A file upload's body is read by its route, after this point: it cannot be compared, so it is not accepted.
    if (req.is('multipart/form-data')) return next(problem('api-keys:errors.idempotencyMultipart'));
    if (!req.user || !res.locals.mandant) return next();

    const scope = new TenantScope(knex, res.locals.mandant as string);
    const aufrufer = callerOf(req);
    const key = schluessel.data;
    const hash = sha256(`${req.method} ${req.originalUrl}\n${canonicalJson(req.body)}`);
    const now = new Date(clock.now());
    const got = await repo.reserve(scope, aufrufer, key, hash, now, new Date(now.getTime() - IDEMPOTENCY_TTL_MS));
    if (got !== true) {
      if (got.anfrage_hash !== hash) return next(new HttpError(422, 'IDEMPOTENCY_KEY_REUSED', 'api-keys:errors.idempotencyReused'));
      if (got.status == null) return next(new HttpError(409, 'IDEMPOTENCY_IN_PROGRESS', 'api-keys:errors.idempotencyInProgress'));
      res.set('Idempotent-Replayed', 'true');
      res.status(got.status).json(typeof got.antwort === 'string' ? JSON.parse(got.antwort) : got.antwort);
      return;
    }

    // The answer is stored before it is sent, so a client that saw it can always get it again.
    let answered = false;
    const send = res.json.bind(res);
    res.json = ((body: unknown) => {
      if (answered) return send(body);
      answered = true;
      const status = res.statusCode;
      // A route whose answer holds a secret (a new API key) names what a replay may show instead.
      const replay = res.locals.replayAs === undefined ? body : res.locals.replayAs;
      const kept = status >= 500 ? repo.release(scope, aufrufer, key) : repo.complete(scope, aufrufer, key, status, replay);
      kept.then(
        () => send(body),
        (err) => {
          log(err);
          send(body);
        },
      );
      return res;
    }) as Response['json'];
    // An answer that is not JSON (none of the API's POSTs today) is not kept: the key is freed again.
    res.on('finish', () => {
      if (!answered) repo.release(scope, aufrufer, key).catch(log);
    });
    next();
  };
}
