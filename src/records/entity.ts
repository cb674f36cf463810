// What a versioned record type declares: master data (Standorte, Produkte, Tauschpartner) and movement data
// (Einlieferungen, Ablieferungen, Bestände). Its versioned store, input schema, list, form fields, actions and
// what refers to it; routes.ts builds pages and API from this, so nothing is written twice.
import type { KeyField } from './presenter.js';
import type { Request, Response, Router } from 'express';
import type { Knex } from 'knex';
import type { z } from 'zod';
import type { TenantScope } from '../db/scope.js';
import type { Meta, VersionedStore } from '../db/versioned.js';
import type { Formatter } from '../http/format.js';
import type { ChoiceOptions, ListDefinition } from './list/engine.js';
import type { Area } from '../permissions/index.js';
import type { FileKind } from './files.js';
import type { RecordAction } from './service.js';
import type { ApiShape } from './api-names.js';

export type FormFieldKind = 'text' | 'email' | 'decimal' | 'integer' | 'date' | 'select' | 'checkbox' | 'textarea' | 'file';

export interface FormField {
  name: string;
  /** i18n key of the label. */
  label: string;
  kind: FormFieldKind;
  required?: boolean;
  maxLength?: number;
  hint?: string;
  /** Select choices: value and i18n key. */
  options?: { value: string; label: string; raw?: boolean }[];
  /** Select choices read from the tenant's data when the form is shown (its partners, locations, products). */
  choices?(scope: TenantScope): Promise<ChoiceOptions>;
  autocomplete?: string;
  /** Chosen when the record is made and fixed afterwards (a proof's certificate): shown, not editable, on a stored record. */
  fixed?: boolean;
  /** i18n key of the hint a fixed field shows on a stored record instead of `hint` (where it is changed instead). */
  fixedHint?: string;
  /**
   * The value is a list (a collection's certificates): the create form's select chooses its first entry; fixed,
   * the list is shown as text and sent back as it is.
   */
  multiple?: boolean;
  /** i18n key of the group (a fieldset with this legend) the field belongs to; see presenter.formGroups. */
  group?: string;
  /**
   * A file field (kind `file`): the kinds its content may be and its largest size. The schema checks it with
   * fileField() (src/records/files.ts); the record keeps a FileRef, downloaded at `…/{nr}/{name}`.
   */
  file?: { kinds: readonly FileKind[]; maxBytes?: number };
}

/**
 * A tab of the detail page beyond the record's own fields (Allgemein) and its versions (Versionen): e.g. a
 * certificate's deliveries. Each tab is its own address (`?tab=key`), so it works without JavaScript, and only
 * the chosen tab's data is read.
 */
export interface RecordSection<T> {
  key: string;
  /** i18n key of the tab. */
  label: string;
  /** The view (path relative to views/) that shows the tab's content. */
  view: string;
  /** The view's locals, read when the tab is chosen. */
  locals?(ctx: DetailContext<T>): Promise<Record<string, unknown>>;
}

