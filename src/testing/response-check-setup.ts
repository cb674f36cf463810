// Setup of the integration project (vite.config.ts): fails a test whose requests got an answer from /api that
// the API description does not describe (src/testing/response-check.ts), naming method, path, status and why.
import { afterAll, afterEach, expect } from 'vitest';
import { takeViolations, type Violation } from './response-check.js';

/**
 * Test files whose answers are not checked yet, each with the reason. The list only shrinks: a new test file
 * is checked from the start.
 */
export const UNCHECKED: Record<string, string> = {};

const unchecked = () => Object.keys(UNCHECKED).some((f) => (expect.getState().testPath ?? '').endsWith(f));

function fail(violations: Violation[]): void {
  if (!violations.length || unchecked()) return;
  const lines = violations.slice(0, 20).map((v) => `${v.method} ${v.url} → ${v.status} (${v.operation}): ${v.problem}`);
  throw new Error(`${violations.length} answer(s) from /api not as the API description says (src/features/api-docs):\n${lines.join('\n')}`);
}

afterEach(() => fail(takeViolations()));
afterAll(() => fail(takeViolations()));
