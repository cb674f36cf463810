// The master-data import: how a file of locations, products or partners is read (headers named by the fields'
// labels, cells converted to what the entity's schema expects). Preview, staging and commit are the shared
// import machinery's (src/import/engine.ts); this works for every entity of STAMMDATEN_ENTITIES from its
// EntityConfig alone: schema, form fields, store, location of a record.
import { stringify } from 'csv-stringify/sync';
import type { TenantScope } from '../../db/scope.js';
import { HttpError } from '../../http/errors.js';
import type { RequestActor } from '../../http/tenant.js';
import { fieldErrors } from '../../http/validate.js';
import { commit as commitImport, findImport as findStaged, NR, preview as previewImport, type Entity, type ImportPlan, type RowReader } from '../../import/engine.js';
import { columnLetter } from '../../import/file.js';
import type { Counts, RowError, Translate } from '../../import/schema.js';
import type { Staging } from '../../import/staging.js';
import type { UploadedFile } from '../../import/upload.js';
import { can, type Principal } from '../../permissions/index.js';
import { STAMMDATEN_ENTITIES } from '../stammdaten/registry.js';
import { importFields, mapHeaders, normalizeHeader, templateHeaders, type HeaderMap } from './columns.js';

export type { Entity };
export { PREVIEW_ROWS } from '../../import/engine.js';

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

/** The reader of a file whose header row was mapped: each cell converted, then the entity's schema. */
function rowReader(cfg: Entity, header: HeaderMap, converters: Map<string, (v: string) => unknown>): RowReader {
  return {
    fields: header.present,
    headerOf: header.headerOf,
    read(row, cells) {
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
      const { [NR]: nr, ...fieldInput } = input;
      // Fields without a column: the entity's defaults (a new record gets them; an update leaves them alone).
      const defaults = Object.fromEntries(Object.entries(cfg.defaults ?? {}).filter(([k]) => !header.present.includes(k)));
      const parsed = cfg.schema.safeParse({ ...defaults, ...fieldInput });
      if (!parsed.success) {
        for (const e of fieldErrors(parsed.error)) errors.push({ row, column: header.headerOf(e.field.split('.')[0]), message: e.message, ...(e.params ? { params: e.params } : {}) });
      }
      const titleField = header.present[0];
      return {
        nr: typeof nr === 'string' ? nr : '',
        title: titleField ? String(fieldInput[titleField] ?? '').slice(0, 120) : '',
        values: errors.length ? null : (parsed.data as Record<string, unknown>),
        errors,
      };
    },
  };
}

const planOf = (cfg: Entity): ImportPlan => ({
  entity: cfg.resource, cfg, auditKind: 'stammdaten.import', recordAuditKind: `stammdaten.${cfg.resource}`,
});

/**
 * Reads, validates and classifies the file and stages its valid rows; nothing is written to the entity.
 * `t` speaks the user's language (messages), `translators` every language (accepted headers and labels).
 */
export function preview(scope: TenantScope, actor: RequestActor, cfg: Entity, file: UploadedFile, t: Translate, translators: Translate[]): Promise<Staging> {
  const converters = cellConverters(cfg, translators);
  return previewImport(scope, actor, planOf(cfg), file, (cells) => rowReader(cfg, mapHeaders(cfg, cells, t, translators), converters));
}

/** The user's staged master-data import, or 404 (unknown, someone else's, or older than an hour). */
export const findImport = (scope: TenantScope, actor: RequestActor, token: string): Promise<Staging> =>
  findStaged(scope, actor, token, STAMMDATEN_ENTITIES.map((e) => e.resource));

/** Writes every staged row in one transaction (see the engine), or nothing. */
export const commit = (scope: TenantScope, actor: RequestActor, cfg: Entity, token: string): Promise<Counts> => commitImport(scope, actor, planOf(cfg), token);

/** The template: one header row (labels in the user's language), `;` in German and `,` in English, BOM. */
export function templateCsv(cfg: Entity, t: Translate, lang: string): string {
  return stringify([templateHeaders(cfg, t)], { delimiter: lang === 'en' ? ',' : ';', bom: true, record_delimiter: 'windows' });
}
