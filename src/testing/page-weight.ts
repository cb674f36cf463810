// Page weight as a browser on a cold cache pays it: the HTML and every stylesheet, script, module preload,
// image and font it loads, counted in the bytes that cross the wire (compressed as the server sends them).
// Plain node:http, because fetch and supertest decompress on their own and hide what was sent.
import http from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

export type ResourceKind = 'html' | 'css' | 'js' | 'font' | 'image' | 'other';

export interface Fetched {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body as sent (compressed when Content-Encoding says so). */
  wire: Buffer;
  /** The body decoded. */
  body: Buffer;
}

export interface Resource {
  url: string;
  kind: ResourceKind;
  status: number;
  /** Bytes on the wire (body only; headers are small and depend on the connection). */
  bytes: number;
  /** Bytes after decoding. */
  rawBytes: number;
  encoding: string | null;
  cacheControl: string | null;
  vary: string | null;
  contentType: string | null;
  /** How it was found: the tag or import that loads it. */
  via: string;
}

export interface PageWeight {
  path: string;
  html: Resource;
  resources: Resource[];
  /** Bytes on the wire of the HTML and everything it loads. */
  total: number;
  /** The decoded HTML, for further assertions. */
  text: string;
  /** Decoded CSS and JS by URL. */
  sources: Map<string, string>;
}

export class CookieJar {
  private cookies = new Map<string, string>();

  store(headers: http.IncomingHttpHeaders): void {
    for (const line of headers['set-cookie'] ?? []) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

export function decode(wire: Buffer, encoding: string | undefined): Buffer {
  switch ((encoding ?? '').toLowerCase()) {
    case 'br':
      return brotliDecompressSync(wire);
    case 'gzip':
      return gunzipSync(wire);
    case 'deflate':
      return inflateSync(wire);
    default:
      return wire;
  }
}

/** One request; the body is kept as sent and decoded. */
export function rawRequest(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string; jar?: CookieJar } = {},
): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...opts.headers };
    const cookie = opts.jar?.header();
    if (cookie) headers.cookie = cookie;
    if (opts.body !== undefined) headers['content-length'] = String(Buffer.byteLength(opts.body));
    const req = http.request(url, { method: opts.method ?? 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        opts.jar?.store(res.headers);
        const wire = Buffer.concat(chunks);
        try {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, wire, body: decode(wire, res.headers['content-encoding']) });
        } catch (err) {
          reject(err);
        }
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

const hiddenInput = (html: string, name: string) => html.match(new RegExp(`name="${name}" value="([^"]*)"`))?.[1] ?? '';

/**
 * Signs in through the HTML forms alone, as a browser without JavaScript does: the login form, then the tenant
 * selection. Throws when a step does not lead on.
 */
export async function signInWithForms(baseUrl: string, login: string, password: string, mandant?: string, lang = 'de'): Promise<CookieJar> {
  const jar = new CookieJar();
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const page = await rawRequest(`${baseUrl}/${lang}/login`, { jar });
  const posted = await rawRequest(`${baseUrl}/${lang}/login`, {
    method: 'POST', jar, headers: form,
    body: new URLSearchParams({ _csrf: hiddenInput(page.body.toString(), '_csrf'), login, password }).toString(),
  });
  if (posted.status !== 302) throw new Error(`sign-in of ${login} answered ${posted.status}`);
  if (String(posted.headers.location).includes('/mandant-selection') && mandant) {
    const choose = await rawRequest(`${baseUrl}/${lang}/mandant-selection`, { jar });
    const chosen = await rawRequest(`${baseUrl}/${lang}/mandant-selection`, {
      method: 'POST', jar, headers: form,
      body: new URLSearchParams({ _csrf: hiddenInput(choose.body.toString(), '_csrf'), mandant }).toString(),
    });
    if (chosen.status !== 302) throw new Error(`tenant selection ${mandant} answered ${chosen.status}`);
  }
  return jar;
}

