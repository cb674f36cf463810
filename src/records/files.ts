// Files of records (FormField kind `file`): what an upload must be, how it is stored and how it is sent back.
// - An upload is checked by its content, not its name or the browser's type: the first bytes must be those of
//   an allowed kind (PDF, PNG, JPEG), and it may not exceed the field's size (default 10 MB).
// - It is stored in `dateien` (row-level security, backed up with the records) in the record service's
//   transaction; the record keeps a reference (FileRef) in its row and in the version, so replacing a file is a
//   new version and the old version still names its own file.
// - It is sent as an attachment under a safe name, with its checked type and `nosniff`, never inline.
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import multer from 'multer';
import { z } from 'zod';
import type { TenantScope } from '../db/scope.js';
import { HttpError } from '../http/errors.js';

export const FILE_KINDS = {
  pdf: { type: 'application/pdf', extension: 'pdf', magic: [Buffer.from('%PDF-')] },
  png: { type: 'image/png', extension: 'png', magic: [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])] },
  jpeg: { type: 'image/jpeg', extension: 'jpg', magic: [Buffer.from([0xff, 0xd8, 0xff])] },
} as const;
export type FileKind = keyof typeof FILE_KINDS;

export const MAX_RECORD_FILE_BYTES = 10 * 1024 * 1024;

/** A file as multipart parsing hands it over. */
export interface Upload {
  buffer: Buffer;
  originalname: string;
}

/** A checked upload, ready to be stored by the record service. */
export interface CheckedUpload {
  upload: true;
  name: string;
  type: string;
  size: number;
  sha256: string;
  content: Buffer;
}

/** What a record stores of its file: in its row and in each version (the content stays in `dateien`). */
export interface FileRef {
  id: string;
  name: string;
  type: string;
  size: number;
  sha256: string;
}

/** The kind of file the content is, by its first bytes; null when it is none of the allowed ones. */
export function kindOf(content: Buffer, allowed: readonly FileKind[]): FileKind | null {
  return allowed.find((k) => FILE_KINDS[k].magic.some((m) => content.length >= m.length && content.subarray(0, m.length).equals(m))) ?? null;
}

/**
 * A file name that is safe anywhere: no path, no control characters, no quotes, at most 120 characters,
 * ending in the extension of what the content is (an "invoice.pdf.exe" that is a PDF is sent as a PDF).
 */
