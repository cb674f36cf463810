// The imports' HTTP glue shared by pages and API: receiving the uploaded file, the translators of both
// languages, a CSV download. The upload is multipart with one file of at most 10 MB, held in memory (read from
// there as a stream; nothing touches the disk). Multer's and busboy's errors become the user's errors: 413 for a
// file or a field over the limit, 400 for a broken upload, never a 500.
import type { Request, Response } from 'express';
import multer from 'multer';
import { HttpError } from '../http/errors.js';
import { LANGUAGES } from '../http/i18n.js';
import type { Entity } from './engine.js';
import { fileError } from './file.js';
import { TEMPLATE_TYPES, templateCsv, templateXlsx, type TemplateFormat } from './labelled.js';
import type { Translate } from './schema.js';

export const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** The largest text field of an upload form (an import code travels with the file). */
export const MAX_FIELD_BYTES = 64 * 1024;

export interface UploadedFile {
  buffer: Buffer;
  originalname: string;
}

const single = multer({
  storage: multer.memoryStorage(),
  // Browsers send file names in UTF-8 (busboy's default would read them as Latin-1: "PrÃ¼fung.csv").
  defParamCharset: 'utf8',
  limits: { fileSize: MAX_FILE_BYTES, files: 1, fields: 20, fieldSize: MAX_FIELD_BYTES, parts: 22, headerPairs: 100 },
}).single('file');

export const tooLarge = () => new HttpError(413, 'TOO_LARGE', 'import:errors.tooLarge', [], { max: '10 MB' });

/** Parses the multipart body (fields into req.body); resolves to the file, or null when none was sent. */
export function receiveUpload(req: Request, res: Response): Promise<UploadedFile | null> {
  return new Promise((resolve, reject) => {
    single(req, res, (err?: unknown) => {
      if (!err) return resolve(req.file ? { buffer: req.file.buffer, originalname: req.file.originalname ?? '' } : null);
      if (err instanceof multer.MulterError && (err.code === 'LIMIT_FILE_SIZE' || err.code === 'LIMIT_FIELD_VALUE')) return reject(tooLarge());
      reject(fileError('badUpload'));
    });
  });
}

export const translatorsOf = (req: Request): Translate[] => LANGUAGES.map((lng) => req.i18n.getFixedT(lng) as Translate);

/** Sends a CSV file as a download. */
export function csvDownload(res: Response, filename: string, content: string | Buffer) {
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
  res.send(content);
}

/** Sends the template of a record type's labelled import (header row in the language `t` speaks) as a download. */
export async function sendTemplate(res: Response, cfg: Entity, t: Translate, lang: string, format: TemplateFormat = 'csv') {
  const content = format === 'xlsx' ? await templateXlsx(cfg, t) : templateCsv(cfg, t, lang);
  res.setHeader('Content-Type', TEMPLATE_TYPES[format]);
  res.setHeader('Content-Disposition', `attachment; filename="${t('import:templates.filename', { entity: cfg.resource })}.${format}"`);
  res.send(content);
}

/**
 * The confirm button of a preview page: runs the commit and says how it went as a flash (the page shows the
 * result after the redirect); a user's mistake (already saved, refused, stale) is a message, never an error page.
 */
export async function commitWithFlash(res: Response, run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
    res.flash('success', 'import:flash.committed');
  } catch (err) {
    if (!(err instanceof HttpError) || err.status >= 500 || err.status === 404) throw err;
    res.flash(err.code === 'IMPORT_COMMITTED' ? 'info' : 'error', err.messageKey);
  }
}
