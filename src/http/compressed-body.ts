// Bodies sent whole (res.send with a string: every rendered page, every JSON answer) are compressed in one piece
// and sent with their length: one write to the socket. The `compression` middleware (src/app.ts) compresses as a
// stream: a new zlib stream per response, the work handed to libuv's thread pool and back, and the body sent in
// chunks (the compressed data, then the chunked encoding's end), each its own write. It still compresses what is
// streamed (exports, static files without a precompressed copy); a response that already carries a
// Content-Encoding it leaves alone. Same filter (compressible types, no `no-transform`), negotiation (Brotli
// preferred, else gzip), threshold, quality and Vary as the middleware. The middleware itself is set up on a
// response only once the response turns out to be streamed or large (compressStreamedBodies): most answers are
// whole or small, and its wrappers cost every one of them.
import { hash } from 'node:crypto';
import zlib from 'node:zlib';
import compression from 'compression';
import type { Express, Request, RequestHandler, Response } from 'express';
import Negotiator from 'negotiator';

/** Brotli quality 5, for the middleware too (src/app.ts): 7 % smaller pages than the package's default 4. */
export const BROTLI_QUALITY = 5;
/**
 * A body's size told to the encoder, and a window no larger than the body: by default the encoder sets itself up
 * for 4 MiB of input (its window and hash tables), memory that is taken and zeroed for every page and, with
 * `npm start`'s MALLOC_MMAP_THRESHOLD_, mapped and unmapped each time. The output is the same size (bench/README.md).
 */
function brotliFor(bytes: number): zlib.BrotliOptions {
  const { BROTLI_PARAM_QUALITY, BROTLI_PARAM_SIZE_HINT, BROTLI_PARAM_LGWIN, BROTLI_MIN_WINDOW_BITS, BROTLI_DEFAULT_WINDOW } = zlib.constants;
  const window = Math.min(BROTLI_DEFAULT_WINDOW, Math.max(BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(bytes + 1))));
  return { params: { [BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [BROTLI_PARAM_SIZE_HINT]: bytes, [BROTLI_PARAM_LGWIN]: window } };
}
/** Smaller bodies are sent as they are (the middleware's default threshold). */
const THRESHOLD = 1024;
/**
 * Larger ones (a bulk answer, a big report's JSON) are left to the middleware, which compresses them on libuv's
 * thread pool: compressed here, on the thread that serves, 256 K characters take a few milliseconds in which
 * nothing else is answered.
 */
const WHOLE_UP_TO = 256 * 1024;
const OFFERED = ['br', 'gzip', 'identity'];
const PREFERRED = ['br', 'gzip'];

/**
 * The body's UTF-8 bytes, written into one buffer kept for the process: zlib's sync functions would otherwise turn
 * each page into a new Buffer first (Buffer.from), the largest allocation of a page (a sixth of what a page
 * allocates, bench/README.md). Safe to reuse because the compression runs synchronously and copies what it
 * returns; three bytes per UTF-16 unit is the most UTF-8 needs.
 */
let scratch: Buffer | undefined;
function utf8(body: string): Buffer {
  scratch ??= Buffer.allocUnsafeSlow(3 * WHOLE_UP_TO);
  return scratch.subarray(0, scratch.write(body, 'utf8'));
}

/** The encoding this response gets, as the middleware would choose it; undefined: sent as it is. */
function encodingFor(req: Request, res: Response, body: string): 'br' | 'gzip' | undefined {
  if (body.length < THRESHOLD || body.length > WHOLE_UP_TO || req.method === 'HEAD' || !req.headers['accept-encoding']) return undefined;
  if (res.statusCode === 204 || res.statusCode === 205 || res.statusCode === 304 || res.getHeader('Content-Encoding')) return undefined;
  if (/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(String(res.getHeader('Cache-Control') ?? ''))) return undefined;
  if (!compression.filter(req, res)) return undefined;
  const method = new Negotiator(req).encoding(OFFERED, { preferred: PREFERRED });
  return method === 'br' || method === 'gzip' ? method : undefined;
}

