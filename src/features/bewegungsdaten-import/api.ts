// JSON API of the movement-data import (below /api, behind requireApiUser and requireTenant):
//   GET    /import/mappings?typ=            saved import codes of the types the user may import (list shape)
//   POST   /import/mappings                 {typ, name, code}            → 201 {data}; faulty code 400, name taken 409
//   GET    /import/mappings/{id}                                         → {data}
//   PUT    /import/mappings/{id}            {name, code, version}        → {data}; older version 409
//   DELETE /import/mappings/{id}?version=                                → {success}
//   POST   /import/preview                  multipart file, typ, codeId | code (default code otherwise)
//                                                                        → {token, counts, errors, rows (values as stored)}
//   POST   /import/commit                   {token}                      → {token, counts}
//   GET    /import/vorlage/{typ}            the example file (fits the default code)
//   GET    /import/{token}                  the staged import: preview, or its result once committed
// The page area bewegungsdaten-import opens all of them; each type needs its own right (19 inbound, 20 outbound).
import { Router, type Request, type Response } from 'express';
import type { Knex } from 'knex';
import { requireApiPermission } from '../../http/api.js';
import { actorOf, tenantScope } from '../../http/tenant.js';
import { idOr404, parseOr400 } from '../../http/validate.js';
import { fileError } from '../../import/file.js';
import { apiPreview } from '../../import/present.js';
import { CommitBody, Token, type Translate } from '../../import/schema.js';
import { csvDownload, receiveUpload } from '../../import/upload.js';
import { IMPORT_AREAS } from '../../permissions/index.js';
import { exampleCsv, exampleFilename } from './defaults.js';
import type { ImportTyp } from './mapping.js';
import type { ImportCode } from './repo.js';
import { CodeId, CreateCode, DeleteCode, PreviewFields, UpdateCode } from './schema.js';
import { z } from 'zod';
import { CommitAnswer, PreviewAnswer } from '../../import/present.js';
import { Done, documentApis, Envelope, Page } from '../api-docs/registry.js';

const Code = z.object({ id: z.number().int(), typ: z.string(), name: z.string(), code: z.string(), version: z.number().int(), updatedAt: z.string() }).strict();
const Preview = Envelope(PreviewAnswer.extend({ typ: z.string() }));
const params = z.object({ id: CodeId });
const tag = 'import';
documentApis([
  { method: 'get', path: '/import/mappings', tag, summary: 'import.codes', query: z.object({ typ: z.string().optional() }), ok: { 200: Page(Code) } },
  { method: 'post', path: '/import/mappings', tag, summary: 'import.codeCreate', body: CreateCode, ok: { 201: Envelope(Code) } },
  { method: 'get', path: '/import/mappings/:id', tag, summary: 'import.codeRead', params, ok: { 200: Envelope(Code) } },
  { method: 'put', path: '/import/mappings/:id', tag, summary: 'import.codeUpdate', params, body: UpdateCode, ok: { 200: Envelope(Code) } },
  { method: 'delete', path: '/import/mappings/:id', tag, summary: 'import.codeDelete', params, query: DeleteCode, ok: { 200: Done } },
  { method: 'get', path: '/import/vorlage/:typ', tag, summary: 'import.template', ok: { 200: { file: ['text/csv'] } } },
  {
    method: 'post', path: '/import/preview', tag, summary: 'import.preview', ok: { 200: Preview },
    body: { multipart: z.object({ file: z.string().meta({ contentMediaType: 'application/octet-stream' }), ...PreviewFields.shape }) },
  },
  { method: 'post', path: '/import/commit', tag, summary: 'import.commit', body: CommitBody, ok: { 200: CommitAnswer } },
  { method: 'get', path: '/import/:token', tag, summary: 'import.read', params: z.object({ token: Token }), ok: { 200: Preview } },
]);
import { codeFor, commit, createCode, deleteCode, findImport, getCode, listCodes, preview, typeFor, updateCode } from './service.js';

const present = (c: ImportCode) => ({ id: c.id, typ: c.typ, name: c.name, code: c.code, version: c.version, updatedAt: c.updatedAt });

export function bewegungsdatenImportApi(knex: Knex): Router {
  const api = Router();
  const gate = requireApiPermission('bewegungsdaten-import');
  const scopeOf = (res: Response) => tenantScope(knex, res);
  const importScope = (res: Response, typ: ImportTyp) => tenantScope(knex, res, IMPORT_AREAS[typ], 'edit');
  const idOf = (req: Request) => {
    return idOr404(CodeId, req.params.id, 'bewegungsdaten-import:errors.notFound');
  };
  const t = (req: Request) => req.t as Translate;

  api.get('/import/mappings', gate, async (req, res) => {
    const typ = req.query.typ === undefined || req.query.typ === '' ? undefined : typeFor(req.query.typ, res.locals.principal!);
    const data = (await listCodes(scopeOf(res), res.locals.principal!, typ)).map(present);
    res.json({ data, total: data.length, page: 1, pageSize: Math.max(data.length, 1) });
  });

  api.post('/import/mappings', gate, async (req, res) => {
    const body = parseOr400(CreateCode, req.body);
    const created = await createCode(scopeOf(res), actorOf(req, res), body, t(req));
    res.status(201).json({ success: true, data: present(created) });
  });

  api.get('/import/mappings/:id', gate, async (req, res) => {
    res.json({ success: true, data: present(await getCode(scopeOf(res), res.locals.principal!, idOf(req))) });
  });

  api.put('/import/mappings/:id', gate, async (req, res) => {
    const id = idOf(req);
    const body = parseOr400(UpdateCode, req.body);
    res.json({ success: true, data: present(await updateCode(scopeOf(res), actorOf(req, res), id, body, t(req))) });
  });

  api.delete('/import/mappings/:id', gate, async (req, res) => {
    const id = idOf(req);
    const { version } = parseOr400(DeleteCode, req.query);
    await deleteCode(scopeOf(res), actorOf(req, res), id, version);
    res.json({ success: true });
  });

  api.get('/import/vorlage/:typ', gate, (req, res) => {
    const typ = typeFor(req.params.typ, res.locals.principal!);
    csvDownload(res, exampleFilename(typ), exampleCsv(typ));
  });

  api.post('/import/preview', gate, async (req, res) => {
    const file = await receiveUpload(req, res);
    const fields = parseOr400(PreviewFields, req.body ?? {});
    const typ = typeFor(fields.typ, res.locals.principal!);
    if (!file) throw fileError('noFile');
    const scope = importScope(res, typ);
    const code = await codeFor(scope, res.locals.principal!, typ, fields, t(req), req.language);
    const staging = await preview(scope, actorOf(req, res), typ, file, code, t(req));
    res.json({ success: true, data: { ...apiPreview(staging, t(req)), typ } });
  });

  api.post('/import/commit', gate, async (req, res) => {
    const { token } = parseOr400(CommitBody, req.body);
    const actor = actorOf(req, res);
    const staging = await findImport(scopeOf(res), actor, token);
    const typ = typeFor(staging.entity, actor.principal);
    const counts = await commit(importScope(res, typ), actor, typ, token);
    res.json({ success: true, data: { token, counts } });
  });

  api.get('/import/:token', gate, async (req, res) => {
    const token = idOr404(Token, req.params.token, 'import:errors.notFound');
    const actor = actorOf(req, res);
    const staging = await findImport(scopeOf(res), actor, token);
    const typ = typeFor(staging.entity, actor.principal);
    res.json({ success: true, data: { ...apiPreview(staging, t(req)), typ } });
  });

  return api;
}
