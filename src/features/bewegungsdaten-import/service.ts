// The movement-data import: deliveries (Einlieferungen or Ablieferungen) from a CSV or XLSX file through an
// import code, and the saved import codes themselves. Reading, staging, preview and commit are the shared import
// machinery's (src/import/engine.ts); this says how a file's rows become deliveries:
//   - the import code (mapping.ts) picks each field's column or fixed value and converts dates, decimals, units;
//   - each row is then checked like a delivery entered by hand: lieferungSchema, and completeLieferung's checks
//     (known and active partner, location and product, the product's group, versions) against the tenant's
//     master data, loaded once per import; the location must be one the user may import at;
//   - a delivery's number is its natural key: a new number is created (manuelleEingabe false), a changed one
//     gets a new version (refused if completed or locked), an unchanged one is left alone.
// Who may import what is decided in src/permissions (IMPORT_AREAS): inbound needs 19, outbound 20.
import type { Knex } from 'knex';
import { audit } from '../../db/audit.js';
import type { TenantScope } from '../../db/scope.js';
import type { Meta } from '../../db/versioned.js';
import { HttpError, type FieldError } from '../../http/errors.js';
import type { RequestActor } from '../../http/tenant.js';
import { fieldErrors } from '../../http/validate.js';
import { commit as commitImport, findImport as findStaged, preview as previewImport, type ChunkCheck, type Entity, type ImportPlan, type RowReader } from '../../import/engine.js';
import type { Counts, RowError, Translate } from '../../import/schema.js';
import type { Staging } from '../../import/staging.js';
import type { UploadedFile } from '../../import/upload.js';
import { can, IMPORT_AREAS, type Principal } from '../../permissions/index.js';
import { ablieferungConfig } from '../lieferungen/ablieferungen.js';
import { completeLieferung, lieferungSchema, type Lieferung } from '../lieferungen/lieferung.js';
import { zuordnungsProbleme } from '../zuordnung/aenderung.js';
import { belegungen } from '../zuordnung/service.js';
import type { Belegung } from '../../domain/zuordnung.js';
import { LIEFERUNG_NAMES, DELIVERY_RESOURCES } from '../lieferungen/names.js';
import { allMasterRecords, produkteAtVersions } from '../bewegungsdaten/references.js';
import { einlieferungConfig } from '../lieferungen/einlieferungen.js';
import { defaultCode, exampleFilename } from './defaults.js';
import { missingColumns, parseMapping, rowMapper, type ImportTyp, type Mapping } from './mapping.js';
import { importCodeRepo, isNameTaken, type ImportCode } from './repo.js';

export { PREVIEW_ROWS } from '../../import/engine.js';

const CONFIGS: Record<ImportTyp, Entity> = {
  einlieferungen: einlieferungConfig as unknown as Entity,
  ablieferungen: ablieferungConfig as unknown as Entity,
};

export const entityOf = (typ: ImportTyp): Entity => CONFIGS[typ];

/** The types the user may import (the one place: can() on the type's import area). */
export function permittedTypes(principal: Principal): ImportTyp[] {
  return DELIVERY_RESOURCES.filter((typ) => can(principal, 'edit', IMPORT_AREAS[typ]));
}

/** The type of a URL or form: unknown → 404, not permitted → 403. */
export function typeFor(raw: unknown, principal: Principal): ImportTyp {
  if (!(DELIVERY_RESOURCES as readonly unknown[]).includes(raw)) throw new HttpError(404, 'NOT_FOUND', 'bewegungsdaten-import:errors.unknownType');
  const typ = raw as ImportTyp;
  if (!can(principal, 'edit', IMPORT_AREAS[typ])) throw new HttpError(403, 'FORBIDDEN', 'errors.forbidden');
  return typ;
}

