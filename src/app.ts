// createApp(deps): the middleware order, nothing else. Tests build the same app against their own database.
import cookieParser from 'cookie-parser';
import express, { type Express } from 'express';
import type { i18n } from 'i18next';
import { AccountService } from './auth/services.js';
import { SsoClient } from './auth/sso.js';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import { accountApi } from './features/account/api.js';
import { accountRoutes } from './features/account/routes.js';
import { benutzerApi } from './features/benutzer/api.js';
import { benutzerRoutes } from './features/benutzer/routes.js';
import { berechtigungenApi } from './features/berechtigungen/api.js';
import { berechtigungenRoutes } from './features/berechtigungen/routes.js';
import { logmeldungenApi } from './features/logmeldungen/api.js';
import { logmeldungenRoutes } from './features/logmeldungen/routes.js';
import { hilfeRoutes, hilfevideosStatic } from './features/hilfe/routes.js';
import { gesetzeswerteApi } from './features/gesetzeswerte/api.js';
import { gesetzeswerteRoutes } from './features/gesetzeswerte/routes.js';
import { mandantenApi } from './features/mandanten/api.js';
import { mandantenRoutes } from './features/mandanten/routes.js';
import { nachweisverfolgungApi } from './features/nachweisverfolgung/api.js';
import { nachweisverfolgungRoutes } from './features/nachweisverfolgung/routes.js';
import { bilanzenApi } from './features/bilanzen/api.js';
import { bilanzenRoutes } from './features/bilanzen/routes.js';
import { pocsApi } from './features/pocs/api.js';
import { pocsRoutes } from './features/pocs/routes.js';
import { thgAnzeigeApi, thgAnzeigeOeffentlichApi } from './features/thg-anzeige/api.js';
import { thgAnzeigeOeffentlich, thgAnzeigeRoutes } from './features/thg-anzeige/routes.js';
import { reportsApi } from './features/reports/api.js';
import { reportsRoutes } from './features/reports/routes.js';
import { tankstelleApi } from './features/tankstelle/api.js';
import { tankstelleRoutes } from './features/tankstelle/routes.js';
import { nachrichtenApi } from './features/nachrichten/api.js';
import { apiKeysApi } from './features/api-keys/api.js';
import { apiKeyAuthenticator, DEFAULT_KEY_LIMIT } from './features/api-keys/auth.js';
import { idempotentPosts } from './features/api-keys/idempotency.js';
import { apiKeysRoutes } from './features/api-keys/routes.js';
import { nachrichtenRoutes } from './features/nachrichten/routes.js';
import { dashboardRoutes } from './features/dashboard/routes.js';
import { entityRoutes } from './records/routes.js';
import { STAMMDATEN_ENTITIES } from './features/stammdaten/registry.js';
import { BEWEGUNGSDATEN_ENTITIES } from './features/bewegungsdaten/registry.js';
import { bewegungsdatenImportApi } from './features/bewegungsdaten-import/api.js';
import { bewegungsdatenImportRoutes } from './features/bewegungsdaten-import/routes.js';
import { nachweiseImportApi } from './features/nachweise-import/api.js';
import { nachweiseImportRoutes } from './features/nachweise-import/routes.js';
import { stammdatenImportApi } from './features/stammdaten-import/api.js';
import { stammdatenImportRoutes } from './features/stammdaten-import/routes.js';
import { apiDocsRoutes } from './features/api-docs/routes.js';
import { apiAuthentication, apiLanguage, explainTokenProblems, refuseApiKeys, requireApiUser, requireTenant, tenantResponseHeader } from './http/api.js';
import type { Database } from './db/knex.js';
import { countQueries } from './db/query-count.js';
import { probeLatency } from './http/latency-probe.js';
import { authRoutes } from './features/auth/routes.js';
import { healthCheck } from './features/health/routes.js';
import { layoutRoutes } from './features/layouts/routes.js';
import { publicRoutes, routeTree } from './features/shell/routes.js';
import { loadAssets, serveStatic } from './http/assets.js';
import { gated, pathGate } from './http/path-gate.js';
import { inOrder } from './http/in-order.js';
import { setUpCompression } from './http/compressed-body.js';
import { createPassport, setUpAuthentication } from './http/auth.js';
import { setUpCsrf } from './http/csrf.js';
import { badRequest, errorHandler, notFound, notFoundHandler } from './http/errors.js';
import { isLang, setUpI18n, useLanguage } from './http/i18n.js';
import { languageRedirects } from './http/language.js';
import { setUpRendering } from './http/render.js';
import { setUpWebSecurity } from './http/security.js';
import { setUpWebSession } from './http/session.js';
import { KnexSessionStore } from './http/session-store.js';

