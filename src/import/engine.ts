// What every import does, whatever it imports: preview (read the file as a stream, check each row, compare it
// with the stored record of its number, stage the valid rows; nothing is written to the records) and commit
// (all staged rows in one transaction, or nothing). An import says only how a header row becomes a row reader
// and how a chunk of rows is checked against other data (ImportPlan); the master-data import and the
// movement-data import are both built on this.
//
// Scale: rows are handled in chunks of CHUNK_ROWS; after each chunk the event loop gets a turn (setImmediate), so
// other users' requests are served while a 50,000-row file is checked. Only the counts, the first rows and the
// refused rows are kept in memory; valid rows go to the staging table chunk by chunk and are read back the same
// way by the commit, which checks them again against the records as they are then (locked).
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { audit } from '../db/audit.js';
import type { TenantScope } from '../db/scope.js';
import { changesOf, type Change, type Meta } from '../db/versioned.js';
import { HttpError } from '../http/errors.js';
import { recordNr } from '../records/fields.js';
import type { RequestActor } from '../http/tenant.js';
import { fieldErrors } from '../http/validate.js';
import type { EntityConfig } from '../records/entity.js';
import { locationProblem, lockProblem, recordService } from '../records/service.js';
import { fileError, readRows, type CellKind } from './file.js';
import type { Counts, PreviewRow, RowError, StagedRow, Summary } from './schema.js';
import { stagingRepo, type Staging } from './staging.js';
import type { UploadedFile } from './upload.js';

export const CHUNK_ROWS = 500;
export const PREVIEW_ROWS = 200;
export const MAX_LISTED_REFUSED = 1000;
export const MAX_ERRORS = 2000;
/** The field that holds a record's number, the natural key of every import. */
export const NR = 'nr';

type Rec = Record<string, unknown>;
export type Entity = EntityConfig<Rec>;

const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

/** One data row as the reader saw it: its number as written, and its values or its errors. */
export interface ReadRow {
  /** The number as written (validated here, with the other rows' numbers). */
  nr: string;
  /** What identifies the row besides its number (e.g. its name), as written. */
  title: string;
  /** The row's validated values, or null when it has errors. */
  values: Rec | null;
  errors: RowError[];
}

/** Reads the data rows of one file; made from its header row. */
export interface RowReader {
  /** The fields rows set: written to new records, compared with and written to existing ones. */
  fields: string[];
  /** The file's column of a field (what error messages name), or null. */
  headerOf(field: string): string | null;
  /** Checks one row on its own (no database). */
  read(row: number, cells: string[], kinds?: CellKind[]): ReadRow;
}

/** A problem found against other data, named by field. */
export interface FieldProblem {
  field: string;
  message: string;
  params?: Record<string, unknown>;
}

/**
 * What a row comes to against the stored data: what to store, and the fields to compare (and what is worth a
 * second look without refusing the row: shown and counted in the preview, never blocking); or its problems.
 */
export type Settled = { data: Rec; fields: string[]; warnings?: FieldProblem[] } | { problems: FieldProblem[] };

/** Checks a chunk of valid rows against other data; `existing` holds the stored records of their numbers. */
export type ChunkCheck = (rows: StagedRow[], existing: Map<string, Rec & Meta>, fields: string[]) => Settled[] | Promise<Settled[]>;

export interface ImportPlan {
  /** What the staging row calls this import (a master-data resource, or the movement type). */
  entity: string;
  cfg: Entity;
  /** Loads what one run's checks need, once (e.g. the tenant's master data), and returns the chunk check. */
  start?(scope: TenantScope): Promise<ChunkCheck>;
  /** Fields every created record gets (imported deliveries: not entered by hand). */
  onCreate?: Rec;
  /** Audit kind of the import as a whole; each record is audited as `<records>.create` / `.update`. */
  auditKind: string;
  recordAuditKind: string;
  /** Errors name the field besides the column (a mapped import, where the column's header does not say it). */
  namesFields?: boolean;
  /** The first rows keep the values as they would be stored, for the preview. */
  keepsValues?: boolean;
}

const pick = (values: Rec, fields: readonly string[]) => Object.fromEntries(fields.filter((f) => f in values).map((f) => [f, values[f]]));

/** The default check: the row's values as they are; an existing record gets the file's fields. */
const takeAsIs: ChunkCheck = (rows, existing, fields) => rows.map((r) => ({ data: existing.has(r.nr) ? pick(r.values, fields) : r.values, fields }));

type Outcome =
  | { status: 'create' }
  | { status: 'update'; changes: Change[] }
  | { status: 'unchanged' }
  | { status: 'refused'; problem: FieldProblem | { field: null; message: string } };