/** The default import code of a type, with its comments in the user's language. */
export function standardCode(typ: ImportTyp, t: Translate, lang: string): string {
  const comments = (t('bewegungsdaten-import:code.defaultComments', { returnObjects: true, typ: t(`bewegungsdaten-import:types.${typ}`), file: exampleFilename(typ) }) as unknown as string[]);
  return defaultCode(typ, lang === 'en' ? 'en' : 'de', Array.isArray(comments) ? comments : []);
}

/** The code's problems as the contract's field errors: field `code`, "Zeile 3: Unbekanntes Feld „mengee“ …". */
export function codeErrors(text: string, typ: ImportTyp, t: Translate): FieldError[] {
  return parseMapping(text, typ).errors.map((e) => ({
    field: 'code',
    message: 'bewegungsdaten-import:code.lineError',
    params: { line: e.line, message: t(`bewegungsdaten-import:code.errors.${e.code}`, e.params) },
  }));
}

/** A usable mapping of the code, or a 400 naming every faulty line. */
export function checkedMapping(text: string, typ: ImportTyp, t: Translate): Mapping {
  const errors = codeErrors(text, typ, t);
  if (errors.length) throw new HttpError(400, 'IMPORT_CODE', 'bewegungsdaten-import:errors.code', errors);
  return parseMapping(text, typ).mapping;
}

// Reading rows ------------------------------------------------------------------------------------------------

/** The fields an update writes beyond the file's: what the references and the product decide. */
const DERIVED = ['partnerVersion', 'standortVersion', 'produktVersion', 'produktgruppe'];

const quoted = (names: string[]) => names.map((n) => `„${n}“`).join(', ');

/** The reader of a file for a mapping: a 400 naming the columns the code reads and the file lacks. */
function rowReader(mapping: Mapping, headers: string[], typ: ImportTyp): RowReader {
  const missing = missingColumns(mapping, headers);
  if (missing.length) {
    throw new HttpError(400, 'IMPORT_COLUMNS', 'bewegungsdaten-import:errors.columns', missing.map((c) => ({ field: c, message: 'bewegungsdaten-import:errors.columnMissing' })), {
      columns: quoted(missing), present: quoted(headers.map((h) => h.trim()).filter(Boolean)),
    });
  }
  const mapper = rowMapper(mapping, headers);
  const schema = lieferungSchema(LIEFERUNG_NAMES[typ]);
  const fields = mapping.rules.map((r) => r.field).filter((f) => f !== 'nr');
  return {
    fields,
    headerOf: mapper.headerOf,
    read(row, cells, kinds) {
      const { input, problems } = mapper.read(cells, kinds);
      const errors: RowError[] = problems.map((p) => ({ row, column: mapper.headerOf(p.field), field: p.field, message: `bewegungsdaten-import:row.${p.code}`, params: p.params }));
      const { nr = '', ...values } = input;
      const parsed = schema.safeParse(values);
      if (!parsed.success) {
        for (const e of fieldErrors(parsed.error)) {
          const field = e.field.split('.')[0];
          // A value a conversion could not read has its message already; the schema would only add "Pflichtfeld".
          if (problems.some((p) => p.field === field)) continue;
          errors.push({ row, column: mapper.headerOf(field), field, message: e.message, ...(e.params ? { params: e.params } : {}) });
        }
      }
      return { nr, title: String(values.partnerNr ?? ''), values: errors.length ? null : (parsed.data as Record<string, unknown>), errors };
    },
  };
}

const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
const pick = (o: Record<string, unknown>, fields: string[]) => Object.fromEntries(fields.filter((f) => f in o).map((f) => [f, o[f]]));

/**
 * The check of a chunk against the tenant's master data (loaded once per run): completeLieferung, exactly as for
 * a delivery entered by hand. A new delivery gets every field; an existing one the file's fields and what they
 * decide (versions, product group).
 */