/**
 * Compressed bodies kept by their content: a page asked for again (the same list page, the same record, reloaded)
 * is the same bytes when nothing it shows has changed, since no page carries anything drawn per response (no CSP
 * nonce: src/http/security.ts). Compressing it costs about 0.4 ms, a tenth of what a page costs the server; finding
 * its SHA-256 costs 0.02 ms. The key is the digest of the exact bytes and the encoding, so what is sent is always
 * the compression of what was rendered for this request; only the work is shared. Least recently used first out,
 * at most COMPRESSED_KEPT_BYTES in all.
 */
export class CompressedBodies {
  private readonly kept = new Map<string, Buffer>();
  private bytes = 0;

  constructor(private readonly limit: number) {}

  /** The body compressed with the encoding, from what is kept when the same bytes were compressed before. */
  get(encoding: 'br' | 'gzip', body: Buffer): Buffer {
    const key = `${encoding}${hash('sha256', body, 'base64')}`;
    const known = this.kept.get(key);
    if (known) {
      this.kept.delete(key);
      this.kept.set(key, known);
      return known;
    }
    const compressed = encoding === 'br' ? zlib.brotliCompressSync(body, brotliFor(body.length)) : zlib.gzipSync(body);
    if (compressed.length <= this.limit) {
      this.kept.set(key, compressed);
      this.bytes += compressed.length;
      for (const [oldest, value] of this.kept) {
        if (this.bytes <= this.limit) break;
        this.kept.delete(oldest);
        this.bytes -= value.length;
      }
    }
    return compressed;
  }

  /** How many bodies and compressed bytes are kept (for tests). */
  get size(): { bodies: number; bytes: number } {
    return { bodies: this.kept.size, bytes: this.bytes };
  }
}

/**
 * 4 MiB of compressed bodies per process: about 600 list pages of the bench (6.6 KB each). Small beside the CSV
 * export's bound (150 MB for the whole worker, bench/README.md).
 */
export const COMPRESSED_KEPT_BYTES = 4 * 1024 * 1024;
export const compressedBodies = new CompressedBodies(COMPRESSED_KEPT_BYTES);

/**
 * Compression for every response of the app: bodies sent whole compressed in one piece (compressWholeBodies),
 * streamed and larger ones by the `compression` middleware (compressStreamedBodies), Brotli at BROTLI_QUALITY
 * for both.
 */
export function setUpCompression(app: Express): void {
  compressWholeBodies(app);
  compressStreamedBodies(app, compression({ brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } } }));
}

/** Makes res.send(string) of this app send the body compressed in one piece where the request accepts it. */
function compressWholeBodies(app: Express): void {
  const send = app.response.send;
  app.response.send = function sendCompressed(this: Response, body?: unknown) {
    if (typeof body !== 'string') return send.call(this, body);
    // The type res.send gives a string (it does so itself for the uncompressed body).
    const type = this.get('Content-Type');
    if (typeof type !== 'string') this.type('html');
    else if (!/;\s*charset=/i.test(type)) this.set('Content-Type', `${type}; charset=utf-8`);
    const encoding = encodingFor(this.req, this, body);
    if (!encoding) return send.call(this, body);
    this.vary('Accept-Encoding');
    this.setHeader('Content-Encoding', encoding);
    return send.call(this, compressedBodies.get(encoding, utf8(body)));
  };
}

/** The methods the `compression` middleware (and on-headers, which it uses) wraps on a response. */
const WRAPPED = ['write', 'end', 'on', 'writeHead'] as const;
type Wrapped = (typeof WRAPPED)[number];
type Method = (this: Response, ...args: unknown[]) => unknown;
/** The middleware's wrappers once it was set up on a response; false: the response goes out as it is. */
const STREAMING = Symbol('compression middleware');
type Deciding = Response & { [STREAMING]?: Record<Wrapped, Method> | false };

