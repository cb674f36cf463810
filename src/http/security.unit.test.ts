import { describe, expect, it } from 'vitest';
import { freshNonce } from './security.js';

describe('freshNonce', () => {
  it('hands out 128-bit nonces, each once, across many refills of its pool', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const nonce = freshNonce();
      expect(Buffer.from(nonce, 'base64')).toHaveLength(16);
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      seen.add(nonce);
    }
    expect(seen.size).toBe(2000);
  });
});
