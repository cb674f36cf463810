// Resolves the Vite build (hashed file names from its manifest) and serves it with a one-year immutable
// cache; HTML is never cached.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type RequestHandler } from 'express';

export const PUBLIC_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../public');
export const BUILD_DIR = path.join(PUBLIC_DIR, 'build');
const MANIFEST = path.join(BUILD_DIR, '.vite', 'manifest.json');

interface ManifestEntry {
  file: string;
  css?: string[];
  imports?: string[];
  isEntry?: boolean;
}

export interface Assets {
  /** Script and style URLs of an entry (`islands/shell.ts`), or none when the build is missing. */
  entry(name: string): { js: string | null; css: string[]; preload: string[] };
}

export function loadAssets(): Assets {
  const manifest: Record<string, ManifestEntry> = existsSync(MANIFEST) ? JSON.parse(readFileSync(MANIFEST, 'utf8')) : {};
  return {
    entry(name) {
      const e = manifest[name];
      if (!e) return { js: null, css: [], preload: [] };
      const url = (f: string) => `/build/${f}`;
      return {
        js: url(e.file),
        css: (e.css ?? []).map(url),
        preload: (e.imports ?? []).map((i) => manifest[i]?.file).filter(Boolean).map((f) => url(f as string)),
      };
    },
  };
}

export function serveStatic(): RequestHandler[] {
  const router = express.Router();
  // Every file below /build carries its content hash in its name.
  router.use('/build', express.static(BUILD_DIR, { index: false, immutable: true, maxAge: '365d', fallthrough: false }));
  router.use(express.static(PUBLIC_DIR, { index: false, maxAge: '1d', dotfiles: 'ignore' }));
  return [router];
}
