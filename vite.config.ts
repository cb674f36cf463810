// Vite builds the browser code: the shell script and styles every page loads, and the island mount loop,
// whose islands are split into chunks loaded only on pages that have them. Output: public/build with hashed
// names and a manifest the server reads (src/http/assets.ts). Every emitted file is also written compressed
// at the highest levels (.br, .gz): the server sends those as they are, instead of compressing on each request
// at the fast levels compression on the fly can afford (Brotli 11 makes React 14 % smaller than quality 4).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

const COMPRESSIBLE = /\.(js|css|svg|json|txt|map)$/;

function precompress(): Plugin {
  return {
    name: 'precompress',
    apply: 'build',
    writeBundle(options) {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((f) => (statSync(path.join(dir, f)).isDirectory() ? (f === '.vite' ? [] : walk(path.join(dir, f))) : [path.join(dir, f)]));
      for (const file of walk(options.dir!).filter((f) => COMPRESSIBLE.test(f))) {
        const data = readFileSync(file);
        writeFileSync(`${file}.br`, brotliCompressSync(data, {
          params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: data.length },
        }));
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress()],
  publicDir: false,
  base: '/build/',
  build: {
    outDir: 'public/build',
    emptyOutDir: true,
    manifest: true,
    target: 'es2020',
    modulePreload: { polyfill: false },
    rollupOptions: {
      input: ['islands/shell.ts', 'islands/main.ts'],
    },
  },
  test: {
    globals: true,
    projects: [
      {
        // Pure code (no database, no app), named *.unit.test.ts: seconds, for the loop while writing code.
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.unit.test.ts', 'islands/**/*.unit.test.{ts,tsx}'],
          environment: 'node',
          // npm test runs it first (its failures show within seconds), then the integration project, whose
          // worker count differs (vitest runs projects with different maxWorkers in separate groups).
          sequence: { groupOrder: 0 },
        },
      },
      {
        // Through the real app on a real database; every file starts from the run's seeded snapshot, made once
        // by the global setup (src/testing/database.ts).
        extends: true,
        test: {
          name: 'integration',
          include: ['src/**/*.test.ts', 'islands/**/*.test.{ts,tsx}'],
          exclude: ['src/**/*.browser.test.ts', '**/*.unit.test.{ts,tsx}', 'node_modules/**'],
          globalSetup: ['src/testing/global-setup.ts'],
          // Every /api answer a test receives is checked against the API description (src/testing/response-check.ts).
          setupFiles: ['src/testing/response-check-setup.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: true,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['src/**/*.browser.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
