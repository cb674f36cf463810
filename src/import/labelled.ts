// Files whose columns are named by a record type's form labels: the master-data import and the certificate
// import read them. Generic over an EntityConfig: a column may be headed by the field's label in German or
// English (the template's headers) or by its camelCase name, ignoring case and whitespace; cells are converted
// to what the entity's schema expects (checkboxes ja/nein, selects by value or label), then the schema decides.
// Unknown, doubled and missing required columns are named in one message, so the user fixes the header row in
// one go. The templates (CSV and XLSX) are the same header row.
import { stringify } from 'csv-stringify/sync';
import { HttpError, type FieldError } from '../http/errors.js';
import { fieldErrors } from '../http/validate.js';
import type { EntityConfig, FormField } from '../records/entity.js';
import { NR, type Entity, type RowReader } from './engine.js';
import { columnLetter, spreadsheetDay, type CellKind } from './file.js';
import type { RowError, Translate } from './schema.js';

export type { Translate };
export const NR_LABEL = 'records:fields.nr';

type Cfg = EntityConfig<Record<string, unknown>>;

/** What an import of one record type says beyond its EntityConfig. */
export interface LabelledOptions {
  /**
   * Fields the form requires that a file may leave out (an import of old certificates may lack the plant's
   * start): their column is not required, and the template does not mark them.
   */
  optional?: readonly string[];
  /** The field whose cell names a row in the preview besides its number (default: the first column's field). */
  titleField?: string;
}

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
export const importFields = (cfg: Cfg): FormField[] => cfg.form.filter((f) => f.kind !== 'file');

const isRequired = (cfg: Cfg, f: FormField, opts: LabelledOptions) =>
  Boolean(f.required) && !(cfg.defaults && f.name in cfg.defaults) && !(opts.optional ?? []).includes(f.name);

/** The template's headers in one language: Nummer, then the form's field labels. */
export function templateHeaders(cfg: Cfg, t: Translate): string[] {
  return [t(NR_LABEL), ...importFields(cfg).map((f) => t(f.label))];
}

/** The columns as the upload page lists them: label, and whether a file must have it. */
export function templateColumns(cfg: Cfg, t: Translate, opts: LabelledOptions = {}): { name: string; label: string; required: boolean }[] {
  return [{ name: NR, label: t(NR_LABEL), required: true }, ...importFields(cfg).map((f) => ({ name: f.name, label: t(f.label), required: isRequired(cfg, f, opts) }))];
}

/** A field named as the template heads its column (for a problem whose field the file has no column for). */
export const fieldLabel = (cfg: Cfg, t: Translate) => (field: string): string => {
  if (field === NR) return t(NR_LABEL);
  const f = cfg.form.find((x) => x.name === field);
  return f ? t(f.label) : field;
};

