// How a record's values appear on its detail page: in the edit form (a stored decimal typed back unchanged
// reads the same number), in the version history (choices and yes/no in words, dates and decimals as the
// language writes them), which label a changed field has, and how the form's fields fall into groups
// (fieldsets). Pure, so views/records/detail.ejs only lays out what this decides.
import type { Formatter } from '../http/format.js';
import type { FormField } from './entity.js';
import type { FileRef } from './files.js';

type T = (key: string | string[], options?: Record<string, unknown>) => string;

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** A stored file's reference, as a file field's value and its versions hold it (src/records/files.ts). */
const isFileRef = (v: unknown): v is FileRef => typeof v === 'object' && v !== null && typeof (v as FileRef).sha256 === 'string' && typeof (v as FileRef).name === 'string';

/**
 * A stored decimal as the form shows it: the language's decimal separator, no grouping and no trailing zeros,
 * so that saving the form unchanged reads the same number back ("25.000" would be read as 25 in German).
 */
export function editableDecimal(value: unknown, lang: string): string {
  let s = String(value);
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  return lang === 'de' ? s.replace('.', ',') : s;
}

/**
 * The value of a field in the form. Stored decimals are made editable; what the user typed (a form shown
 * again with its errors) is shown exactly as typed.
 */
export function formValue(field: FormField, values: Record<string, unknown>, opts: { fromRecord: boolean; lang: string }): unknown {
  const x = values[field.name];
  if (x == null) return '';
  return field.kind === 'decimal' && opts.fromRecord ? editableDecimal(x, opts.lang) : x;
}

/**
 * A value in the version history, as lines (most values are one). `own` is the record type's own formatting
 * (EntityConfig.formatValue), used when it returns something.
 */
export function historyValue(
  field: string, def: FormField | undefined, value: unknown,
  ctx: { fmt: Formatter; t: T; own?: (field: string, value: unknown, ctx: { fmt: Formatter; t: T }) => unknown },
): string[] {
  const own = ctx.own?.(field, value, { fmt: ctx.fmt, t: ctx.t });
  if (own !== undefined) return ([] as unknown[]).concat(own).map(String);
  if (value === null || value === undefined || value === '') return ['–'];
  if (isFileRef(value)) return [`${value.name} (${ctx.fmt.number(Math.max(1, Math.round(value.size / 1024)), 0)} KB)`];
  const option = def?.options?.find((o) => o.value === String(value));
  if (option) return [option.raw ? option.label : ctx.t(option.label)];
  if (field === 'status') return [ctx.t(`records:status.${value}`)];
  if (typeof value === 'boolean') return [ctx.t(value ? 'list.yes' : 'list.no')];
  if (def?.kind === 'date') return [ctx.fmt.date(String(value))];
  if (def?.kind === 'decimal' && DECIMAL.test(String(value))) {
    return [ctx.fmt.number(String(value), (String(value).split('.')[1] ?? '').replace(/0+$/, '').length)];
  }
  return [String(value)];
}

/** The label of a changed field in the history: the form's label, else the record type's or the movement data's. */
export function fieldLabel(field: string, def: FormField | undefined, ns: string, t: T): string {
  if (field === 'nr') return t('records:fields.nr');
  if (field === 'status') return t('records:fields.status');
  if (def) return t(def.label);
  return t([`${ns}:fields.${field}`, `bewegungsdaten:fields.${field}`], { defaultValue: field });
}

export interface FieldGroup {
  /** i18n key of the fieldset's legend; null for fields declared without a group. */
  legend: string | null;
  fields: FormField[];
}

/**
 * The form's fields in their groups, in the order the groups first appear; fields without a group form one
 * group of their own where the first of them stands. Checkboxes stay in their group (the view puts them last).
 */
export function formGroups(form: readonly FormField[]): FieldGroup[] {
  const groups: FieldGroup[] = [];
  for (const field of form) {
    const legend = field.group ?? null;
    let group = groups.find((g) => g.legend === legend);
    if (!group) groups.push((group = { legend, fields: [] }));
    group.fields.push(field);
  }
  return groups;
}

/** A field's value on the read view: lines of text, or a stored file to link to. */
export interface ReadItem {
  name: string;
  label: string;
  lines: string[];
  file?: FileRef;
}

export interface ReadGroup {
  legend: string | null;
  items: ReadItem[];
}

type ReadCtx = { fmt: Formatter; t: T; own?: (field: string, value: unknown, ctx: { fmt: Formatter; t: T }) => unknown };

/** One field's value as the read view shows it: as the version history words it; several choices joined. */
export function readItem(field: FormField, value: unknown, ctx: ReadCtx): ReadItem {
  const label = ctx.t(field.label);
  if (isFileRef(value)) return { name: field.name, label, lines: [], file: value };
  const lines = Array.isArray(value)
    ? [value.length ? value.map((one) => historyValue(field.name, field, one, ctx).join(' ')).join(', ') : '–']
    : historyValue(field.name, field, value, ctx);
  return { name: field.name, label, lines };
}

/** The record's fields in their groups, for the read view (issue 20: read first, edit on request). */
export function readGroups(groups: readonly FieldGroup[], record: Record<string, unknown>, ctx: ReadCtx): ReadGroup[] {
  return groups.map((g) => ({ legend: g.legend, items: g.fields.map((f) => readItem(f, record[f.name], ctx)) }));
}

/** A key figure: a field, or a quantity with the field that holds its unit ("12.500,5 L"). */
export type KeyField = string | { field: string; unit: string };

/**
 * The figures at the top of the read view: the declared key fields, else the first three plain fields of the
 * form (no text areas, files or yes/no). Choices read as their labels, so a partner shows number and name.
 */
export function keyFigures(keyFields: readonly KeyField[] | undefined, form: readonly FormField[], record: Record<string, unknown>, ctx: ReadCtx): { label: string; value: string }[] {
  const byName = new Map(form.map((f) => [f.name, f]));
  const chosen: KeyField[] = keyFields
    ? [...keyFields]
    : form.filter((f) => f.name !== 'status' && !['textarea', 'file', 'checkbox'].includes(f.kind)).slice(0, 3).map((f) => f.name);
  const figures: { label: string; value: string }[] = [];
  for (const k of chosen) {
    const name = typeof k === 'string' ? k : k.field;
    const field = byName.get(name);
    if (!field) continue;
    let value = readItem(field, record[name], ctx).lines.join(' ');
    if (typeof k !== 'string' && record[k.unit] != null && value !== '–') value = `${value} ${String(record[k.unit])}`;
    figures.push({ label: ctx.t(field.label), value });
  }
  return figures;
}
