// The master-data import: preview (read, map, validate, classify, stage; nothing stored in the entity) and
// commit (all staged rows in one transaction, or nothing). Works for every entity of STAMMDATEN_ENTITIES from
// its EntityConfig alone: schema, form fields, store, location of a record.
//
// Scale: the file is read as a stream and handled in chunks of CHUNK_ROWS rows; after each chunk the event
// loop gets a turn (setImmediate), so other users' requests are served while a 50,000-row file is checked.
// Only the numbers seen so far, the first rows and the refused rows are kept in memory; valid rows go to the
// staging table chunk by chunk and are read back the same way by the commit.
import { randomUUID } from 'node:crypto';
import { stringify } from 'csv-stringify/sync';
import type { Knex } from 'knex';
import { audit } from '../../db/audit.js';
import type { TenantScope } from '../../db/scope.js';
import type { Meta } from '../../db/versioned.js';
import { HttpError } from '../../http/errors.js';
import { recordNr } from '../../http/fields.js';
import type { RequestActor } from '../../http/tenant.js';
import { fieldErrors } from '../../http/validate.js';
import { can, type Principal } from '../../permissions/index.js';
import type { EntityConfig } from '../../records/entity.js';
import { STAMMDATEN_ENTITIES } from '../stammdaten/registry.js';
import { importFields, mapHeaders, normalizeHeader, NR, templateHeaders, type HeaderMap, type Translate } from './columns.js';
import { fileError, readRows } from './file.js';
import { stagingRepo, type Staging } from './repo.js';
import type { Counts, PreviewRow, RowError, StagedRow, Summary } from './schema.js';
import { changesOf, createMany, currentRecords, updateMany } from './versioned-batch.js';

export type Entity = EntityConfig<Record<string, unknown>>;

export const CHUNK_ROWS = 500;
export const PREVIEW_ROWS = 200;
export const MAX_LISTED_REFUSED = 1000;
export const MAX_ERRORS = 2000;

const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The entities the user may import: those whose area they may edit. */
export function permittedEntities(principal: Principal): Entity[] {
  return STAMMDATEN_ENTITIES.filter((cfg) => can(principal, 'edit', cfg.area));
}

/** The entity of a URL or form: unknown → 404, not editable by the user → 403. */
export function entityFor(resource: unknown, principal: Principal): Entity {
  const cfg = STAMMDATEN_ENTITIES.find((e) => e.resource === resource);
  if (!cfg) throw new HttpError(404, 'NOT_FOUND', 'import:errors.unknownEntity');
  if (!can(principal, 'edit', cfg.area)) throw new HttpError(403, 'FORBIDDEN', 'errors.forbidden');
  return cfg;
}