export interface AppDeps {
  config: Config;
  db: Database;
  i18n: i18n;
  clock?: Clock;
  log?: (err: unknown) => void;
}

const MAX_URL_LENGTH = 2048;

/** PostgreSQL cannot store NUL in text: a body or query with one is a 400 here, not a 500 later. */
function rejectNulCharacters(): express.RequestHandler {
  const hasNul = (v: unknown, depth = 0): boolean =>
    typeof v === 'string' ? v.includes('\u0000') : depth < 32 && v !== null && typeof v === 'object' && Object.entries(v).some(([k, x]) => k.includes('\u0000') || hasNul(x, depth + 1));
  return (req, _res, next) => {
    const fields = [req.body, req.query].flatMap((source) =>
      source && typeof source === 'object' ? Object.entries(source).filter(([k, v]) => k.includes('\u0000') || hasNul(v)).map(([k]) => k) : [],
    );
    next(fields.length ? badRequest('errors.badRequest', fields.map((field) => ({ field, message: 'validation.invalid' }))) : undefined);
  };
}

const BULK_PATH = /^\/api\/[a-z-]+\/bulk$/;

/** JSON bodies: up to 1 MB, and up to 5 MB for a bulk request, which carries up to 1,000 records (src/records/bulk.ts). */
function jsonBodies(): express.RequestHandler {
  const bulk = express.json({ limit: '5mb' });
  const other = express.json({ limit: '1mb' });
  return (req, res, next) => (BULK_PATH.test(req.path) ? bulk : other)(req, res, next);
}

/** Overlong URLs are a 404, undecodable ones or ones with NUL a 400: never a 500. */
function rejectMalformedUrls(): express.RequestHandler {
  return (req, _res, next) => {
    if (req.originalUrl.length > MAX_URL_LENGTH) return next(notFound());
    let decoded: string;
    try {
      decoded = decodeURIComponent(req.path);
    } catch {
      return next(badRequest());
    }
    // A NUL in a path parameter would reach the database, which cannot store it.
    next(decoded.includes('\u0000') ? badRequest() : undefined);
  };
}

