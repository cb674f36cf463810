// JSON API of the master-data import (below /api, behind requireApiUser and requireTenant):
//   POST /stammdaten-import/{entity}/preview   multipart `file` → {token, counts, errors, rows}
//   POST /stammdaten-import/{entity}/commit    {token}          → {counts}
//   GET  /stammdaten-import/{entity}/template                   → CSV (German unless Accept-Language: en)
// Each needs the import right and the edit right of the entity; an unknown entity is a 404. The entity is
// checked before a byte of the upload is read.
import { Router, type Request, type Response } from 'express';
import type { Knex } from 'knex';
import { requireApiPermission } from '../../http/api.js';
import { actorOf, tenantScope } from '../../http/tenant.js';
import { parseOr400 } from '../../http/validate.js';
import { fileError } from '../../import/file.js';
import { apiPreview } from '../../import/present.js';
import { CommitBody, type Translate } from '../../import/schema.js';
import { z } from 'zod';
import { CommitAnswer, PreviewAnswer } from '../../import/present.js';
import { documentApis, Envelope } from '../api-docs/registry.js';

const tag = 'stammdaten-import';
const params = z.object({ entity: z.enum(['standorte', 'produkte', 'tauschpartner']) });
documentApis([
  { method: 'get', path: '/stammdaten-import/:entity/template', tag, summary: 'import.template', params, ok: { 200: { file: ['text/csv'] } } },
  { method: 'post', path: '/stammdaten-import/:entity/preview', tag, summary: 'import.preview', params, body: { multipart: { type: 'object', properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } }, required: ['file'] } }, ok: { 200: Envelope(PreviewAnswer) } },
  { method: 'post', path: '/stammdaten-import/:entity/commit', tag, summary: 'import.commit', params, body: CommitBody, ok: { 200: CommitAnswer } },
]);
import { commit, entityFor, preview } from './service.js';
import { receiveUpload, sendTemplate, translatorsOf } from '../../import/upload.js';

export function stammdatenImportApi(knex: Knex): Router {
  const api = Router();
  const gate = requireApiPermission('stammdaten-import');
  const entityOf = (req: Request, res: Response) => entityFor(req.params.entity, res.locals.principal!);

  api.get('/stammdaten-import/:entity/template', gate, async (req, res) => {
    await sendTemplate(res, entityOf(req, res), req.t as Translate, req.language === 'en' ? 'en' : 'de');
  });

  api.post('/stammdaten-import/:entity/preview', gate, async (req, res) => {
    const cfg = entityOf(req, res);
    const file = await receiveUpload(req, res);
    if (!file) throw fileError('noFile');
    const staging = await preview(tenantScope(knex, res, cfg.area, 'edit'), actorOf(req, res), cfg, file, req.t as Translate, translatorsOf(req));
    res.json({ success: true, data: apiPreview(staging, req.t as Translate) });
  });

  api.post('/stammdaten-import/:entity/commit', gate, async (req, res) => {
    const cfg = entityOf(req, res);
    const { token } = parseOr400(CommitBody, req.body);
    const counts = await commit(tenantScope(knex, res, cfg.area, 'edit'), actorOf(req, res), cfg, token);
    res.json({ success: true, data: { token, counts } });
  });

  return api;
}
