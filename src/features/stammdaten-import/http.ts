// The master-data import's template download, the same for the page and the API.
import type { Response } from 'express';
import { csvDownload } from '../../import/upload.js';
import type { Translate } from './columns.js';
import { templateCsv, type Entity } from './service.js';

export function templateResponse(res: Response, cfg: Entity, t: Translate, lang: string) {
  csvDownload(res, `${t('import:templates.filename', { entity: cfg.resource })}.csv`, templateCsv(cfg, t, lang));
}
