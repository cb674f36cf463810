// Where the project's folders are, whether this code runs from src/ (tsx, vitest) or from the compiled server
// in dist/server/ (npm start): found by walking up to the folder with package.json, once.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`No package.json above ${from}`);
  }
}

export const ROOT = findRoot(here);
/** The compiled server (scripts/build-server.mjs) runs from JavaScript; tsx and vitest run the TypeScript. */
export const COMPILED = import.meta.url.endsWith('.js');
/** Where the compiled server's files are (dist/server, mirroring the project's folders). */
export const COMPILED_DIR = path.join(ROOT, 'dist', 'server');