export type BadgeVariant = 'neutral' | 'info' | 'success' | 'warning' | 'error';

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
  /** Advice shown next to a value, e.g. a calorific value far from the reference of its product group. */
  warnings?(record: T): { field: string; message: string; params?: Record<string, unknown> }[];
  /** Defaults of a new record (e.g. the reference LCV of a product group). */
  defaults?: Partial<T>;
  /** Tabs of the detail page between Allgemein and Versionen, in this order. */
  sections?: RecordSection<T>[];
  /**
   * Changes beyond create and edit, each mounted as a resource (`…/{nr}/{name}`) with its own guard, input and
   * audit: activate/deactivate for master data, cancel for deliveries (src/records/actions.ts), later split and link.
   */
  actions?: RecordAction<T, any>[];
  /**
   * Master data may be deleted while nothing refers to it (`referenced`: movement data or other records do);
   * movement data never is (it is cancelled instead).
   */
  removable?: { referenced(scope: TenantScope, nr: string): Promise<boolean> };
  /** Address of the create form below the list (default `neu`; the spec names it `create` for Bestände). */
  createPath?: string;
  /**
   * Address of the type's import page below the list (a page of the route tree, e.g. `import` for
   * `bewegungsdaten/nachweise/import`): the list links to it next to the create button for those its guard admits.
   */
  importPath?: string;
  /** The number a new record's form proposes (the user may type another); see src/db/numbers.ts. */
  proposeNr?(scope: TenantScope): Promise<string>;
  /** Numbers are typed by the user unless the entity generates them (Bestände). */
  generateNr?(scope: TenantScope): Promise<string>;
  /** Fields that every create through the pages or the API sets (a delivery entered by hand). */
  onCreate?: Partial<T>;
  /**
   * Completes and checks input against other data before it is stored: references resolved to their current
   * version, a product group that matches the product, one stock figure per day. Throws a 400 HttpError whose
   * errors name the fields. `before` is the stored record when updating.
   */
  prepare?(scope: TenantScope, input: T, before: (T & Meta) | null): Promise<T>;
  /**
   * What a new record changes in other records, in its transaction, after it is stored and before its audit
   * entry (a proof for a delivered quantity takes that quantity from its certificate).
   */
  afterCreate?(tx: TenantScope, record: T & Meta, actor: { user: { id: number } }): Promise<void>;
  /**
   * What every write of the record (create, edit, an action's save) keeps in step in its transaction, after the
   * version is stored: a working table mirroring a list field (a collection's certificates). `before` is null on create.
   */
  afterSave?(tx: TenantScope, record: T & Meta, before: (T & Meta) | null): Promise<void>;
  /** Why a record may no longer be changed (i18n key), or null: its page is read-only and the API answers 409. */
  lockedReason?(record: T & Meta): string | null;
  /**
   * The figures at the top of a record's read view (issue 20), in this order; a quantity names the field of its
   * unit. Default: the first three plain fields of the form (src/records/presenter.ts, keyFigures).
   */
  keyFields?: readonly KeyField[];
  /** The badge next to a record's title (default: aktiv/inaktiv). */
  badge?(record: T & Meta): { label: string; variant: BadgeVariant } | null;

  // Optional hooks for what an entity has beyond its own fields (the partner's rules). An entity without them
  // gets exactly the generic pages and API.

  /**
   * Extra locals of the detail page's Allgemein tab and of the create form (record null). `extraSection`: a view
   * (path relative to views/records/) included below the form; `headSection`: one above it (stored records only).
   */
  detailLocals?(ctx: DetailContext<T>): Promise<Record<string, unknown>>;
  /** How the version history shows a field's value (undefined: the default of src/records/presenter.ts; an array: lines). */
  formatValue?(field: string, value: unknown, ctx: { fmt: Formatter; t: (key: string, params?: Record<string, unknown>) => string }): string | string[] | undefined;
  /** Routes beyond the generic ones (e.g. the partner's rules), mounted next to them. */
  extraRoutes?(knex: Knex, kit: EntityKit<T>): { pages?: Router; api?: Router };
  /**
   * The part of a field's value the scope may see (e.g. only the rules of the user's locations). Applied to
   * records, versions and changes that the generic pages and API show; unrestricted scopes see everything.
   */
  restrict?(scope: TenantScope, field: string, value: unknown): unknown;
  /**
   * The JSON API's names where the spec's section 3 differs from the stored fields (src/records/api-names.ts):
   * responses (records and list rows; the version history keeps the stored names) carry both names, requests accept either.
   */
  api?: ApiShape<T & Meta>;
  /** `POST /api/{resource}/bulk`: up to 1,000 records created all or nothing (src/records/bulk.ts), for the types systems push. */
  bulk?: boolean;
}

export interface DetailContext<T> {
  /** The user's scope for viewing, and for editing (no locations when the user may not edit). */
  scope: TenantScope;
  editScope: TenantScope;
  record: (T & Meta) | null;
  query: Record<string, unknown>;
  /** The user's scope in another area (a collection's tab lists inbound deliveries: their locations decide). */
  scopeFor(area: Area, action: 'view' | 'edit'): TenantScope;
}

/** What an entity's own routes use from the generic machinery, so they behave like its pages. */
export interface EntityKit<T> {
  /** The record if it exists and lies in the user's locations, with the scope of the action; else 404. */
  load(res: Response, nr: string, action?: 'view' | 'edit'): Promise<{ scope: TenantScope; record: T & Meta }>;
  /** The detail page as GET shows it, with extra locals (e.g. a sub-form's values and errors). */
  renderDetail(req: Request, res: Response, record: T & Meta, extra?: Record<string, unknown>): Promise<void>;
}
