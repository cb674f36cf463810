// Which column of the file is which field. A column may be headed by the field's label in German or English
// (the template's headers) or by its camelCase name; case and whitespace do not matter. Unknown, doubled
// and missing required columns are named in one message, so the user fixes the header row in one go.
import { HttpError, type FieldError } from '../../http/errors.js';
import { NR } from '../../import/engine.js';
import type { Translate } from '../../import/schema.js';
import type { EntityConfig, FormField } from '../../records/entity.js';

export type { Translate };
export const NR_LABEL = 'records:fields.nr';

export interface Column {
  /** 0-based position in the row. */
  index: number;
  /** The header as written in the file (what error messages name). */
  header: string;
  /** `nr`, a form field's name, or null for a column without a header. */
  field: string | null;
}

export interface HeaderMap {
  columns: Column[];
  /** The form fields that have a column (others stay as they are on update). */
  present: string[];
  headerOf(field: string): string | null;
}

/** "Haus Nr", "HAUSNR", "hausNr" and " haus nr " are the same header. */
export function normalizeHeader(s: string): string {
  return s.normalize('NFC').toLowerCase().replace(/[\s\u00ad\u200b\ufeff]+/g, '');
}

/** Fields a file may set: the entity's form fields but its files (the number is its own column). */
export const importFields = (cfg: EntityConfig<Record<string, unknown>>): FormField[] => cfg.form.filter((f) => f.kind !== 'file');

function requiredFields(cfg: EntityConfig<Record<string, unknown>>): FormField[] {
  return importFields(cfg).filter((f) => f.required && !(cfg.defaults && f.name in cfg.defaults));
}

/** The template's headers in one language: Nummer, then the form's field labels. */
export function templateHeaders(cfg: EntityConfig<Record<string, unknown>>, t: Translate): string[] {
  return [t(NR_LABEL), ...importFields(cfg).map((f) => t(f.label))];
}

/** Every accepted spelling of every field: labels in each language and the field name itself. */
function acceptedHeaders(cfg: EntityConfig<Record<string, unknown>>, translators: Translate[]): Map<string, string> {
  const accepted = new Map<string, string>();
  const add = (header: string, field: string) => {
    const key = normalizeHeader(header);
    if (key && !accepted.has(key)) accepted.set(key, field);
  };
  add(NR, NR);
  for (const t of translators) add(t(NR_LABEL), NR);
  for (const f of importFields(cfg)) {
    add(f.name, f.name);
    for (const t of translators) add(t(f.label), f.name);
  }
  return accepted;
}

/**
 * Maps the header row to fields, or throws a 400 naming each unknown, doubled and missing column
 * (`errors[].field` is the header as written, or the expected header of a missing column).
 */
export function mapHeaders(cfg: EntityConfig<Record<string, unknown>>, cells: string[], t: Translate, translators: Translate[]): HeaderMap {
  const accepted = acceptedHeaders(cfg, translators);
  const columns: Column[] = [];
  const problems: FieldError[] = [];
  const seen = new Set<string>();
  cells.forEach((raw, index) => {
    const header = raw.trim();
    if (!header) {
      columns.push({ index, header: '', field: null });
      return;
    }
    const field = accepted.get(normalizeHeader(header));
    if (!field) problems.push({ field: header, message: 'import:errors.unknownColumn' });
    else if (seen.has(field)) problems.push({ field: header, message: 'import:errors.duplicateColumn' });
    else seen.add(field);
    columns.push({ index, header, field: field && !columns.some((c) => c.field === field) ? field : null });
  });
  for (const f of [{ name: NR, label: NR_LABEL }, ...requiredFields(cfg)]) {
    if (!seen.has(f.name)) problems.push({ field: t(f.label), message: 'import:errors.missingColumn' });
  }
  if (problems.length) {
    throw new HttpError(400, 'IMPORT_HEADERS', 'import:errors.headers', problems, {
      entity: t(`${cfg.ns}:title`),
      expected: templateHeaders(cfg, t).join(', '),
    });
  }
  const byField = new Map(columns.filter((c) => c.field).map((c) => [c.field!, c]));
  return {
    columns,
    present: importFields(cfg).map((f) => f.name).filter((name) => byField.has(name)),
    headerOf: (field) => byField.get(field)?.header ?? null,
  };
}