async function deliveryChecks(scope: TenantScope, typ: ImportTyp): Promise<ChunkCheck> {
  const masters = await allMasterRecords(scope);
  return async (rows, existing, fields) => {
    const unchangedProducts = rows.flatMap((r) => {
      const before = existing.get(r.nr);
      return before && before.produktNr === r.values.produktNr ? [{ nr: String(before.produktNr), version: Number(before.produktVersion) }] : [];
    });
    const produktThen = await produkteAtVersions(scope, unchangedProducts);
    // An outbound delivery holding certificates keeps what they were checked against, as on its form.
    const belegt = typ === 'ablieferungen' ? await belegungen(scope, rows.filter((r) => existing.has(r.nr)).map((r) => r.nr)) : new Map<string, Belegung[]>();
    return rows.map((r) => {
      const before = (existing.get(r.nr) ?? null) as (Lieferung & Meta) | null;
      const { delivery, errors } = completeLieferung(r.values as Lieferung, before, {
        current: (field, nr) => masters[field].get(nr) ?? null,
        produktAt: (nr, version) => produktThen.get(`${nr}@${version}`) ?? null,
      });
      if (before) errors.push(...zuordnungsProbleme(before, { ...before, ...delivery }, belegt.get(r.nr) ?? []));
      if (errors.length) return { problems: errors };
      if (!before) return { data: defined(delivery), fields };
      const written = [...fields, ...DERIVED.filter((f) => !fields.includes(f))];
      return { data: defined(pick(delivery, written)), fields: written };
    });
  };
}

const planOf = (typ: ImportTyp): ImportPlan => ({
  entity: typ,
  cfg: entityOf(typ),
  start: (scope: TenantScope) => deliveryChecks(scope, typ),
  onCreate: { manuelleEingabe: false },
  auditKind: 'bewegungsdaten.import',
  recordAuditKind: `bewegungsdaten.${typ}`,
  namesFields: true,
  keepsValues: true,
});

export interface CodeChoice {
  /** The saved code's id, or null for a code typed in (or the default). */
  id: number | null;
  name: string | null;
  text: string;
}

/**
 * Reads, checks and classifies the file with the import code and stages its valid rows; nothing is written to
 * the deliveries. A faulty code, missing columns and file-level problems are 400s and leave nothing behind.
 */
export function preview(scope: TenantScope, actor: RequestActor, typ: ImportTyp, file: UploadedFile, code: CodeChoice, t: Translate): Promise<Staging> {
  const mapping = checkedMapping(code.text, typ, t);
  return previewImport(scope, actor, planOf(typ), file, (cells) => rowReader(mapping, cells, typ), { codeId: code.id, codeName: code.name, code: code.text });
}

/** The user's staged movement-data import, or 404. */
export const findImport = (scope: TenantScope, actor: RequestActor, token: string): Promise<Staging> => findStaged(scope, actor, token, DELIVERY_RESOURCES);

/** Writes every staged row in one transaction, or nothing. */
export const commit = (scope: TenantScope, actor: RequestActor, typ: ImportTyp, token: string): Promise<Counts> => commitImport(scope, actor, planOf(typ), token);

// Saved import codes ------------------------------------------------------------------------------------------

const notFound = () => new HttpError(404, 'NOT_FOUND', 'bewegungsdaten-import:errors.notFound');

/** The saved codes of the types the user may import. */
export const listCodes = (scope: TenantScope, principal: Principal, typ?: ImportTyp): Promise<ImportCode[]> =>
  importCodeRepo.list(scope, permittedTypes(principal).filter((x) => !typ || x === typ));

/** A saved code of this tenant, or 404; of a type the user may not import, 403. */
export async function getCode(scope: TenantScope, principal: Principal, id: number): Promise<ImportCode> {
  const found = await importCodeRepo.get(scope, id);
  if (!found) throw notFound();
  typeFor(found.typ, principal);
  return found;
}

function refuseFaultyCode(text: string, typ: ImportTyp, t: Translate) {
  const errors = codeErrors(text, typ, t);
  if (errors.length) throw new HttpError(400, 'IMPORT_CODE', 'bewegungsdaten-import:errors.code', errors);
}

