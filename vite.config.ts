// Vite builds the browser code: the shell script and styles every page loads, and the island mount loop,
// whose islands are split into chunks loaded only on pages that have them. Output: public/build with hashed
// names and a manifest the server reads (src/http/assets.ts).
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
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
        extends: true,
        test: {
          name: 'integration',
          include: ['src/**/*.test.ts', 'islands/**/*.test.{ts,tsx}'],
          exclude: ['src/**/*.browser.test.ts', 'node_modules/**'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: true,
          maxWorkers: 2,
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
