// Resolves the Vite build (hashed file names from its manifest) and serves it with a one-year immutable
// cache, sending the Brotli or gzip file the build wrote next to each one (vite.config.ts) rather than
// compressing on every request; HTML is never cached.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import express, { type Request, type Router } from 'express';
import { ROOT } from '../paths.js';

export const PUBLIC_DIR = path.join(ROOT, 'public');
export const BUILD_DIR = path.join(PUBLIC_DIR, 'build');
const MANIFEST = path.join(BUILD_DIR, '.vite', 'manifest.json');
const FAVICON = path.join(PUBLIC_DIR, 'favicon.svg');
const SPRITE = 'islands/icons.svg';

interface ManifestEntry {
  file: string;
  css?: string[];
  imports?: string[];
  isEntry?: boolean;
}

export interface EntryAssets {
  js: string | null;
  css: string[];
  /** The chunks the entry imports statically: fetched in parallel with it, not after it. */
  preload: string[];
}

export interface Assets {
  /** Script and style URLs of an entry (`islands/shell.ts`), or none when the build is missing. */
  entry(name: string): EntryAssets;
  /**
   * The code of an island (`islands/<name>/mount.tsx`) and every chunk it imports (React among them), for
   * modulepreload links: the browser fetches them with the page instead of discovering them one after another
   * (mount loop, island, React), which costs a round trip each on a slow connection.
   */
  island(name: string): string[];
  /** The favicon as a data: URL: no request, nothing to cache or fingerprint. */
  favicon: string | null;
  /**
   * The icons' sprite (`islands/icons.svg`, which the islands import too): pages point at its symbols
   * (`<use href="…#i-check">`), so the browser fetches it once and keeps it, instead of every page carrying it.
   * Empty without a build.
   */
  sprite: string;
}

export function loadAssets(): Assets {
  const manifest: Record<string, ManifestEntry> = existsSync(MANIFEST) ? JSON.parse(readFileSync(MANIFEST, 'utf8')) : {};
  const url = (f: string) => `/build/${f}`;
  /** The chunks a manifest entry imports, transitively, each once. */
  const importsOf = (key: string, seen = new Set<string>()): string[] => {
    for (const i of manifest[key]?.imports ?? []) {
      if (seen.has(i) || !manifest[i]) continue;
      seen.add(i);
      importsOf(i, seen);
    }
    return [...seen].map((i) => url(manifest[i].file));
  };
  const favicon = existsSync(FAVICON)
    ? `data:image/svg+xml,${encodeURIComponent(readFileSync(FAVICON, 'utf8').trim().replace(/\s+/g, ' ')).replace(/%20/g, ' ').replace(/%3D/g, '=').replace(/%3A/g, ':').replace(/%2F/g, '/')}`
    : null;
  return {
    entry(name) {
      const e = manifest[name];
      if (!e) return { js: null, css: [], preload: [] };
      return { js: url(e.file), css: (e.css ?? []).map(url), preload: importsOf(name) };
    },
    island(name) {
      const key = `islands/${name}/mount.tsx`;
      const e = manifest[key];
      return e ? [url(e.file), ...importsOf(key)] : [];
    },
    favicon,
    sprite: manifest[SPRITE] ? url(manifest[SPRITE].file) : '',
  };
}

/** The encodings the client accepts, by the q-values of Accept-Encoding (`br;q=0` refuses Brotli). */
function accepts(req: Request, encoding: string): boolean {
  const header = req.headers['accept-encoding'];
  if (typeof header !== 'string') return false;
  return header.split(',').some((part) => {
    const [token, ...params] = part.trim().split(';');
    if (token.trim().toLowerCase() !== encoding) return false;
    const q = params.map((p) => p.trim().match(/^q=([\d.]+)$/)?.[1]).find(Boolean);
    return q === undefined || Number(q) > 0;
  });
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
};

/** Build files that have compressed variants, by URL path below /build: known at start, no stat per request. */
function precompressed(dir: string): Map<string, { br: boolean; gz: boolean }> {
  const found = new Map<string, { br: boolean; gz: boolean }>();
  if (!existsSync(dir)) return found;
  const walk = (d: string): string[] => readdirSync(d).flatMap((f) => (statSync(path.join(d, f)).isDirectory() ? walk(path.join(d, f)) : [path.join(d, f)]));
  const files = new Set(walk(dir));
  for (const file of files) {
    if (file.endsWith('.br') || file.endsWith('.gz')) continue;
    const br = files.has(`${file}.br`);
    const gz = files.has(`${file}.gz`);
    if (br || gz) found.set(`/${path.relative(dir, file).split(path.sep).join('/')}`, { br, gz });
  }
  return found;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

export function serveStatic(): Router {
  const router = express.Router();
  const variants = precompressed(BUILD_DIR);
  // Every file below /build carries its content hash in its name: cached for a year, never revalidated.
  router.use('/build', (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const found = variants.get(req.path);
    const type = TYPES[path.extname(req.path)];
    if (!found || !type) return next();
    const encoding = found.br && accepts(req, 'br') ? 'br' : found.gz && accepts(req, 'gzip') ? 'gzip' : null;
    res.vary('Accept-Encoding');
    if (!encoding) return next();
    const file = path.join(BUILD_DIR, `${req.path}.${encoding === 'br' ? 'br' : 'gz'}`);
    // The compressed file is sent as it is; the compression middleware leaves an encoded response alone.
    res.sendFile(file, { headers: { 'Content-Type': type, 'Content-Encoding': encoding, 'Cache-Control': IMMUTABLE }, cacheControl: false, dotfiles: 'deny' }, (err) => {
      if (err) next(res.headersSent ? err : undefined);
    });
  });
  router.use('/build', express.static(BUILD_DIR, { index: false, immutable: true, maxAge: '365d', fallthrough: false }));
  // The few files at the top of public/ (none of them loaded by a page; kept for old bookmarks), each by its
  // name: a static handler on every path would look on disk once for each page request.
  const files = existsSync(PUBLIC_DIR) ? readdirSync(PUBLIC_DIR).filter((f) => !f.startsWith('.') && statSync(path.join(PUBLIC_DIR, f)).isFile()) : [];
  for (const file of files) {
    router.get(`/${file}`, (_req, res, next) => res.sendFile(path.join(PUBLIC_DIR, file), { maxAge: '1d' }, (err) => err && next(err)));
  }
  return router;
}