const nameTaken = (typ: ImportTyp, t: Translate) =>
  new HttpError(409, 'NAME_TAKEN', 'bewegungsdaten-import:errors.nameTaken', [{ field: 'name', message: 'bewegungsdaten-import:errors.nameTaken', params: { typ: t(`bewegungsdaten-import:types.${typ}`) } }], {
    typ: t(`bewegungsdaten-import:types.${typ}`),
  });

const auditCode = (knex: Knex, actor: RequestActor, action: string, id: number, before?: ImportCode, after?: ImportCode) =>
  audit(knex, { kind: `bewegungsdaten.importcode.${action}`, mandant: actor.mandant, benutzerId: actor.user.id, entity: 'import_mappings', entityId: id, before, after, ip: actor.ip });

/** Saves a new code; only a valid one (it must be usable), under a name not yet taken for its type (else 409). */
export async function createCode(scope: TenantScope, actor: RequestActor, data: { typ: string; name: string; code: string }, t: Translate): Promise<ImportCode> {
  const typ = typeFor(data.typ, actor.principal);
  refuseFaultyCode(data.code, typ, t);
  try {
    return await scope.transaction(async (tx) => {
      const created = await importCodeRepo.create(tx, { typ, name: data.name, code: data.code }, actor.user.id);
      await auditCode(tx.knex as Knex, actor, 'create', created.id, undefined, created);
      return created;
    });
  } catch (err) {
    if (isNameTaken(err)) throw nameTaken(typ, t);
    throw err;
  }
}

/** Saves a code as its next version; based on an older version → 409, nothing changed. */
export async function updateCode(scope: TenantScope, actor: RequestActor, id: number, data: { name: string; code: string; version: number }, t: Translate): Promise<ImportCode> {
  try {
    return await scope.transaction(async (tx) => {
      const before = await importCodeRepo.get(tx, id, true);
      if (!before) throw notFound();
      const typ = typeFor(before.typ, actor.principal);
      if (before.version !== data.version) throw new HttpError(409, 'VERSION_CONFLICT', 'bewegungsdaten-import:errors.versionConflict');
      refuseFaultyCode(data.code, typ, t);
      if (before.name === data.name && before.code === data.code) return before;
      const saved = await importCodeRepo.update(tx, id, { name: data.name, code: data.code }, actor.user.id);
      await auditCode(tx.knex as Knex, actor, 'update', id, before, saved);
      return saved;
    });
  } catch (err) {
    if (isNameTaken(err)) throw nameTaken((await importCodeRepo.get(scope, id))?.typ ?? 'einlieferungen', t);
    throw err;
  }
}

/** Deletes a code; with a version, only that version (else 409). */
export async function deleteCode(scope: TenantScope, actor: RequestActor, id: number, version?: number): Promise<void> {
  await scope.transaction(async (tx) => {
    const before = await importCodeRepo.get(tx, id, true);
    if (!before) throw notFound();
    typeFor(before.typ, actor.principal);
    if (version !== undefined && before.version !== version) throw new HttpError(409, 'VERSION_CONFLICT', 'bewegungsdaten-import:errors.versionConflict');
    await importCodeRepo.remove(tx, id);
    await auditCode(tx.knex as Knex, actor, 'delete', id, before);
  });
}

/**
 * The code a preview uses: the text sent (as typed in the editor), else a saved one of the type by id or by
 * name (404 if there is none), else the type's default.
 */
export async function codeFor(scope: TenantScope, principal: Principal, typ: ImportTyp, fields: { codeId?: number; code?: string; name?: string }, t: Translate, lang: string): Promise<CodeChoice> {
  if (fields.code !== undefined) return { id: fields.codeId ?? null, name: fields.name ?? null, text: fields.code };
  if (fields.codeId !== undefined || fields.name !== undefined) {
    const saved = fields.codeId !== undefined ? await getCode(scope, principal, fields.codeId) : await importCodeRepo.byName(scope, typ, fields.name!);
    if (!saved || saved.typ !== typ) throw notFound();
    return { id: saved.id, name: saved.name, text: saved.code };
  }
  return { id: null, name: null, text: standardCode(typ, t, lang) };
}
