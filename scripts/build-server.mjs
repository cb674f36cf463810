// Compiles the server for `npm start` into dist/server: the entry point and every migration, bundled with
// esbuild (our code only; packages stay in node_modules), in the same folder layout as the sources. Running
// compiled JavaScript instead of TypeScript through tsx's loader saves the loader's thread and its caches
// (about 40 MB of the server's memory) and its start-up work. Takes about a second; `npm run dev` and the
// tests still run the TypeScript directly.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const migrations = readdirSync(path.join(ROOT, 'migrations'))
  .filter((f) => /^\d{14}_.+\.ts$/.test(f))
  .map((f) => path.join('migrations', f));

await build({
  absWorkingDir: ROOT,
  // The embedded database's thread is started from its own file (src/db/pglite-thread.ts).
  entryPoints: ['src/cli/start.ts', 'src/db/pglite-thread.worker.ts', ...migrations],
  outbase: '.',
  outdir: 'dist/server',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  // Stack traces in the log name the sources (node --enable-source-maps reads these).
  sourcemap: 'linked',
  logLevel: 'warning',
});
