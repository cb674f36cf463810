import { describe, expect, it } from 'vitest';
import { canonicalJson, hashKey, looksLikeApiKey, newKey, parseKey, visiblePrefix } from './keys.js';

describe('API key format', () => {
  it('names its tenant, has a 43-character secret and is stored as its SHA-256 only', () => {
    const k = newKey('DEMO');
    expect(k.key).toMatch(/^npk_DEMO_[A-Za-z0-9_-]{43}$/);
    expect(k.hash).toBe(hashKey(k.key));
    expect(k.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(k.praefix).toBe(k.key.slice(0, 'npk_DEMO_'.length + 6));
    expect(parseKey(k.key)).toEqual({ mandant: 'DEMO' });
    expect(looksLikeApiKey(k.key)).toBe(true);
    expect(newKey('DEMO').key).not.toBe(k.key);
  });

  it('reads tenants with _ and - and secrets with _ unambiguously', () => {
    const key = `npk_A_B-C_${'_'.repeat(43)}`;
    expect(parseKey(key)).toEqual({ mandant: 'A_B-C' });
    expect(visiblePrefix(key)).toBe('npk_A_B-C_______');
  });

  it('refuses malformed keys', () => {
    for (const bad of ['npk_', 'npk_DEMO', 'npk_DEMO_short', `npk_demo_${'a'.repeat(43)}`, `npk_DEMO_${'a'.repeat(42)}!`, `xnpk_DEMO_${'a'.repeat(43)}`, `npk_DEMO_${'a'.repeat(43)} `]) {
      expect(parseKey(bad), bad).toBeNull();
    }
    expect(looksLikeApiKey('eyJhbGciOiJIUzI1NiJ9.e30.x')).toBe(false);
  });

  it('hashes bodies canonically', () => {
    expect(canonicalJson({ b: 1, a: [{ y: 2, x: null }] })).toBe(canonicalJson({ a: [{ x: null, y: 2 }], b: 1 }));
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: '1' }));
    expect(canonicalJson(undefined)).toBe('null');
  });
});