const ATTR = (tag: string, name: string) => tag.match(new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i'))?.slice(1).find((v) => v !== undefined);
const unescapeHtml = (s: string) => s.replace(/&amp;/g, '&').replace(/&#34;|&quot;/g, '"').replace(/&#39;/g, "'");

interface Ref {
  url: string;
  via: string;
}

/** What an HTML document loads: stylesheets, scripts, module preloads, icons, images, inline url()s. */
export function htmlReferences(html: string): Ref[] {
  const refs: Ref[] = [];
  for (const tag of html.match(/<link\b[^>]*>/gi) ?? []) {
    const rel = (ATTR(tag, 'rel') ?? '').toLowerCase().split(/\s+/);
    const href = ATTR(tag, 'href');
    // Hints that fetch nothing by themselves (preconnect, dns-prefetch) and links to other pages are left out.
    if (href && rel.some((r) => ['stylesheet', 'modulepreload', 'preload', 'icon', 'apple-touch-icon', 'manifest'].includes(r))) {
      refs.push({ url: unescapeHtml(href), via: `link rel=${rel.join(' ')}` });
    }
  }
  for (const tag of html.match(/<script\b[^>]*>/gi) ?? []) {
    const src = ATTR(tag, 'src');
    if (src) refs.push({ url: unescapeHtml(src), via: 'script' });
  }
  for (const tag of html.match(/<(?:img|source|input|video|audio|iframe|embed|object)\b[^>]*>/gi) ?? []) {
    for (const name of ['src', 'data', 'poster']) {
      const v = ATTR(tag, name);
      if (v && !(tag.startsWith('<input') && name !== 'src')) refs.push({ url: unescapeHtml(v), via: tag.slice(1).split(/[\s>]/)[0] });
    }
    const srcset = ATTR(tag, 'srcset');
    for (const part of srcset?.split(',') ?? []) refs.push({ url: unescapeHtml(part.trim().split(/\s+/)[0]), via: 'srcset' });
  }
  // SVG <use> and <image> pointing outside the document: the icons' sprite, fetched once per address.
  for (const tag of html.match(/<(?:use|image)\b[^>]*>/gi) ?? []) {
    const href = ATTR(tag, 'href') ?? ATTR(tag, 'xlink:href');
    if (href && !href.startsWith('#')) refs.push({ url: unescapeHtml(href.split('#')[0]), via: 'svg use' });
  }
  for (const block of html.match(/<style\b[^>]*>[\s\S]*?<\/style>/gi) ?? []) refs.push(...cssReferences(block));
  for (const attr of html.match(/\sstyle\s*=\s*"[^"]*"/gi) ?? []) refs.push(...cssReferences(unescapeHtml(attr)));
  return refs.filter((r) => r.url && !r.url.startsWith('data:'));
}

export function cssReferences(css: string): Ref[] {
  const refs: Ref[] = [];
  for (const m of css.matchAll(/url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s]*))\s*\)/gi)) refs.push({ url: m[1] ?? m[2] ?? m[3], via: 'css url()' });
  for (const m of css.matchAll(/@import\s+(?:"([^"]*)"|'([^']*)')/gi)) refs.push({ url: m[1] ?? m[2], via: 'css @import' });
  return refs.filter((r) => r.url && !r.url.startsWith('data:') && !r.url.startsWith('#'));
}

/**
 * Static imports of an ES module as Vite emits them (`import{a as b}from"./x.js"`, `import"./y.js"`,
 * `export{…}from"./z.js"`): what the browser fetches before running it. Dynamic `import()` is left out; it
 * loads on demand (an island's code), and the page declares what it needs as modulepreload links.
 */
export function jsStaticImports(js: string): Ref[] {
  const refs: Ref[] = [];
  const re = /(?:^|[;}\n\s])(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"']+\.m?js)["']/g;
  for (const m of js.matchAll(re)) refs.push({ url: m[1], via: 'js import' });
  return refs;
}