/** create, update or unchanged; refused when the record lies outside the user's locations or is locked. */
function classify(plan: ImportPlan, scope: TenantScope, nr: string, before: (Rec & Meta) | undefined, settled: { data: Rec; fields: string[] }): Outcome {
  // The same rules as every other write (src/records/service.ts): the user's locations, then the lock.
  const where = locationProblem(plan.cfg, scope, nr, before, settled.data);
  if (where) return { status: 'refused', problem: { field: where.field ?? NR, message: where.message } };
  if (!before) return { status: 'create' };
  const changes = changesOf(before, settled.data, settled.fields);
  if (!changes.length) return { status: 'unchanged' };
  const locked = lockProblem(plan.cfg, before);
  if (locked) return { status: 'refused', problem: locked };
  return { status: 'update', changes };
}

const forDisplay = ({ updatedAt: _u, ...record }: Rec) => record;

/**
 * Reads, checks and classifies the file and stages its valid rows; nothing is written to the records.
 * `header` turns the header row into a reader (or throws a 400 naming what is wrong with it). File-level
 * problems (empty, not a spreadsheet, wrong headers, no rows) are 400s and leave nothing behind.
 */
export async function preview(
  scope: TenantScope, actor: RequestActor, plan: ImportPlan, file: UploadedFile, header: (cells: string[]) => RowReader, meta?: Rec,
): Promise<Staging> {
  const id = randomUUID();
  const { cfg } = plan;
  await stagingRepo.purgeExpired(scope);
  const counts: Counts = { create: 0, update: 0, unchanged: 0, refused: 0 };
  const seen = new Map<string, number>();
  const rows: PreviewRow[] = [];
  const errors: RowError[] = [];
  let errorCount = 0;
  const warnings: RowError[] = [];
  let warningCount = 0;
  let warned = 0;
  let refusedListed = 0;
  let refusedBeyond = 0;
  let dataRows = 0;
  let chunks = 0;
  let reader: RowReader | null = null;
  let check: ChunkCheck = takeAsIs;
  let pending: (ReadRow & { row: number })[] = [];

  function readRow(row: number, cells: string[], kinds?: CellKind[]) {
    const r = { ...reader!.read(row, cells, kinds), row };
    const nrColumn = reader!.headerOf(NR);
    const nr = recordNr().safeParse(r.nr);
    if (!nr.success) {
      for (const e of fieldErrors(nr.error)) r.errors.push({ row, column: nrColumn, ...(plan.namesFields ? { field: NR } : {}), message: e.message });
      r.nr = r.nr.trim().slice(0, 64);
    } else {
      r.nr = nr.data;
      const first = seen.get(nr.data);
      if (first !== undefined) r.errors.push({ row, column: nrColumn, ...(plan.namesFields ? { field: NR } : {}), message: 'import:errors.duplicateNr', params: { nr: nr.data, row: first } });
      else seen.set(nr.data, row);
    }
    if (r.errors.length) r.values = null;
    return r;
  }

  async function flush() {
    const valid = pending.filter((r) => r.values);
    const existing = await cfg.store.currentMany(scope, valid.map((r) => r.nr));
    const settled = await check(valid.map((r) => ({ row: r.row, nr: r.nr, values: r.values! })), existing, reader!.fields);
    const settledOf = new Map(valid.map((r, i) => [r, settled[i]]));
    const stage: StagedRow[] = [];
    const firstIndex = dataRows - pending.length + 1; // of pending[0], 1-based among the data rows
    const problem = (row: number, p: FieldProblem | { field: null; message: string }): RowError => {
      const column = p.field ? reader!.headerOf(p.field) : null;
      return {
        row,
        column,
        // The field where the column does not say it: a mapped import's, or one the file has no column for.
        ...(p.field && (plan.namesFields || !column) ? { field: p.field } : {}),
        message: p.message,
        ...('params' in p && p.params ? { params: p.params } : {}),
      };
    };
    for (let i = 0; i < pending.length; i++) {
      const r = pending[i];
      const index = firstIndex + i;
      const out: PreviewRow = { row: r.row, nr: r.nr, title: r.title, status: 'refused' };
      const s = settledOf.get(r);
      if (r.values && s) {
        const before = existing.get(r.nr);
        if ('problems' in s) {
          for (const p of s.problems) r.errors.push(problem(r.row, p));
        } else {
          const outcome = classify(plan, scope, r.nr, before, s);
          if (outcome.status === 'refused') r.errors.push(problem(r.row, outcome.problem));
          else {
            out.status = outcome.status;
            // What is written carries the warnings; an unchanged row writes nothing, so it has none to show.
            if (s.warnings?.length && outcome.status !== 'unchanged') {
              out.warnings = s.warnings.map((w) => problem(r.row, w));
              warned++;
              warningCount += out.warnings.length;
              for (const w of out.warnings) if (warnings.length < MAX_ERRORS) warnings.push(w);
            }
            if (outcome.status === 'update') out.changes = outcome.changes.map((c) => ({ ...c, column: reader!.headerOf(c.field) }));
            if (plan.keepsValues && index <= PREVIEW_ROWS) out.values = forDisplay(before ? { ...before, ...s.data } : { ...s.data, ...(plan.onCreate ?? {}), nr: r.nr });
          }
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
    for await (const { row, cells, kinds } of readRows(file.buffer)) {
      if (!reader) {
        if (cells.every((c) => !c.trim())) continue; // empty rows above the header, as XLSX leaves them out
        reader = header(cells);
        if (plan.start) check = await plan.start(scope);
        await stagingRepo.begin(scope, { id, benutzerId: actor.user.id, entity: plan.entity, filename: file.originalname.slice(0, 255) || null, fields: reader.fields });
        continue;
      }
      if (cells.every((c) => !c.trim())) continue; // an empty line, as spreadsheets leave them
      dataRows++;
      pending.push(readRow(row, cells, kinds));
      if (pending.length >= CHUNK_ROWS) await flush();
    }
    if (!reader) throw fileError('empty');
    if (pending.length) await flush();
    if (!dataRows) throw fileError('noRows');
    const summary: Summary = { counts, dataRows, rows, errors, errorCount, warned, warnings, warningCount, refusedListed, refusedBeyond, chunks, ...(meta ? { meta } : {}) };
    await stagingRepo.finish(scope, id, summary);
    return (await stagingRepo.find(scope, id, actor.user.id))!;
  } catch (err) {
    if (reader) await stagingRepo.discard(scope, id);
    throw err;
  }
}

/** The user's staged import, or 404 (unknown, someone else's, another import's, or older than an hour). */
export async function findImport(scope: TenantScope, actor: RequestActor, token: string, entities?: readonly string[]): Promise<Staging> {
  const staging = await stagingRepo.find(scope, token, actor.user.id);
  if (!staging || (entities && !entities.includes(staging.entity))) throw new HttpError(404, 'NOT_FOUND', 'import:errors.notFound');
  return staging;
}

/**
 * Writes every staged row in one transaction: new numbers are created, existing ones get a new version with
 * the file's fields, unchanged ones are left alone. Refused when the preview refused a row; the rows are checked
 * again against the records as they are now (locked), so a change in between cannot slip through (409).
 */
export async function commit(scope: TenantScope, actor: RequestActor, plan: ImportPlan, token: string): Promise<Counts> {
  const { cfg } = plan;
  const stale = () => new HttpError(409, 'IMPORT_STALE', 'import:errors.stale');
  return scope.transaction(async (tx) => {
    const staging = await stagingRepo.find(tx, token, actor.user.id, true);
    if (!staging || staging.entity !== plan.entity) throw new HttpError(404, 'NOT_FOUND', 'import:errors.notFound');
    if (staging.committedAt) throw new HttpError(409, 'IMPORT_COMMITTED', 'import:errors.alreadyCommitted');
    if (staging.summary.counts.refused > 0) throw new HttpError(400, 'IMPORT_REFUSED', 'import:errors.refused');
    const check = plan.start ? await plan.start(tx) : takeAsIs;
    const counts: Counts = { create: 0, update: 0, unchanged: 0, refused: 0 };
    for (let chunk = 0; chunk < staging.summary.chunks; chunk++) {
      const rows = await stagingRepo.chunk(tx, token, chunk);
      const existing = await cfg.store.currentMany(tx, rows.map((r) => r.nr), true);
      const settled = await check(rows, existing, staging.fields);
      const creates: { nr: string; data: Rec }[] = [];
      const updates: { nr: string; data: Rec; changes: Change[] }[] = [];
      rows.forEach((r, i) => {
        const s = settled[i];
        if ('problems' in s) throw stale();
        const outcome = classify(plan, tx, r.nr, existing.get(r.nr), s);
        if (outcome.status === 'refused') throw stale();
        if (outcome.status === 'create') creates.push({ nr: r.nr, data: { ...s.data, ...(plan.onCreate ?? {}) } });
        else if (outcome.status === 'update') updates.push({ nr: r.nr, data: s.data, changes: outcome.changes });
        else counts.unchanged++;
      });
      await recordService(cfg).writeMany(tx, actor, { creates, updates }, { auditKind: plan.recordAuditKind, note: { import: token } });
      counts.create += creates.length;
      counts.update += updates.length;
      await yieldToOthers();
    }
    await audit(tx.knex as Knex, {
      kind: plan.auditKind, mandant: actor.mandant, benutzerId: actor.user.id, entity: plan.entity, entityId: token,
      after: { ...counts, datei: staging.filename, ...(staging.summary.meta ?? {}) }, ip: actor.ip,
    });
    await stagingRepo.markCommitted(tx, token, counts);
    return counts;
  });
}
