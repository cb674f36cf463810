// JSON API of the certificate import (below /api, behind requireApiUser and requireTenant), in the two steps of
// the other imports (preview, then commit with its token):
//   GET  /nachweise/import/vorlage?format=csv|xlsx    the template (header row in the language of Accept-Language)
//   POST /nachweise/import/preview   multipart `file` → {token, counts, errors, warned, warnings, rows (values as stored)}
//   POST /nachweise/import/commit    {token}          → {token, counts}
//   GET  /nachweise/import/{token}                    the staged import: its preview, or its result once committed
// Each needs the edit right on certificates (role 22); rows are refused at locations outside that right. Mounted
// before the certificates' own routes, whose `/nachweise/{nr}/…` would otherwise take these paths.
import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Knex } from 'knex';
import { requireApiPermission } from '../../http/api.js';
import { actorOf, tenantScope } from '../../http/tenant.js';
import { parseOr400 } from '../../http/validate.js';
import { fileError } from '../../import/file.js';
import { apiPreview } from '../../import/present.js';
import { CommitBody, Token, type Translate } from '../../import/schema.js';
import { receiveUpload, sendTemplate, translatorsOf } from '../../import/upload.js';
import { TemplateQuery } from './schema.js';
import { z } from 'zod';
import { CommitAnswer, PreviewAnswer } from '../../import/present.js';
import { documentApis, Envelope } from '../api-docs/registry.js';

const tag = 'nachweise-import';
documentApis([
  { method: 'get', path: '/nachweise/import/vorlage', tag, summary: 'import.template', query: TemplateQuery, ok: { 200: { file: ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'] } } },
  { method: 'post', path: '/nachweise/import/preview', tag, summary: 'import.preview', body: { multipart: { type: 'object', properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } }, required: ['file'] } }, ok: { 200: Envelope(PreviewAnswer) } },
  { method: 'post', path: '/nachweise/import/commit', tag, summary: 'import.commit', body: CommitBody, ok: { 200: CommitAnswer } },
  { method: 'get', path: '/nachweise/import/:token', tag, summary: 'import.read', params: z.object({ token: Token }), ok: { 200: Envelope(PreviewAnswer) } },
]);
import { commit, entity, findImport, preview } from './service.js';

/** A path whose last part is no import token belongs to the next route (a certificate's own). */
export const onlyTokens: RequestHandler = (req, _res, next) => next(Token.safeParse(req.params.token).success ? undefined : 'route');

export function nachweiseImportApi(knex: Knex): Router {
  const api = Router();
  const gate = requireApiPermission(entity.area, 'edit');
  const scopeOf = (res: Response) => tenantScope(knex, res, entity.area, 'edit');
  const t = (req: Request) => req.t as Translate;

  api.get('/nachweise/import/vorlage', gate, async (req, res) => {
    const { format } = parseOr400(TemplateQuery, req.query);
    await sendTemplate(res, entity, t(req), req.language === 'en' ? 'en' : 'de', format);
  });

  api.post('/nachweise/import/preview', gate, async (req, res) => {
    const file = await receiveUpload(req, res);
    if (!file) throw fileError('noFile');
    const staging = await preview(scopeOf(res), actorOf(req, res), file, t(req), translatorsOf(req));
    res.json({ success: true, data: apiPreview(staging, t(req)) });
  });

  api.post('/nachweise/import/commit', gate, async (req, res) => {
    const { token } = parseOr400(CommitBody, req.body);
    const counts = await commit(scopeOf(res), actorOf(req, res), token);
    res.json({ success: true, data: { token, counts } });
  });

  // Only a token: `/nachweise/import/versionen` is the history of a certificate numbered "import".
  api.get('/nachweise/import/:token', onlyTokens, gate, async (req, res) => {
    const staging = await findImport(scopeOf(res), actorOf(req, res), Token.parse(req.params.token));
    res.json({ success: true, data: apiPreview(staging, t(req)) });
  });

  return api;
}