/** "A", "B", … "AA": how a spreadsheet names a column that has no header. */
function columnLetter(index: number): string {
  let s = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

const TRUE_WORDS = new Set(['ja', 'j', 'yes', 'y', 'x', 'wahr', 'true', '1', 'on']);
const FALSE_WORDS = new Set(['nein', 'n', 'no', 'falsch', 'false', '0', 'off', '']);

/**
 * Cell text → what the entity's schema expects. Checkboxes accept ja/nein, yes/no, x, 1/0 (and the list
 * export's Ja/Nein); selects accept the value or its label in either language. Everything else is passed
 * as written: the schema decides (decimals take a comma or a point; "=SUM(A1)" is just text).
 */
function cellConverters(cfg: Entity, translators: Translate[]): Map<string, (v: string) => unknown> {
  const converters = new Map<string, (v: string) => unknown>();
  for (const f of importFields(cfg)) {
    if (f.kind === 'checkbox') {
      converters.set(f.name, (v) => {
        const w = v.trim().toLowerCase();
        return TRUE_WORDS.has(w) ? true : FALSE_WORDS.has(w) ? false : v;
      });
    } else if (f.kind === 'select' && f.options) {
      const byText = new Map<string, string>();
      for (const o of f.options) {
        byText.set(normalizeHeader(o.value), o.value);
        for (const t of translators) if (!byText.has(normalizeHeader(t(o.label)))) byText.set(normalizeHeader(t(o.label)), o.value);
      }
      converters.set(f.name, (v) => (v.trim() === '' ? '' : byText.get(normalizeHeader(v)) ?? v));
    }
  }
  return converters;
}

interface CheckedRow {
  row: number;
  nr: string;
  title: string;
  values: Record<string, unknown> | null;
  errors: RowError[];
}

/** Row → schema input → validated values, or every error of the row with its column. */
function checkRow(cfg: Entity, header: HeaderMap, converters: Map<string, (v: string) => unknown>, row: number, cells: string[], seen: Map<string, number>): CheckedRow {
  const errors: RowError[] = [];
  const input: Record<string, unknown> = {};
  cells.forEach((value, i) => {
    const column = header.columns[i];
    if (!column?.field) {
      if (value.trim()) errors.push({ row, column: column?.header || columnLetter(i), message: 'import:errors.valueWithoutHeader' });
      return;
    }
    const convert = converters.get(column.field);
    input[column.field] = convert ? convert(value) : value;
  });
  const nrColumn = header.headerOf(NR);
  const nr = recordNr().safeParse(input[NR] ?? '');
  if (!nr.success) for (const e of fieldErrors(nr.error)) errors.push({ row, column: nrColumn, message: e.message });
  const { [NR]: _nr, ...fieldInput } = input;
  // Fields without a column: the entity's defaults (a new record gets them; an update leaves them alone).
  const defaults = Object.fromEntries(Object.entries(cfg.defaults ?? {}).filter(([k]) => !header.present.includes(k)));
  const parsed = cfg.schema.safeParse({ ...defaults, ...fieldInput });
  if (!parsed.success) {
    for (const e of fieldErrors(parsed.error)) errors.push({ row, column: header.headerOf(e.field.split('.')[0]), message: e.message, ...(e.params ? { params: e.params } : {}) });
  }
  const nrText = nr.success ? nr.data : String(input[NR] ?? '').trim();
  if (nr.success) {
    const first = seen.get(nr.data);
    if (first !== undefined) errors.push({ row, column: nrColumn, message: 'import:errors.duplicateNr', params: { nr: nr.data, row: first } });
    else seen.set(nr.data, row);
  }
  const titleField = header.present[0];
  return {
    row,
    nr: nrText.slice(0, 64),
    title: titleField ? String(fieldInput[titleField] ?? '').slice(0, 120) : '',
    values: errors.length ? null : (parsed.data as Record<string, unknown>),
    errors,
  };
}

const pick = (values: Record<string, unknown>, fields: readonly string[]) => Object.fromEntries(fields.filter((f) => f in values).map((f) => [f, values[f]]));

/** Whether the user's locations cover the record as it is and as it would be. */
function withinLocations(cfg: Entity, scope: TenantScope, nr: string, before: (Record<string, unknown> & Meta) | undefined, data: Record<string, unknown>): boolean {
  if (!cfg.standortOf) return true;
  if (before && !scope.allowsStandort(cfg.standortOf(before))) return false;
  return scope.allowsStandort(cfg.standortOf({ ...(before ?? {}), ...data, nr } as Record<string, unknown> & Meta));
}

export interface UploadedFile {
  buffer: Buffer;
  originalname: string;
}

/**
 * Reads, validates and classifies the file and stages its valid rows; nothing is written to the entity.
 * `t` speaks the user's language (messages), `translators` every language (accepted headers and labels).
 * File-level problems (empty, not a spreadsheet, wrong headers, no rows) are 400s and leave nothing behind.
 */
export async function preview(scope: TenantScope, actor: RequestActor, cfg: Entity, file: UploadedFile, t: Translate, translators: Translate[]): Promise<Staging> {
  const id = randomUUID();
  await stagingRepo.purgeExpired(scope);
  const converters = cellConverters(cfg, translators);
  const counts: Counts = { create: 0, update: 0, unchanged: 0, refused: 0 };
  const seen = new Map<string, number>();
  const rows: PreviewRow[] = [];
  const errors: RowError[] = [];
  let errorCount = 0;
  let refusedListed = 0;
  let refusedBeyond = 0;
  let dataRows = 0;
  let chunks = 0;
  let header: HeaderMap | null = null;
  let pending: CheckedRow[] = [];

  async function flush() {
    const valid = pending.filter((r) => r.values);
    const existing = await currentRecords(cfg.store, scope, valid.map((r) => r.nr));
    const stage: StagedRow[] = [];
    const firstIndex = dataRows - pending.length + 1; // of pending[0], 1-based among the data rows
    for (let i = 0; i < pending.length; i++) {
      const r = pending[i];
      const index = firstIndex + i;
      const out: PreviewRow = { row: r.row, nr: r.nr, title: r.title, status: 'refused' };
      if (r.values) {
        const before = existing.get(r.nr);
        const data = before ? pick(r.values, header!.present) : r.values;
        if (!withinLocations(cfg, scope, r.nr, before, data)) {
          r.errors.push({ row: r.row, column: header!.headerOf(cfg.locatedBy ?? NR) ?? header!.headerOf(NR), message: 'stammdaten:errors.standortNotAllowed' });
        } else if (!before) {
          out.status = 'create';
        } else {
          const changes = changesOf(before, data, header!.present);
          out.status = changes.length ? 'update' : 'unchanged';
          if (changes.length) out.changes = changes.map((c) => ({ ...c, column: header!.headerOf(c.field) }));
        }
        if (!r.errors.length) stage.push({ row: r.row, nr: r.nr, values: r.values });
      }
      counts[out.status]++;
      if (out.status === 'refused') {
        out.errors = r.errors;
        errorCount += r.errors.length;
        for (const e of r.errors) if (errors.length < MAX_ERRORS) errors.push(e);
      }
      if (index <= PREVIEW_ROWS) rows.push(out);
      else if (out.status === 'refused') {
        refusedBeyond++;
        if (refusedListed < MAX_LISTED_REFUSED) {
          refusedListed++;
          rows.push(out);
        }
      }
    }
    // Once a row is refused the import cannot be committed: its rows need not be kept.
    if (counts.refused === 0 && stage.length) await stagingRepo.addChunk(scope, id, chunks++, stage);
    else if (counts.refused > 0 && chunks > 0) {
      await stagingRepo.dropRows(scope, id);
      chunks = 0;
    }
    pending = [];
    await yieldToOthers();
  }

  try {
    for await (const { row, cells } of readRows(file.buffer)) {
      if (!header) {
        if (cells.every((c) => !c.trim())) continue; // empty rows above the header, as XLSX leaves them out
        header = mapHeaders(cfg, cells, t, translators);
        await stagingRepo.begin(scope, { id, benutzerId: actor.user.id, entity: cfg.resource, filename: file.originalname.slice(0, 255) || null, fields: header.present });
        continue;
      }
      if (cells.every((c) => !c.trim())) continue; // an empty line, as spreadsheets leave them
      dataRows++;
      pending.push(checkRow(cfg, header, converters, row, cells, seen));
      if (pending.length >= CHUNK_ROWS) await flush();
    }
    if (!header) throw fileError('empty');
    if (pending.length) await flush();
    if (!dataRows) throw fileError('noRows');
    const summary: Summary = { counts, dataRows, rows, errors, errorCount, refusedListed, refusedBeyond, chunks };
    await stagingRepo.finish(scope, id, summary);
    return (await stagingRepo.find(scope, id, actor.user.id))!;
  } catch (err) {
    if (header) await stagingRepo.discard(scope, id);
    throw err;
  }
}

/** The user's staged import of this entity, or 404 (unknown, someone else's, or older than an hour). */
export async function findImport(scope: TenantScope, actor: RequestActor, token: string): Promise<Staging> {
  const staging = await stagingRepo.find(scope, token, actor.user.id);
  if (!staging) throw new HttpError(404, 'NOT_FOUND', 'import:errors.notFound');
  return staging;
}

/**
 * Writes every staged row in one transaction: new numbers are created, existing ones get a new version with
 * the file's columns, unchanged ones are left alone. Refused when the preview refused a row; the rows are
 * checked again against the records as they are now (locked), so a change in between cannot slip through.
 */
export async function commit(scope: TenantScope, actor: RequestActor, cfg: Entity, token: string): Promise<Counts> {
  return scope.transaction(async (tx) => {
    const staging = await stagingRepo.find(tx, token, actor.user.id, true);
    if (!staging || staging.entity !== cfg.resource) throw new HttpError(404, 'NOT_FOUND', 'import:errors.notFound');
    if (staging.committedAt) throw new HttpError(409, 'IMPORT_COMMITTED', 'import:errors.alreadyCommitted');
    if (staging.summary.counts.refused > 0) throw new HttpError(400, 'IMPORT_REFUSED', 'import:errors.refused');
    const counts: Counts = { create: 0, update: 0, unchanged: 0, refused: 0 };
    for (let chunk = 0; chunk < staging.summary.chunks; chunk++) {
      const rows = await stagingRepo.chunk(tx, token, chunk);
      const existing = await currentRecords(cfg.store, tx, rows.map((r) => r.nr), true);
      const creates: { nr: string; data: Record<string, unknown> }[] = [];
      const updates: { nr: string; data: Record<string, unknown>; changes: ReturnType<typeof changesOf> }[] = [];
      for (const r of rows) {
        const before = existing.get(r.nr);
        const data = before ? pick(r.values, staging.fields) : r.values;
        if (!withinLocations(cfg, tx, r.nr, before, data)) throw new HttpError(409, 'IMPORT_STALE', 'import:errors.stale');
        if (!before) {
          creates.push({ nr: r.nr, data });
          continue;
        }
        const changes = changesOf(before, data, staging.fields);
        if (changes.length) updates.push({ nr: r.nr, data, changes });
        else counts.unchanged++;
      }
      await createMany(cfg.store, tx, creates, actor.user.id);
      await updateMany(cfg.store, tx, updates, actor.user.id);
      counts.create += creates.length;
      counts.update += updates.length;
      await yieldToOthers();
    }
    await audit(tx.knex as Knex, {
      kind: 'stammdaten.import', mandant: actor.mandant, benutzerId: actor.user.id, entity: cfg.resource, entityId: token,
      after: { ...counts, datei: staging.filename }, ip: actor.ip,
    });
    await stagingRepo.markCommitted(tx, token, counts);
    return counts;
  });
}

/** The template: one header row (labels in the user's language), `;` in German and `,` in English, BOM. */
export function templateCsv(cfg: Entity, t: Translate, lang: string): string {
  return stringify([templateHeaders(cfg, t)], { delimiter: lang === 'en' ? ',' : ';', bom: true, record_delimiter: 'windows' });
}