/** The middleware's own estimate of what end(chunk) sends (index.js, chunkLength). */
function chunkLength(chunk: unknown, encoding: unknown): number {
  if (!chunk || typeof chunk === 'function') return 0;
  if (chunk instanceof Uint8Array) return chunk.length;
  return Buffer.byteLength(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
}

/**
 * Sets up `middleware` (the `compression` package's) on a response only when it may have something to do: at the
 * response's first write(), a `drain` listener (an export waiting for the client must wait on the encoder), an
 * explicit writeHead(), or an end() with a body of at least THRESHOLD bytes that is not encoded yet. A response
 * ended at once with a whole body (every page and JSON answer, compressed by compressWholeBodies or below the
 * threshold), a redirect or an empty answer never meets it: its wrappers, its header hook and its negotiation
 * cost a small answer a tenth of the server's time for it (bench/README.md, "2026-12-02, fourth session").
 *
 * Its wrappers take the place of the methods the app's responses inherit, where they stood when the middleware
 * ran first in the chain: wrappers that later middleware put on a response (express-session's end(), the API's
 * writeHead()) still call through them, and they call the inherited methods. What the middleware then does is its
 * own: the same filter, threshold, negotiation and Vary. The one difference: an answer it would not have
 * compressed for its size no longer says `Vary: Accept-Encoding`, as it is the same whatever the client accepts.
 */
function compressStreamedBodies(app: Express, middleware: RequestHandler): void {
  const response = app.response as unknown as Record<Wrapped, Method>;
  // What the responses inherit (http.ServerResponse, EventEmitter), before they are replaced below.
  const inherited = Object.fromEntries(WRAPPED.map((m) => [m, response[m]])) as Record<Wrapped, Method>;
  const noop = () => {};

  /** Runs the middleware on the response with the inherited methods in place, and keeps its wrappers aside. */
  const setUp = (res: Deciding): Record<Wrapped, Method> => {
    const own = res as unknown as Record<Wrapped, Method | undefined>;
    const before = WRAPPED.map((m) => (Object.hasOwn(res, m) ? own[m] : undefined));
    for (const m of WRAPPED) own[m] = inherited[m];
    middleware(res.req, res, noop);
    const wrappers = Object.fromEntries(WRAPPED.map((m) => [m, own[m]])) as Record<Wrapped, Method>;
    WRAPPED.forEach((m, i) => {
      if (before[i]) own[m] = before[i];
      else delete own[m];
    });
    return (res[STREAMING] = wrappers);
  };
  /** The response's methods from now on: the middleware's, or the inherited ones when it was not set up. */
  const decided = (res: Deciding): Record<Wrapped, Method> => {
    const known = res[STREAMING];
    if (known !== undefined) return known || inherited;
    if (res.headersSent) return (res[STREAMING] = false) || inherited;
    return setUp(res);
  };

  response.write = function (this: Deciding, ...args: unknown[]) {
    return decided(this).write.apply(this, args);
  };
  response.writeHead = function (this: Deciding, ...args: unknown[]) {
    return decided(this).writeHead.apply(this, args);
  };
  response.end = function (this: Deciding, ...args: unknown[]) {
    if (this[STREAMING] === undefined && !this.headersSent) {
      const [chunk, encoding] = args;
      const declared = this.getHeader('Content-Length');
      const small = Number(declared) < THRESHOLD || (!declared && chunkLength(chunk, encoding) < THRESHOLD);
      if (small || this.getHeader('Content-Encoding')) this[STREAMING] = false;
    }
    return decided(this).end.apply(this, args);
  };
  // Called for every listener a response gets: two arguments, as EventEmitter's on() takes.
  response.on = function (this: Deciding, event: unknown, listener: unknown) {
    return (event === 'drain' ? decided(this) : this[STREAMING] || inherited).on.call(this, event, listener);
  };
}
