// Rendered pages are compressed in one piece and sent with their length (src/http/compressed-body.ts): the same
// page in every encoding a browser may ask for, negotiated as the compression middleware negotiates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app.js';
import { rawRequest, signInWithForms, type CookieJar } from '../testing/page-weight.js';
import { LIST } from '../testing/perf-pages.js';
import { changeElsewhere } from '../testing/statements.js';
import { compressedBodies } from './compressed-body.js';

let t: TestApp;
let base: string;
let admin: CookieJar;

beforeAll(async () => {
  t = await createTestApp();
  base = await t.listen();
  admin = await signInWithForms(base, 'ADMIN', 'Admin12345', 'DEMO');
});

afterAll(async () => {
  await t?.close();
});

/** The page without what a new CSRF cookie changes (a request without the session's cookies gets a token of its own). */
const stable = (html: string) => html.replace(/[0-9a-f]{64}\.[0-9a-f]{64}/g, 'TOKEN');

describe('a JSON answer', () => {
  it('is sent compressed in one piece too, with its length', async () => {
    const headers = { 'x-mandant': 'DEMO', accept: 'application/json' };
    const plain = await rawRequest(`${base}${LIST.api}`, { jar: admin, headers: { ...headers, 'accept-encoding': 'identity' } });
    const res = await rawRequest(`${base}${LIST.api}`, { jar: admin, headers: { ...headers, 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(res.headers['content-length'])).toBe(res.wire.length);
    expect(res.wire.length).toBeLessThan(plain.wire.length);
    expect(JSON.parse(res.body.toString())).toEqual(JSON.parse(plain.body.toString()));
    expect(JSON.parse(res.body.toString()).data.length).toBeGreaterThan(0);
  });
});

describe('a rendered page', () => {
  for (const [accept, expected] of [
    ['gzip, deflate, br, zstd', 'br'], // Chromium over HTTPS: Brotli, though gzip comes first
    ['gzip, deflate', 'gzip'], // Chromium over plain http://
    ['br;q=0.5, gzip', 'gzip'], // the client's preference counts first
    ['identity', undefined],
    ['', undefined],
  ] as const) {
    it(`is sent ${expected ?? 'uncompressed'} for Accept-Encoding "${accept}", with its length and the same content`, async () => {
      const plain = await rawRequest(`${base}/de/${LIST.page}`, { jar: admin, headers: { 'accept-encoding': 'identity' } });
      const res = await rawRequest(`${base}/de/${LIST.page}`, { jar: admin, headers: accept ? { 'accept-encoding': accept } : {} });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(expected);
      // In one piece: its length announced, not chunked.
      expect(res.headers['transfer-encoding']).toBeUndefined();
      expect(Number(res.headers['content-length'])).toBe(res.wire.length);
      expect(res.headers.vary?.split(/,\s*/)).toEqual(expect.arrayContaining(['Accept-Encoding', 'Cookie']));
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(stable(res.body.toString())).toBe(stable(plain.body.toString()));
      expect(res.body.toString()).toContain('<table');
    });
  }

  it('carries every character of a page sent after a longer one (the bytes are written into one reused buffer)', async () => {
    // 2-, 3- and 4-byte UTF-8 (ä, €, 🚚) in the search field the page shows again, after a full list page.
    const search = `/de/${LIST.page}?q=${encodeURIComponent('Öl ä€🚚')}`;
    const long = await rawRequest(`${base}/de/${LIST.page}`, { jar: admin, headers: { 'accept-encoding': 'br' } });
    const plain = await rawRequest(`${base}${search}`, { jar: admin, headers: { 'accept-encoding': 'identity' } });
    for (const accept of ['br', 'gzip']) {
      const res = await rawRequest(`${base}${search}`, { jar: admin, headers: { 'accept-encoding': accept } });
      expect(res.headers['content-encoding']).toBe(accept);
      expect(res.body.length).toBeLessThan(long.body.length);
      expect(res.body.toString()).toContain('value="Öl ä€🚚"');
      expect(stable(res.body.toString())).toBe(stable(plain.body.toString()));
    }
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await rawRequest(`${base}/de/login`, { method: 'HEAD', headers: { 'accept-encoding': 'br' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.wire.length).toBe(0);
  });

  it('is compressed also when it is an error page', async () => {
    const res = await rawRequest(`${base}/de/bewegungsdaten/einlieferungen/EL-999999`, { jar: admin, headers: { 'accept-encoding': 'br' } });
    expect(res.status).toBe(404);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.body.toString()).toContain('<main');
  });

  it('is compressed once while it stays the same bytes, and anew as soon as what it shows changes', async () => {
    const page = `${base}/de/${LIST.page}?${LIST.benchQuery}`;
    const br = { jar: admin, headers: { 'accept-encoding': 'br' } };
    const first = await rawRequest(page, br);
    const kept = compressedBodies.size.bodies;
    const again = await rawRequest(page, br);
    // The same page to the byte: nothing drawn per response (no script nonce), so its Brotli was kept.
    expect(again.wire.equals(first.wire)).toBe(true);
    expect(compressedBodies.size.bodies).toBe(kept);

    // Changed elsewhere: the first row's quantity. The page shows it at once, compressed anew.
    const nr = /EL-\d{6}/.exec(first.body.toString().split('<tbody')[1])?.[0];
    expect(nr).toBeDefined();
    await changeElsewhere(t, 'DEMO', (trx) => trx('einlieferungen').where({ mandant: 'DEMO', nr }).update({ menge: '54321.125' }));
    const changed = await rawRequest(page, br);
    expect(changed.body.toString()).toContain('54.321,125');
    expect(compressedBodies.size.bodies).toBe(kept + 1);
  });
});

describe('a streamed or large answer', () => {
  for (const accept of ['br', 'gzip']) {
    it(`is compressed as it streams (${accept}): a CSV export, the same rows as uncompressed`, async () => {
      const csv = `${base}/de/${LIST.page}?format=csv`;
      const plain = await rawRequest(csv, { jar: admin, headers: { 'accept-encoding': 'identity' } });
      const res = await rawRequest(csv, { jar: admin, headers: { 'accept-encoding': accept } });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(accept);
      expect(res.headers['transfer-encoding']).toBe('chunked');
      expect(res.headers['content-length']).toBeUndefined();
      expect(res.headers.vary?.split(/,\s*/)).toEqual(expect.arrayContaining(['Accept-Encoding']));
      expect(res.wire.length).toBeLessThan(plain.wire.length / 2);
      expect(res.body.toString()).toBe(plain.body.toString());
      expect(res.body.toString().split('\r\n').length).toBeGreaterThan(10);
    });
  }

  it('is compressed by the middleware when it is too large to be compressed in one piece (the API description)', async () => {
    const plain = await rawRequest(`${base}/api/docs/openapi.json`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.wire.length).toBeGreaterThan(256 * 1024);
    const res = await rawRequest(`${base}/api/docs/openapi.json`, { headers: { 'accept-encoding': 'br' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.wire.length).toBeLessThan(plain.wire.length / 4);
    expect(JSON.parse(res.body.toString())).toEqual(JSON.parse(plain.body.toString()));
  });
});

describe('a small answer', () => {
  it('is sent as it is, the same whatever the client accepts', async () => {
    for (const accept of ['br', 'gzip', 'identity']) {
      const res = await rawRequest(`${base}/healthz`, { headers: { 'accept-encoding': accept } });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.vary ?? '').not.toMatch(/Accept-Encoding/i);
      expect(Number(res.headers['content-length'])).toBe(res.wire.length);
      expect(JSON.parse(res.wire.toString())).toEqual({ status: 'ok', db: expect.any(String) });
    }
  });
});
