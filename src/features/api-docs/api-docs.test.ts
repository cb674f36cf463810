// The API description is checked by tools nobody here wrote: the OpenAPI validator of @seriousme (the
// specification's own JSON Schemas for 3.1), ajv compiling every schema in it, the route enumeration of the
// security suites (every registered /api route is described), and the page in both languages without sign-in.
import { Validator } from '@seriousme/openapi-schema-validator';
import request from 'supertest';
import { apiRoutes } from '../../security/routes.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { openApiPath } from './document.js';

let t: TestApp;
let doc: { paths: Record<string, Record<string, unknown>>; [k: string]: unknown };

beforeAll(async () => {
  t = await createTestApp();
  const res = await request(t.app).get('/api/docs/openapi.json');
  expect(res.status).toBe(200);
  doc = res.body;
});

afterAll(() => t?.close());

describe('the OpenAPI description at /api/docs/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 1)?.slice(0, 3000)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('describes every registered /api route, with X-Mandant where a tenant is needed and both security schemes', () => {
    const missing = apiRoutes(t.app).filter((r) => !doc.paths[openApiPath(r.path.replace(/^\/api/, ''))]?.[r.method]);
    expect(missing.map((r) => `${r.method.toUpperCase()} ${r.path}`), 'routes without a description (declare them with documentApi next to the route)').toEqual([]);
    const schemes = (doc.components as { securitySchemes: Record<string, unknown> }).securitySchemes;
    expect(Object.keys(schemes)).toEqual(expect.arrayContaining(['bearerToken', 'apiKey', 'sessionCookie', 'csrfToken']));
    const get = doc.paths['/api/standorte/{nr}'].get as { parameters: { $ref?: string }[]; security: unknown[] };
    expect(get.parameters).toContainEqual({ $ref: '#/components/parameters/XMandant' });
    expect(get.security).toEqual(expect.arrayContaining([{ bearerToken: [] }, { apiKey: [] }]));
    const login = doc.paths['/api/v1/account/login'].post as { parameters: { $ref?: string }[]; security: unknown[] };
    expect(login.parameters).not.toContainEqual({ $ref: '#/components/parameters/XMandant' });
    expect(login.security).toEqual([]);
    // Every POST may carry an Idempotency-Key.
    const posts = Object.values(doc.paths).flatMap((m) => (m.post ? [m.post as { parameters: { $ref?: string }[] }] : []));
    expect(posts.every((p) => p.parameters.some((x) => x.$ref === '#/components/parameters/IdempotencyKey'))).toBe(true);
  });

  it('derives a record list\'s parameters from its list definition', () => {
    const list = doc.paths['/api/einlieferungen'].get as { parameters: { name: string; schema: { enum?: string[] } }[] };
    const names = list.parameters.map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['q', 'sort', 'page', 'pageSize', 'format', 'verknuepfungStatus']));
    expect(list.parameters.find((p) => p.name === 'sort')?.schema.enum).toContain('nr:asc');
  });

  it('is public and cached: no session, no cookie, Cache-Control public and an ETag that revalidates', async () => {
    const res = await request(t.app).get('/api/docs/openapi.json');
    expect(res.headers['cache-control']).toMatch(/^public, max-age=\d+/);
    expect(res.headers['set-cookie']).toBeUndefined();
    const etag = res.headers.etag;
    expect(etag).toMatch(/^"/);
    const again = await request(t.app).get('/api/docs/openapi.json').set('If-None-Match', etag);
    expect(again.status).toBe(304);
  });
});

/**
 * Operations whose success body is not yet described field by field (their statuses and content types are still
 * checked). The list only shrinks: a new route describes its answer (registry.ts), and describing one of these
 * makes this test ask for its removal here.
 */
const UNDESCRIBED: string[] = [
];

describe('answers described field by field', () => {
  it('every operation but the known few describes its JSON answer', () => {
    const undescribed = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).filter(([, op]) => {
      const responses = (op as { responses: Record<string, { content?: Record<string, { schema?: unknown }> }> }).responses;
      return Object.entries(responses).some(([status, r]) => /^2/.test(status) && r.content?.['application/json'] && !r.content['application/json'].schema);
    }).map(([method]) => `${method.toUpperCase()} ${path}`));
    expect(undescribed.filter((o) => !UNDESCRIBED.includes(o)), 'operations whose answer is not described').toEqual([]);
    expect(UNDESCRIBED.filter((o) => !undescribed.includes(o)), 'described now: remove them from UNDESCRIBED').toEqual([]);
  });
});

describe('the page /api/docs', () => {
  it.each([
    ['de', 'API-Beschreibung', 'Einlieferungen'],
    ['en', 'API description', 'Inbound deliveries'],
  ])('renders in %s without sign-in, every operation listed, no script', async (lang, title, tag) => {
    const res = await request(t.app).get(`/api/docs?lang=${lang}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toMatch(/^public, max-age=\d+/);
    expect(res.headers.etag).toBeTruthy();
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.text).toContain(`<html lang="${lang}"`);
    expect(res.text).toContain(title);
    expect(res.text).toContain(tag);
    expect(res.text).toContain('href="/api/docs/openapi.json"');
    expect(res.text).not.toMatch(/<script/);
    const count = Object.values(doc.paths).reduce((n, m) => n + Object.keys(m).length, 0);
    expect(res.text.match(/<details /g)?.length).toBe(count);
  });

  it('speaks the language of Accept-Language when no ?lang= is given', async () => {
    const res = await request(t.app).get('/api/docs').set('Accept-Language', 'en-GB,en;q=0.9');
    expect(res.text).toContain('<html lang="en"');
    expect(res.headers.vary).toMatch(/Accept-Language/);
  });
});
