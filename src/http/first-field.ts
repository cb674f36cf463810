// Reads the first part of a multipart body without taking it away from the route's parser. The CSRF check needs
// the token before any route runs, but a file upload's body is parsed only by its route (multer, with that route's
// limits). Browsers send form fields in document order, so a form whose first field is the hidden `_csrf` sends the
// token as the body's first part: this reads up to that part's end, and puts everything read back on the stream
// (`unshift`, meant for exactly this), so multer later reads the body as it was sent. Nothing of a file is read:
// a body whose first part is not that field is refused before its second part arrives.
import type { IncomingMessage } from 'node:http';

/** A CSRF token is about 150 characters; a first part larger than this is not one. */
const MAX_FIRST_PART = 4096;

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

/** The boundary from a multipart Content-Type (quoted or not, RFC 2046), or null. */
export function boundaryOf(contentType: string | undefined): string | null {
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType ?? '');
  return m ? (m[1] ?? m[2]) : null;
}

/** firstField's answer while the first part is not complete yet. */
export const MORE = Symbol('more');

/**
 * The value of the body's first part if that part is the plain field `name` (no file); undefined if it is anything
 * else (a file, another field, no part, a preamble, something malformed); MORE while the part is not complete.
 * Strict on purpose: browsers and HTTP clients write `--boundary` right at the start and nothing else.
 */
export function firstField(body: Buffer, boundary: string, name: string): string | undefined | typeof MORE {
  const open = Buffer.from(`--${boundary}\r\n`);
  if (body.length < open.length) return body.equals(open.subarray(0, body.length)) ? MORE : undefined;
  if (!body.subarray(0, open.length).equals(open)) return undefined;
  const headersEnd = body.indexOf(HEADER_END, open.length);
  if (headersEnd < 0) return body.length > MAX_FIRST_PART ? undefined : MORE;
  const headers = body.subarray(open.length, headersEnd).toString('latin1').split('\r\n');
  const disposition = headers.find((h) => /^content-disposition:/i.test(h));
  if (!disposition) return undefined;
  const params = disposition.slice(disposition.indexOf(':') + 1);
  // A file part (filename, or filename* of RFC 5987) is never the token, whatever it is named.
  if (!/^\s*form-data\s*(;|$)/i.test(params) || /;\s*filename\*?\s*=/i.test(params)) return undefined;
  const named = /;\s*name\s*=\s*(?:"([^"]*)"|([^\s;"]+))/i.exec(params);
  if ((named?.[1] ?? named?.[2]) !== name) return undefined;
  const valueStart = headersEnd + HEADER_END.length;
  const close = Buffer.concat([CRLF, Buffer.from(`--${boundary}`)]);
  const valueEnd = body.indexOf(close, valueStart);
  if (valueEnd < 0) return body.length > MAX_FIRST_PART ? undefined : MORE;
  return body.subarray(valueStart, valueEnd).toString('utf8');
}

/**
 * Reads the request until its multipart body's first part is complete and gives that part's value if it is the
 * field `name` (see firstField), else undefined. What was read goes back on the stream, so the request's body is
 * whole for the next reader. At most MAX_FIRST_PART bytes (plus one network chunk) are ever read here.
 */
export function readFirstField(req: IncomingMessage, name: string): Promise<string | undefined> {
  const boundary = boundaryOf(req.headers['content-type']);
  if (!boundary) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (value: string | undefined, putBack: boolean) => {
      if (done) return;
      done = true;
      req.pause();
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onEnd);
      req.off('aborted', onEnd);
      // Synchronously, inside the 'data' event: the stream cannot have emitted 'end' yet, so unshift is allowed.
      if (putBack && chunks.length) req.unshift(Buffer.concat(chunks));
      resolve(value);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      const found = firstField(Buffer.concat(chunks), boundary, name);
      if (found !== MORE) finish(found, true);
    };
    // The body ended (or broke) before its first part did: no token. Nothing can be put back after 'end'.
    const onEnd = () => finish(undefined, false);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onEnd);
    req.on('aborted', onEnd);
  });
}
