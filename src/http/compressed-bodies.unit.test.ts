// Compressed bodies kept by their content (src/http/compressed-body.ts): what is sent is always the compression of
// the body at hand, whatever was kept before; the kept bytes stay within their bound, least recently used first out.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decode as unpack } from '../testing/page-weight.js';
import { CompressedBodies } from './compressed-body.js';

const page = (n: number) => Buffer.from(`<main>${`<tr><td>Lieferung ${n}</td><td>Diesel B7</td></tr>`.repeat(40)}</main>`);

describe('CompressedBodies', () => {
  it('always sends the compression of the body at hand, in the encoding asked for, whatever came before', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom<'br' | 'gzip'>('br', 'gzip'), fc.uint8Array({ maxLength: 3000 })), { maxLength: 40 }), (asks) => {
        const kept = new CompressedBodies(8 * 1024);
        for (const [encoding, bytes] of asks) expect(unpack(kept.get(encoding, Buffer.from(bytes)), encoding).equals(Buffer.from(bytes))).toBe(true);
        expect(kept.size.bytes).toBeLessThanOrEqual(8 * 1024);
      }),
    );
  });

  it('compresses a body once: asked for again it is the same bytes, kept apart per encoding', () => {
    const kept = new CompressedBodies(1024 * 1024);
    const first = kept.get('br', page(1));
    expect(kept.get('br', Buffer.from(page(1)))).toBe(first);
    expect(kept.size.bodies).toBe(1);
    const gzip = kept.get('gzip', page(1));
    expect(gzip).not.toBe(first);
    expect(unpack(gzip, 'gzip').equals(page(1))).toBe(true);
    // One byte changed (a figure on the page): compressed anew.
    const changed = kept.get('br', page(2));
    expect(unpack(changed, 'br').toString()).toContain('Lieferung 2');
    expect(kept.size.bodies).toBe(3);
  });

  it('lets the least recently used go first once its bytes are full, and keeps nothing larger than all it may hold', () => {
    const one = new CompressedBodies(1024 * 1024).get('br', page(1)).length;
    const kept = new CompressedBodies(2 * one + one / 2);
    const first = kept.get('br', page(1));
    kept.get('br', page(2));
    expect(kept.get('br', page(1))).toBe(first); // used again: now the most recent
    kept.get('br', page(3)); // the third does not fit beside two: page 2 goes
    expect(kept.size.bodies).toBe(2);
    expect(kept.get('br', page(1))).toBe(first);
    expect(kept.size.bodies).toBe(2);
    kept.get('br', page(2)); // compressed again, page 3 goes
    expect(kept.size.bytes).toBeLessThanOrEqual(2 * one + one / 2);
    expect(kept.get('br', page(1))).toBe(first);

    const tiny = new CompressedBodies(10);
    expect(unpack(tiny.get('br', page(1)), 'br').equals(page(1))).toBe(true);
    expect(tiny.size).toEqual({ bodies: 0, bytes: 0 });
  });
});
