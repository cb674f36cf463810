import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';

/**
 * A feature's router behind a gate that lets in only requests whose path starts as one of its routes does. The
 * app mounts some sixty feature routers one after another without a prefix (their routes name their whole path,
 * e.g. `/bewegungsdaten/einlieferungen/:id`), so Express entered every router before the matching one and tried
 * every route in it: 6 to 9 % of a list page's CPU (bench/README.md, issue 21). The gate costs a map lookup per
 * router instead.
 *
 * It changes nothing about which route answers: a router is skipped only when none of its routes could match the
 * path. It looks at the first two segments of each route (a dozen routers share `/bewegungsdaten`); a layer
 * that could match any path (middleware without a path, a path that starts with a parameter, a regular
 * expression) means the router is never skipped. Segments are compared lower-cased and undecoded, as Express
 * matches routes (case-insensitive, on the encoded path).
 */
export function pathGate(router: Router): RequestHandler & { gated: Router[] } {
  return gated(router);
}

/**
 * Feature routers in the order they are tried, each behind its gate, as one handler: it enters, in their order,
 * only the routers whose routes could match the request's path, each after the one before passed the request on.
 * One layer of the router it is mounted in instead of one per feature router: Express's stepping from layer to
 * layer (matching, merging the parameters, its callbacks) cost more than the gates' lookups (bench/README.md,
 * "2026-12-03, fourth").
 */
export function gated(...routers: Router[]): RequestHandler & { gated: Router[] } {
  let index: GateIndex | undefined;
  function dispatch(req: Request, res: Response, next: NextFunction) {
    // Built when the first request comes: by then every route has been added.
    index ??= gateIndex(routers);
    const [first, second] = leadingSegments(req.url);
    const candidates = index.byFirst.get(first) ?? index.anyPath;
    let i = 0;
    const step = (err?: unknown): void => {
      // An error, or 'router' (leave the router this handler is mounted in), goes on as from any middleware.
      if (err !== undefined && err !== null && err !== 'route') {
        next(err);
        return;
      }
      while (i < candidates.length) {
        const { router, seconds } = candidates[i++];
        if (seconds === null || seconds.has(second)) {
          router(req, res, step);
          return;
        }
      }
      next();
    };
    step();
  }
  return Object.assign(dispatch, { gated: routers });
}

interface GateEntry {
  router: Router;
  /** The second segments the router's routes have under the first one; null: any. */
  seconds: ReadonlySet<string> | null;
}

/** For each first segment, the routers that could answer below it, in their order; anyPath: those for any path. */
interface GateIndex {
  byFirst: Map<string, GateEntry[]>;
  anyPath: GateEntry[];
}

function gateIndex(routers: Router[]): GateIndex {
  const prefixes = routers.map((router) => ({ router, prefixes: routePrefixes(router) }));
  const firsts = new Set(prefixes.flatMap((p) => (p.prefixes ? [...p.prefixes.keys()] : [])));
  const entriesFor = (first: string | null): GateEntry[] =>
    prefixes.flatMap(({ router, prefixes: p }) => {
      if (p === null) return [{ router, seconds: null }];
      const seconds = first === null ? undefined : p.get(first);
      return seconds === undefined ? [] : [{ router, seconds }];
    });
  return { byFirst: new Map([...firsts].map((first) => [first, entriesFor(first)])), anyPath: entriesFor(null) };
}

/** First segment → the second segments routes have under it (null: any second segment, or none). */
export type Prefixes = ReadonlyMap<string, ReadonlySet<string> | null>;

/** Whether a path (below the router's mount point, query included) could match one of the prefixes' routes. */
export function admits(prefixes: Prefixes, url: string): boolean {
  const [first, second] = leadingSegments(url);
  const seconds = prefixes.get(first);
  return seconds !== undefined && (seconds === null || seconds.has(second));
}

/** The first two segments of a path, lower-cased; '' for one that is not there ('/' → ['', '']). */
export function leadingSegments(url: string): [string, string] {
  const firstEnd = segmentEnd(url, 1);
  const first = url.slice(1, firstEnd).toLowerCase();
  if (url.charCodeAt(firstEnd) !== 47 /* / */) return [first, ''];
  return [first, url.slice(firstEnd + 1, segmentEnd(url, firstEnd + 1)).toLowerCase()];
}

function segmentEnd(url: string, from: number): number {
  let end = from;
  while (end < url.length) {
    const c = url.charCodeAt(end);
    if (c === 47 /* / */ || c === 63 /* ? */ || c === 35 /* # */) break;
    end++;
  }
  return end;
}

interface LayerLike {
  rawPath?: unknown;
  slash?: boolean;
  route?: { path?: unknown };
  handle?: { stack?: LayerLike[]; gated?: { stack?: LayerLike[] }[] };
}

/**
 * The literal leading segments of every route and mounted path in a router, or null when one of its layers
 * could match a path that starts otherwise. A router mounted without a path inside it (`pages.use(extra)`) adds
 * its own.
 */
export function routePrefixes(router: { stack?: unknown }): Prefixes | null {
  // Not a router (a plain middleware function): it may answer any path.
  if (!Array.isArray(router.stack)) return null;
  const found = new Map<string, Set<string> | null>();
  const add = (first: string, second: string | null) => {
    const seconds = found.get(first);
    if (second === null || seconds === null) found.set(first, null);
    else if (seconds) seconds.add(second);
    else found.set(first, new Set([second]));
  };
  for (const layer of router.stack as LayerLike[]) {
    if (layer.slash) {
      // Middleware without a path: a nested router (gated or not) is as narrow as its own routes, anything else
      // matches all.
      const inner = layer.handle ? (layer.handle.gated ?? [layer.handle]) : [];
      if (inner.length === 0) return null;
      for (const router of inner) {
        const nested = routePrefixes(router);
        if (nested === null) return null;
        for (const [first, seconds] of nested) {
          if (seconds === null) add(first, null);
          else for (const second of seconds) add(first, second);
        }
      }
      continue;
    }
    const paths = layer.route?.path ?? layer.rawPath;
    for (const path of Array.isArray(paths) ? paths.flat(Infinity) : [paths]) {
      if (typeof path !== 'string' || !path.startsWith('/')) return null;
      const [first, second] = leadingSegments(path);
      if (!isLiteral(first)) return null;
      // A one-segment path, or a second segment that is not a literal: any second segment may follow.
      const hasSecond = path.length > first.length + 1;
      add(first, hasSecond && isLiteral(second) ? second : null);
    }
  }
  return found;
}

/** Parameters, wildcards, optional parts ({…}), escapes and the old pattern characters are not literals. */
const isLiteral = (segment: string): boolean => !/[:*{}()\\?+[\]]/.test(segment);