/** Every accepted spelling of every field: labels in each language and the field name itself. */
function acceptedHeaders(cfg: Cfg, translators: Translate[]): Map<string, string> {
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
export function mapHeaders(cfg: Cfg, cells: string[], t: Translate, translators: Translate[], opts: LabelledOptions = {}): HeaderMap {
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
  const required = [{ name: NR, label: NR_LABEL }, ...importFields(cfg).filter((f) => isRequired(cfg, f, opts))];
  for (const f of required) {
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

const TRUE_WORDS = new Set(['ja', 'j', 'yes', 'y', 'x', 'wahr', 'true', '1', 'on']);
const FALSE_WORDS = new Set(['nein', 'n', 'no', 'falsch', 'false', '0', 'off', '']);

export type Converters = Map<string, (v: string, kind: CellKind) => unknown>;

/**
 * Cell text → what the entity's schema expects. Dates take an XLSX date number besides text; checkboxes accept ja/nein, yes/no, x, 1/0 (and the list
 * export's Ja/Nein); selects accept the value or its label in either language (a raw label as it is, a label
 * with a parenthesis also without it, or a one-word parenthesis alone: "UCO"). Everything
 * else is passed as written: the schema decides (decimals take a comma or a point; "=SUM(A1)" is just text).
 */
export function cellConverters(cfg: Cfg, translators: Translate[]): Converters {
  const converters: Converters = new Map();
  for (const f of importFields(cfg)) {
    if (f.kind === 'date') {
      // An XLSX date is a date number; any other cell is text for the schema (31.12.2025 or 2025-12-31).
      converters.set(f.name, (v, kind) => (kind === 'number' ? spreadsheetDay(v) ?? v : v));
    } else if (f.kind === 'checkbox') {
      converters.set(f.name, (v) => {
        const w = v.trim().toLowerCase();
        return TRUE_WORDS.has(w) ? true : FALSE_WORDS.has(w) ? false : v;
      });
    } else if (f.kind === 'select' && f.options) {
      const byText = new Map<string, string>();
      const add = (text: string, value: string) => {
        const key = normalizeHeader(text);
        if (key && !byText.has(key)) byText.set(key, value);
      };
      const labels = f.options.flatMap((o) => translators.map((t) => [o.raw ? o.label : t(o.label), o.value] as const));
      for (const o of f.options) add(o.value, o.value);
      for (const [text, value] of labels) add(text, value);
      // "Altspeiseöl (UCO)" is also "Altspeiseöl" and "UCO", "Liter (L)" also "Liter" and "L": what a file says.
      // After every full label and value, so a short form never takes another option's name.
      for (const [text, value] of labels) {
        const short = /^(.+?)\s*\(([^()]+)\)$/.exec(text);
        if (!short) continue;
        add(short[1], value);
        if (/^[\p{L}\p{N}-]+$/u.test(short[2])) add(short[2], value);
      }
      converters.set(f.name, (v) => (v.trim() === '' ? '' : byText.get(normalizeHeader(v)) ?? v));
    }
  }
  return converters;
}

/** The reader of a file whose header row was mapped: each cell converted, then the entity's schema. */
export function labelledReader(cfg: Entity, header: HeaderMap, converters: Converters, opts: LabelledOptions = {}): RowReader {
  const titleField = opts.titleField && header.present.includes(opts.titleField) ? opts.titleField : header.present[0];
  return {
    fields: header.present,
    headerOf: header.headerOf,
    read(row, cells, kinds) {
      const errors: RowError[] = [];
      const input: Record<string, unknown> = {};
      cells.forEach((value, i) => {
        const column = header.columns[i];
        if (!column?.field) {
          if (value.trim()) errors.push({ row, column: column?.header || columnLetter(i), message: 'import:errors.valueWithoutHeader' });
          return;
        }
        const convert = converters.get(column.field);
        input[column.field] = convert ? convert(value, kinds?.[i] ?? 'text') : value;
      });
      const { [NR]: nr, ...fieldInput } = input;
      // Fields without a column: the entity's defaults (a new record gets them; an update leaves them alone).
      const defaults = Object.fromEntries(Object.entries(cfg.defaults ?? {}).filter(([k]) => !header.present.includes(k)));
      const parsed = cfg.schema.safeParse({ ...defaults, ...fieldInput });
      if (!parsed.success) {
        for (const e of fieldErrors(parsed.error)) errors.push({ row, column: header.headerOf(e.field.split('.')[0]), message: e.message, ...(e.params ? { params: e.params } : {}) });
      }
      return {
        nr: typeof nr === 'string' ? nr : '',
        title: titleField ? String(fieldInput[titleField] ?? '').slice(0, 120) : '',
        values: errors.length ? null : (parsed.data as Record<string, unknown>),
        errors,
      };
    },
  };
}

/**
 * The header-row reader of the engine's preview for one record type: `t` speaks the user's language (messages),
 * `translators` every language (accepted headers and labels).
 */
export function labelledHeader(cfg: Entity, t: Translate, translators: Translate[], opts: LabelledOptions = {}): (cells: string[]) => RowReader {
  const converters = cellConverters(cfg, translators);
  return (cells) => labelledReader(cfg, mapHeaders(cfg, cells, t, translators, opts), converters, opts);
}

// Templates ----------------------------------------------------------------------------------------------------

export type TemplateFormat = 'csv' | 'xlsx';

export const TEMPLATE_TYPES: Record<TemplateFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** The CSV template: one header row (labels in the user's language), `;` in German and `,` in English, BOM. */
export function templateCsv(cfg: Cfg, t: Translate, lang: string): string {
  return stringify([templateHeaders(cfg, t)], { delimiter: lang === 'en' ? ',' : ';', bom: true, record_delimiter: 'windows' });
}

/**
 * The XLSX template: the same header row, bold and frozen, in a worksheet named after the record type. Cells
 * below are left as the user types them (numbers and dates as the spreadsheet's own values are read as such).
 */
export async function templateXlsx(cfg: Cfg, t: Translate): Promise<Buffer> {
  // Loaded on demand, as for reading: exceljs is large, and most requests never need it.
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  // A worksheet name has at most 31 characters and none of []:*?/\.
  const sheet = workbook.addWorksheet(t(`${cfg.ns}:title`).replace(/[[\]:*?/\\]/g, ' ').slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
  const headers = templateHeaders(cfg, t);
  sheet.addRow(headers).font = { bold: true };
  headers.forEach((h, i) => {
    sheet.getColumn(i + 1).width = Math.min(40, Math.max(12, h.length + 2));
  });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