export function createApp({ config, db, i18n, clock = systemClock, log = (e) => console.error(e) }: AppDeps): Express & {
  sessionStore: KnexSessionStore;
  accounts: AccountService;
} {
  const app = express();
  const sessionStore = new KnexSessionStore(db.knex, clock, config.sessionIdleMs);
  const accounts = new AccountService(db.knex, sessionStore, clock, config.sessionSecret, config.sessionIdleMs);
  const passport = createPassport(db.knex, accounts);
  const sso = config.sso ? new SsoClient(config.sso, clock) : null;

  app.set('trust proxy', config.trustProxy);
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  // Pages and API answers are no-store, so a browser never revalidates them: hashing each body for an ETag
  // (SHA-1 over every page) buys nothing. The build's files keep theirs (serveStatic).
  app.set('etag', false);
  setUpRendering(app, {
    assets: loadAssets(),
    cacheViews: config.env === 'production',
    i18n,
    idleMs: config.sessionIdleMs,
    countdownAfterMs: config.countdownAfterMs,
  });

  // The benchmark's instruments (BENCH_LATENCY_PROBE, BENCH_COUNT_QUERIES=1); when off, nothing is installed.
  if (config.latencyProbeFile) app.use(probeLatency(config.latencyProbeFile));
  if (config.countQueries) app.use(countQueries(db.knex));
  // Brotli for clients that accept it, else gzip. Quality 5 instead of the package's 4: 7 % smaller pages for
  // well under a millisecond more per page. The build's files come precompressed at the highest levels. Rendered
  // pages and JSON answers (res.send of a string) are compressed in one piece, before they are sent; what is
  // streamed (exports) by the `compression` middleware, set up only on those responses (src/http/compressed-body.ts).
  setUpCompression(app);
  // What every request passes, as one layer (src/http/in-order.ts): the security headers, then malformed URLs.
  app.use(inOrder(...setUpWebSecurity(), rejectMalformedUrls()));
  // The build's files and the help videos with their captions: static files, before the session (no cookie) and
  // the language redirect; entered only by a request below one of their paths.
  app.use(gated(serveStatic(), hilfevideosStatic()));
  app.get('/healthz', healthCheck(db));
  // Every request that /healthz did not answer passes these, in this order, as one layer (src/http/in-order.ts).
  app.use(inOrder(
    languageRedirects(),
    cookieParser(),
    express.urlencoded({ extended: false, limit: '100kb', parameterLimit: 500 }),
    jsonBodies(),
    rejectNulCharacters(),
    setUpI18n(i18n),
  ));
  // The public THG display and its JSON depend on the link alone, never on a session: served before one is
  // loaded, they set no cookie and may be cached (src/features/thg-anzeige).
  app.use('/api', thgAnzeigeOeffentlichApi(db.knex, clock));
  // The API description (JSON and page) is the same for everyone: public, cacheable, no session (src/features/api-docs).
  app.use('/api', apiDocsRoutes(i18n));
  app.use('/:lang', pathGate(thgAnzeigeOeffentlich(db.knex, clock)));
  // The session, the signed-in user and the CSRF check, as one layer.
  app.use(inOrder(setUpWebSession(config, sessionStore), ...setUpAuthentication(passport), ...setUpCsrf(config)));

  const api = express.Router();
  api.use(tenantResponseHeader());
  api.patch('/benutzer/:id/mfa/reset', explainTokenProblems(accounts.tokens));
  const keyLimit = config.apiKeyRateLimit ? { ...DEFAULT_KEY_LIMIT, points: config.apiKeyRateLimit } : DEFAULT_KEY_LIMIT;
  api.use(apiAuthentication(accounts, apiKeyAuthenticator(db.knex, clock, keyLimit)), apiLanguage());
  // A person's account, session and settings: never an API key's.
  api.use('/v1', refuseApiKeys(), accountApi(accounts, sso));
  // Everything else below /api needs a signed-in user and a tenant they belong to (X-Mandant; an API key's own).
  api.use(requireApiUser(), requireTenant());
  // POSTs with an Idempotency-Key are done once (src/features/api-keys/idempotency.ts).
  api.use(idempotentPosts(db.knex, clock, log));
  api.use('/nachrichten', refuseApiKeys());
  const records = [...STAMMDATEN_ENTITIES, ...BEWEGUNGSDATEN_ENTITIES].map((cfg) => entityRoutes(db.knex, cfg));
  api.use(gated(
    apiKeysApi(db.knex, clock),
    benutzerApi(accounts),
    mandantenApi(accounts),
    gesetzeswerteApi(db.knex, clock),
    berechtigungenApi(db.knex),
    logmeldungenApi(db.knex),
    // Before the records: /nachweise/import/… would otherwise be a certificate's number and its sub-resource.
    nachweiseImportApi(db.knex),
    ...records.map((routes) => routes.api),
    stammdatenImportApi(db.knex),
    bewegungsdatenImportApi(db.knex),
    nachweisverfolgungApi(db.knex, clock),
    bilanzenApi(db.knex, clock),
    pocsApi(db.knex),
    thgAnzeigeApi(db.knex, clock),
    tankstelleApi(db.knex, clock),
    nachrichtenApi(db.knex, clock),
    reportsApi(db.knex, clock),
  ));
  app.use('/api', api);

  const pages = express.Router({ mergeParams: true });
  pages.use((req, res, next) => {
    if (!isLang(req.params.lang)) return next('router');
    res.locals.lang = req.params.lang;
    if (req.language !== req.params.lang) useLanguage(req, res, req.params.lang);
    next();
  });
  pages.use(gated(
    publicRoutes(),
    authRoutes(accounts, passport, sso, log),
    layoutRoutes(),
    accountRoutes(accounts),
    benutzerRoutes(accounts),
    mandantenRoutes(accounts),
    gesetzeswerteRoutes(db.knex, clock),
    berechtigungenRoutes(db.knex),
    logmeldungenRoutes(db.knex),
    stammdatenImportRoutes(db.knex),
    bewegungsdatenImportRoutes(db.knex),
    nachweiseImportRoutes(db.knex),
    ...records.map((routes) => routes.pages),
    nachweisverfolgungRoutes(db.knex, clock),
    bilanzenRoutes(db.knex, clock),
    pocsRoutes(db.knex),
    thgAnzeigeRoutes(db.knex, clock),
    // Before the route tree, whose placeholder it replaces.
    tankstelleRoutes(db.knex, clock),
    dashboardRoutes(db.knex, clock),
    nachrichtenRoutes(db.knex, clock),
    apiKeysRoutes(db.knex, clock),
    hilfeRoutes(),
    reportsRoutes(db.knex, clock),
    routeTree(),
  ));
  app.use('/:lang', pages);

  app.use(notFoundHandler());
  app.use((req, res, next) => {
    // Error pages outside a language prefix still speak the detected language.
    res.locals.lang ??= isLang(req.language) ? req.language : 'de';
    next();
  });
  app.use(errorHandler(log, i18n));
  return Object.assign(app, { sessionStore, accounts });
}
