// Shared helpers of the security tests: enumerates every route the app registers below /api at runtime by
// walking the Express 5 router stack, so a new route is covered without editing a test.
import type { Express } from 'express';
import { expect } from 'vitest';

export interface ApiRoute {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Full path pattern, e.g. /api/standorte/:nr */
  path: string;
}

interface LayerLike {
  route?: { path: unknown; methods?: Record<string, boolean> };
  handle?: { stack?: LayerLike[]; gated?: { stack?: LayerLike[] }[] };
  rawPath?: unknown;
  path?: unknown;
  name?: string;
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

function join(prefix: string, part: string): string {
  const p = `${prefix}/${part}`.replace(/\/+/g, '/');
  return p.length > 1 ? p.replace(/\/$/, '') : p;
}

function asPaths(raw: unknown): string[] | null {
  if (typeof raw === 'string') return [raw];
  if (Array.isArray(raw) && raw.every((x) => typeof x === 'string')) return raw as string[];
  return null;
}

function walk(stack: LayerLike[], prefix: string, out: ApiRoute[]): void {
  for (const layer of stack) {
    if (layer.route) {
      const paths = asPaths(layer.route.path);
      if (!paths) throw new Error(`route with a non-string path below ${prefix}: cannot enumerate`);
      const methods = Object.keys(layer.route.methods ?? {}).filter((m) => layer.route!.methods![m]);
      for (const p of paths) {
        for (const m of methods) {
          const method = (m === '_all' ? 'get' : m) as ApiRoute['method'];
          if (METHODS.has(method)) out.push({ method, path: join(prefix, p) });
        }
      }
    } else if (layer.handle && (layer.handle.gated ?? [layer.handle]).every((r) => Array.isArray(r.stack))) {
      // A mounted router, or routers behind their path gates (src/http/path-gate.ts): its mount path is kept as
      // rawPath by router@2 (Express 5).
      const mount = asPaths(layer.rawPath ?? layer.path);
      if (!mount) throw new Error(`router layer ${layer.name ?? '?'} below ${prefix} has no readable mount path`);
      for (const m of mount) for (const router of layer.handle.gated ?? [layer.handle]) walk(router.stack!, join(prefix, m), out);
    }
  }
}

/** Every method + path pattern registered below /api, deduplicated, in registration order. */
export function apiRoutes(app: Express): ApiRoute[] {
  const router = (app as unknown as { router?: { stack?: LayerLike[] } }).router;
  if (!router || !Array.isArray(router.stack)) throw new Error('app.router.stack not found: is this Express 5?');
  const all: ApiRoute[] = [];
  walk(router.stack, '', all);
  const seen = new Set<string>();
  const routes = all.filter((r) => {
    const key = `${r.method} ${r.path}`;
    if (!r.path.startsWith('/api/') || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  // A broken walker must not pass silently.
  expect(routes.length, `only ${routes.length} /api routes enumerated: ${routes.map((r) => `${r.method} ${r.path}`).join(', ')}`).toBeGreaterThanOrEqual(30);
  return routes;
}

/** The parameter names of a path pattern (path-to-regexp v8: :name and *name, optional parts in braces). */
export function paramNames(path: string): string[] {
  return [...path.matchAll(/[:*]([A-Za-z_$][\w$]*)/g)].map((m) => m[1]);
}

/** Fills a path pattern's parameters with the values given (URL-encoded); optional brace groups are kept. */
export function fillPath(path: string, values: Record<string, string>): string {
  return path
    .replace(/[:*]([A-Za-z_$][\w$]*)/g, (_, name: string) => encodeURIComponent(values[name] ?? '999999'))
    .replace(/[{}]/g, '');
}

/** Calls that need no X-Mandant per the API contract (src/http/tenant-exempt.ts). */
export { isTenantExempt } from '../http/tenant-exempt.js';

/** The contract's error shape: {success:false, message, code, errors}. */
export function expectErrorShape(body: unknown, context: string): void {
  expect(body, `${context}: error body`).toMatchObject({ success: false, message: expect.any(String), code: expect.any(String), errors: expect.any(Array) });
  const b = body as { message: string };
  expect(b.message, `${context}: no stack trace in message`).not.toMatch(/\n\s+at .+\(.*:\d+:\d+\)/);
}
