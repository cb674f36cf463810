// The integration project's globalSetup (vite.config.ts): migrates and seeds the run's snapshot once, before any
// test file, hands it to the files (createTestApp starts each file's database from it), and removes it after.
import type { TestProject } from 'vitest/node';
import { createSnapshot } from './database.js';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { snapshot, remove } = await createSnapshot();
  project.provide('testSnapshot', snapshot);
  return remove;
}
