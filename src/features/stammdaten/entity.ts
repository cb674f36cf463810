// What a master-data entity declares (Standorte, Produkte, Tauschpartner): its versioned store, input schema,
// list, form fields and what refers to it. crud.ts builds pages and API from this; nothing is written twice.
import type { z } from 'zod';
import type { TenantScope } from '../../db/scope.js';
import type { Meta, VersionedStore } from '../../db/versioned.js';
import type { ListDefinition } from '../../http/list.js';
import type { Area } from '../../permissions/index.js';

export type FormFieldKind = 'text' | 'email' | 'decimal' | 'integer' | 'select' | 'checkbox' | 'textarea';

export interface FormField {
  name: string;
  /** i18n key of the label. */
  label: string;
  kind: FormFieldKind;
  required?: boolean;
  maxLength?: number;
  hint?: string;
  /** Select choices: value and i18n key. */
  options?: { value: string; label: string }[];
  autocomplete?: string;
}

export interface EntityConfig<T extends Record<string, unknown>> {
  /** URL segment and API resource, e.g. 'standorte'. */
  resource: string;
  /** Route-tree path of the list, e.g. 'stammdaten/standorte'. */
  path: string;
  area: Area;
  /** i18n namespace of the entity's own texts (title, fields). */
  ns: string;
  store: VersionedStore<T>;
  /** The fields without `nr` (the number is validated separately). */
  schema: z.ZodType<T>;
  list: ListDefinition<T & Meta>;
  form: FormField[];
  /** Limit rows to the locations the user may see; returns the location of a record (null: not located). */
  standortOf?: (record: T & Meta) => string | null;
  locatedBy?: string;
  /** Whether movement data or other records refer to this record (then it cannot be deleted). */
  referenced(scope: TenantScope, nr: string): Promise<boolean>;
  /** Advice shown next to a value, e.g. a calorific value far from the reference of its product group. */
  warnings?(record: T): { field: string; message: string; params?: Record<string, unknown> }[];
  /** Defaults of a new record (e.g. the reference LCV of a product group). */
  defaults?: Partial<T>;
}