function kindOf(url: string, contentType: string | null): ResourceKind {
  const ct = (contentType ?? '').toLowerCase();
  const ext = new URL(url).pathname.split('.').pop()?.toLowerCase() ?? '';
  if (ct.includes('text/html')) return 'html';
  if (ct.includes('text/css') || ext === 'css') return 'css';
  if (ct.includes('javascript') || ext === 'js' || ext === 'mjs') return 'js';
  if (ct.startsWith('font/') || ct.includes('font') || ['woff', 'woff2', 'ttf', 'otf', 'eot'].includes(ext)) return 'font';
  if (ct.startsWith('image/') || ['svg', 'png', 'jpg', 'jpeg', 'gif', 'webp', 'avif', 'ico'].includes(ext)) return 'image';
  return 'other';
}

function resourceOf(url: string, res: Fetched, via: string): Resource {
  const header = (name: string) => {
    const v = res.headers[name];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : String(v);
  };
  return {
    url,
    kind: kindOf(url, header('content-type')),
    status: res.status,
    bytes: res.wire.length,
    rawBytes: res.body.length,
    encoding: header('content-encoding'),
    cacheControl: header('cache-control'),
    vary: header('vary'),
    contentType: header('content-type'),
    via,
  };
}

/**
 * Fetches a page and, breadth first, everything it loads, each URL once (a cold cache), with the given
 * Accept-Encoding. Only same-origin resources are fetched; a foreign one is recorded with status 0 so a test
 * can refuse it.
 */
export async function measurePage(
  baseUrl: string,
  path: string,
  opts: { jar?: CookieJar; acceptEncoding?: string } = {},
): Promise<PageWeight> {
  const headers = { 'accept-encoding': opts.acceptEncoding ?? 'br, gzip' };
  const pageUrl = new URL(path, baseUrl).toString();
  const page = await rawRequest(pageUrl, { headers: { ...headers, accept: 'text/html' }, jar: opts.jar });
  if (page.status !== 200) throw new Error(`${path} answered ${page.status}${page.headers.location ? ` → ${page.headers.location}` : ''}`);
  const html = resourceOf(pageUrl, page, 'document');
  const text = page.body.toString('utf8');
  const sources = new Map<string, string>();
  const seen = new Set<string>([pageUrl]);
  const resources: Resource[] = [];
  const queue: { url: string; via: string }[] = htmlReferences(text).map((r) => ({ url: new URL(r.url, pageUrl).toString(), via: r.via }));
  while (queue.length) {
    const { url, via } = queue.shift()!;
    if (seen.has(url)) continue;
    seen.add(url);
    if (new URL(url).origin !== new URL(baseUrl).origin) {
      resources.push({ url, kind: kindOf(url, null), status: 0, bytes: 0, rawBytes: 0, encoding: null, cacheControl: null, vary: null, contentType: null, via });
      continue;
    }
    const res = await rawRequest(url, { headers, jar: opts.jar });
    const resource = resourceOf(url, res, via);
    resources.push(resource);
    const body = res.body.toString('utf8');
    if (resource.kind === 'css' || resource.kind === 'js') sources.set(url, body);
    const more = resource.kind === 'css' ? cssReferences(body) : resource.kind === 'js' ? jsStaticImports(body) : [];
    for (const r of more) queue.push({ url: new URL(r.url, url).toString(), via: r.via });
  }
  return { path, html, resources, total: html.bytes + resources.reduce((sum, r) => sum + r.bytes, 0), text, sources };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

/** A small table of measured pages against their budgets, for the test output. */
export function weightTable(rows: { name: string; br: PageWeight; gzip: PageWeight; budget: number }[]): string {
  const head = ['page', 'HTML br', 'CSS br', 'JS br', 'other br', 'total br', 'total gzip', 'files', 'budget'];
  const body = rows.map(({ name, br, gzip, budget }) => {
    const sum = (w: PageWeight, kind: ResourceKind) => w.resources.filter((r) => r.kind === kind).reduce((s, r) => s + r.bytes, 0);
    const other = br.resources.filter((r) => !['css', 'js'].includes(r.kind)).reduce((s, r) => s + r.bytes, 0);
    return [name, kb(br.html.bytes), kb(sum(br, 'css')), kb(sum(br, 'js')), kb(other), kb(br.total), kb(gzip.total), String(br.resources.length + 1), kb(budget)];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}
