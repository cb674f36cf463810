// The `compression` middleware set up on a response only once it is streamed or large (compressStreamedBodies in
// src/http/compressed-body.ts), on a bare Express app: its wrappers sit where they stood when it ran first in the
// chain, so wrappers other middleware add later still work, and a writer that waits for `drain` before its first
// write waits on the encoder.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express, { type RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../testing/page-weight.js';
import { setUpCompression } from './compressed-body.js';

/** Text that compresses, yet not to nothing: the encoder has real work for each piece. */
const piece = (n: number) => Buffer.from(Array.from({ length: 4096 }, (_, i) => `${n};${(i * 7919) % 10007};Diesel\r\n`).join('').slice(0, 64 * 1024));
const PIECES = 8;

/** As express-session does: end() wrapped once, the wrapper refusing a second call. */
const endWrappedOnce: RequestHandler = (_req, res, next) => {
  const end = res.end;
  let ended = false;
  res.end = function (this: typeof res, ...args: unknown[]) {
    if (ended) return this;
    ended = true;
    if (!this.headersSent) this.setHeader('X-Wrapped', 'once');
    return (end as (...a: unknown[]) => typeof res).apply(this, args);
  } as typeof res.end;
  next();
};

let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  setUpCompression(app);
  app.use(endWrappedOnce);
  app.get('/large', (_req, res) => {
    res.type('text/plain').end(Buffer.concat([piece(1), piece(2)]));
  });
  app.get('/streamed', async (_req, res) => {
    // Listening for `drain` before anything is written, as src/records/export/sink.ts does.
    let wake: (() => void) | null = null;
    res.on('drain', () => wake?.());
    res.type('text/csv');
    for (let n = 0; n < PIECES; n++) {
      if (!res.write(piece(n))) await new Promise<void>((resolve) => (wake = resolve));
    }
    res.end();
  });
  app.get('/head-first', (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end(piece(0));
  });
  server = app.listen(0);
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('the compression middleware, set up when a response needs it', () => {
  for (const accept of ['br', 'gzip', 'identity']) {
    it(`ends a large body through a wrapper added after it, once (${accept})`, async () => {
      const res = await rawRequest(`${base}/large`, { headers: { 'accept-encoding': accept } });
      expect(res.status).toBe(200);
      expect(res.headers['x-wrapped']).toBe('once');
      expect(res.headers['content-encoding']).toBe(accept === 'identity' ? undefined : accept);
      expect(res.body.equals(Buffer.concat([piece(1), piece(2)]))).toBe(true);
    });

    it(`wakes a writer that listened for drain before its first write, and sends every piece (${accept})`, async () => {
      const res = await rawRequest(`${base}/streamed`, { headers: { 'accept-encoding': accept } });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(accept === 'identity' ? undefined : accept);
      expect(res.body.equals(Buffer.concat(Array.from({ length: PIECES }, (_, n) => piece(n))))).toBe(true);
    });
  }

  it('compresses a response whose head was written before its body', async () => {
    const res = await rawRequest(`${base}/head-first`, { headers: { 'accept-encoding': 'br' } });
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.wire.length).toBeLessThan(piece(0).length / 2);
    expect(res.body.equals(piece(0))).toBe(true);
  });
});