export function safeFilename(original: string, kind: FileKind): string {
  const base = original.split(/[\\/]/).pop() ?? '';
  const stem = base
    .normalize('NFC')
    .replace(/\.[^.]*$/, '')
    .replace(/[\u0000-\u001f\u007f"'<>:*?|;]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 120 - 1 - FILE_KINDS[kind].extension.length);
  return `${stem || 'datei'}.${FILE_KINDS[kind].extension}`;
}

/** Checks an upload by its content and size; the problem as an i18n key with its values, or the checked file. */
export function checkUpload(file: Upload, opts: { kinds: readonly FileKind[]; maxBytes?: number }): CheckedUpload | { problem: string; params?: Record<string, unknown> } {
  const max = opts.maxBytes ?? MAX_RECORD_FILE_BYTES;
  if (file.buffer.length === 0) return { problem: 'records:files.empty' };
  if (file.buffer.length > max) return { problem: 'records:files.tooLarge', params: { max: `${Math.round(max / 1024 / 1024)} MB` } };
  const kind = kindOf(file.buffer, opts.kinds);
  if (!kind) return { problem: 'records:files.wrongKind', params: { kinds: opts.kinds.map((k) => k.toUpperCase()).join(', ') } };
  return {
    upload: true,
    name: safeFilename(file.originalname, kind),
    type: FILE_KINDS[kind].type,
    size: file.buffer.length,
    sha256: createHash('sha256').update(file.buffer).digest('hex'),
    content: file.buffer,
  };
}

const isUpload = (v: unknown): v is Upload => typeof v === 'object' && v !== null && Buffer.isBuffer((v as Upload).buffer);
export const isCheckedUpload = (v: unknown): v is CheckedUpload => typeof v === 'object' && v !== null && (v as CheckedUpload).upload === true;

/**
 * The input schema of a file field: absent (the stored file stays), or an upload that passes checkUpload.
 * Anything else (a string posted where a file belongs) is refused naming the field.
 */
export function fileField(opts: { kinds: readonly FileKind[]; maxBytes?: number }) {
  return z.unknown().optional().transform((v, ctx) => {
    if (v === undefined || v === null || v === '') return undefined;
    if (!isUpload(v)) {
      ctx.addIssue({ code: 'custom', message: 'records:files.notAFile' });
      return z.NEVER;
    }
    const checked = checkUpload(v, opts);
    if ('problem' in checked) {
      ctx.addIssue({ code: 'custom', message: checked.problem, params: checked.params });
      return z.NEVER;
    }
    return checked;
  });
}

/** Stores a checked upload in the caller's transaction; the reference the record keeps. */
export async function storeFile(tx: TenantScope, file: CheckedUpload, benutzerId: number): Promise<FileRef> {
  const [row] = await tx
    .insert('dateien', { name: file.name, typ: file.type, groesse: file.size, sha256: file.sha256, inhalt: file.content, created_by: benutzerId })
    .returning('id');
  return { id: String(row.id), name: file.name, type: file.type, size: file.size, sha256: file.sha256 };
}

/** The content of a file of this tenant, or null. */
export async function readFile(scope: TenantScope, ref: FileRef): Promise<Buffer | null> {
  const row = await scope.table('dateien').where({ id: ref.id, sha256: ref.sha256 }).first('inhalt');
  return row ? Buffer.from(row.inhalt) : null;
}

/** Sends a stored file as a download: its checked type, a safe name (RFC 6266), nosniff, not cached by others. */
export function sendFile(res: Response, ref: FileRef, content: Buffer): void {
  const ascii = ref.name.replace(/[^\x20-\x7e]/g, '_');
  res.setHeader('Content-Type', ref.type);
  res.setHeader('Content-Disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(ref.name)}`);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', 'private, no-store');
  res.setHeader('Content-Length', String(content.length));
  res.end(content);
}

/**
 * Parses a multipart form with these file fields (the other fields into req.body, each file into req.body as an
 * Upload under its field's name). A file over the size is the field's error, like any other wrong value.
 */
export function receiveFiles(req: Request, res: Response, fields: readonly string[], maxBytes = MAX_RECORD_FILE_BYTES): Promise<void> {
  if (!req.is('multipart/form-data')) return Promise.resolve();
  const parse = multer({
    storage: multer.memoryStorage(),
    // Browsers send file names in UTF-8 (busboy's default would read them as Latin-1).
    defParamCharset: 'utf8',
    limits: { fileSize: maxBytes, files: fields.length, fields: 200, fieldSize: 64 * 1024 },
  }).fields(fields.map((name) => ({ name, maxCount: 1 })));
  return new Promise((resolve, reject) => {
    parse(req, res, (err?: unknown) => {
      if (err instanceof multer.MulterError && err.code === 'LIMIT_FILE_SIZE') {
        // 413 as the contract has it for anything too large, with the field named so the form shows it there.
        const max = `${Math.round(maxBytes / 1024 / 1024)} MB`;
        return reject(new HttpError(413, 'TOO_LARGE', 'records:files.tooLarge', [{ field: err.field ?? fields[0], message: 'records:files.tooLarge', params: { max } }], { max }));
      }
      if (err) return reject(new HttpError(400, 'BAD_REQUEST', 'records:files.badUpload'));
      const files = (req.files ?? {}) as Record<string, Express.Multer.File[]>;
      req.body ??= {};
      for (const name of fields) {
        const [file] = files[name] ?? [];
        if (file && file.size > 0) req.body[name] = { buffer: file.buffer, originalname: file.originalname ?? '' } satisfies Upload;
        else delete req.body[name];
      }
      resolve();
    });
  });
}

/** Replaces checked uploads among the fields by the references of the stored files (in the caller's transaction). */
export async function storeUploads<T extends Record<string, unknown>>(tx: TenantScope, fields: T, benutzerId: number): Promise<T> {
  const out: Record<string, unknown> = { ...fields };
  for (const [k, v] of Object.entries(fields)) if (isCheckedUpload(v)) out[k] = await storeFile(tx, v, benutzerId);
  return out as T;
}
