// The first part of a multipart body, as the CSRF check reads it: the token only when it is the body's first part
// and a plain field; anything else (a file first, another field first, a preamble) is no token.
import { PassThrough } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { boundaryOf, firstField, MORE, readFirstField } from './first-field.js';

const B = '----WebKitFormBoundaryA1b2C3';
const part = (disposition: string, value: string, extra = '') => `--${B}\r\nContent-Disposition: ${disposition}\r\n${extra}\r\n${value}\r\n`;
const body = (...parts: string[]) => Buffer.from(`${parts.join('')}--${B}--\r\n`);
const TOKEN = 'a3f9c0de.1234567890abcdef|9f8e7d6c5b4a';

describe('boundaryOf', () => {
  it.each([
    [`multipart/form-data; boundary=${B}`, B],
    [`multipart/form-data; boundary="${B}"`, B],
    ['multipart/form-data;boundary=abc; charset=utf-8', 'abc'],
    ['multipart/form-data', null],
    [undefined, null],
  ])('%s → %s', (type, expected) => expect(boundaryOf(type)).toBe(expected));
});

describe('firstField', () => {
  it.each([
    ['the token as the first part', body(part('form-data; name="_csrf"', TOKEN), part('form-data; name="file"; filename="a.csv"', 'x', 'Content-Type: text/csv\r\n')), TOKEN],
    ['an unquoted name', body(part('form-data; name=_csrf', TOKEN)), TOKEN],
    ['a file first, the token after it', body(part('form-data; name="file"; filename="a.csv"', 'x'), part('form-data; name="_csrf"', TOKEN)), undefined],
    ['another field first', body(part('form-data; name="entity"', 'standorte'), part('form-data; name="_csrf"', TOKEN)), undefined],
    ['a file named _csrf', body(part('form-data; name="_csrf"; filename="t.txt"', TOKEN)), undefined],
    ['a file named _csrf (RFC 5987 name)', body(part(`form-data; name="_csrf"; filename*=UTF-8''t.txt`, TOKEN)), undefined],
    ['a field whose name only ends in _csrf', body(part('form-data; name="x_csrf"', TOKEN)), undefined],
    ['no disposition', Buffer.from(`--${B}\r\nContent-Type: text/plain\r\n\r\n${TOKEN}\r\n--${B}--\r\n`), undefined],
    ['a preamble before the first boundary', Buffer.concat([Buffer.from('hello\r\n'), body(part('form-data; name="_csrf"', TOKEN))]), undefined],
    ['another boundary', Buffer.from(`--other\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\n${TOKEN}\r\n--other--\r\n`), undefined],
    ['an empty token', body(part('form-data; name="_csrf"', '')), ''],
  ])('%s', (_, input, expected) => expect(firstField(input, B, '_csrf')).toBe(expected));

  it('asks for more while the first part is incomplete, at every cut', () => {
    const whole = body(part('form-data; name="_csrf"', TOKEN), part('form-data; name="file"; filename="a.csv"', 'x'));
    const end = whole.indexOf(`\r\n--${B}`, 10) + 2 + B.length + 2; // the token's closing boundary is complete
    for (let cut = 0; cut < end; cut++) expect(firstField(whole.subarray(0, cut), B, '_csrf'), `cut at ${cut}`).toBe(MORE);
    expect(firstField(whole.subarray(0, end), B, '_csrf')).toBe(TOKEN);
  });

  it('gives up on a first part larger than any token, without waiting for its end', () => {
    const huge = Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\n${'x'.repeat(5000)}`);
    expect(firstField(huge, B, '_csrf')).toBeUndefined();
    const endlessHeaders = Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="_csrf"\r\nX: ${'y'.repeat(5000)}`);
    expect(firstField(endlessHeaders, B, '_csrf')).toBeUndefined();
  });
});

describe('readFirstField', () => {
  /** A request whose body arrives in the given chunks. */
  function requestOf(chunks: Buffer[], contentType = `multipart/form-data; boundary=${B}`) {
    const stream = new PassThrough();
    Object.assign(stream, { headers: { 'content-type': contentType } });
    for (const c of chunks) stream.write(c);
    stream.end();
    return stream as unknown as IncomingMessage & PassThrough;
  }
  const rest = async (s: PassThrough) => {
    const out: Buffer[] = [];
    for await (const c of s) out.push(c as Buffer);
    return Buffer.concat(out);
  };

  it('reads the token and leaves the whole body, byte for byte, to the next reader, however it is cut', async () => {
    const file = Buffer.alloc(200_000, 7);
    const whole = Buffer.concat([Buffer.from(part('form-data; name="_csrf"', TOKEN)), Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n\r\n`), file, Buffer.from(`\r\n--${B}--\r\n`)]);
    for (const size of [1, 7, 64, 1024, 65536, whole.length]) {
      const chunks: Buffer[] = [];
      for (let i = 0; i < whole.length; i += size) chunks.push(whole.subarray(i, i + size));
      const req = requestOf(chunks);
      expect(await readFirstField(req, '_csrf'), `chunks of ${size}`).toBe(TOKEN);
      expect((await rest(req)).equals(whole), `chunks of ${size}`).toBe(true);
    }
  });

  it('reads no further than the first part when that is a file', async () => {
    const head = Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n\r\n`);
    const req = requestOf([head, Buffer.alloc(100_000, 1)]);
    expect(await readFirstField(req, '_csrf')).toBeUndefined();
    expect((await rest(req)).length).toBe(head.length + 100_000);
  });

  it('is no token when the body ends early or is no multipart at all', async () => {
    expect(await readFirstField(requestOf([Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\n${TOKEN}`)]), '_csrf')).toBeUndefined();
    expect(await readFirstField(requestOf([], `multipart/form-data; boundary=${B}`), '_csrf')).toBeUndefined();
    expect(await readFirstField(requestOf([body(part('form-data; name="_csrf"', TOKEN))], 'multipart/form-data'), '_csrf')).toBeUndefined();
  });
});
