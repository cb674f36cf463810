// Pages and API of a versioned record type, built from its EntityConfig: list (search, filters, sort, paging,
// sums, exports), detail with edit form and version history, create, number change with a confirmation step, and
// the lifecycle's actions: activate/deactivate and delete (refused while referenced) for master data, cancel
// and undo for deliveries. A locked record (a completed delivery) is read-only and its API answers 409. Every
// write is audited and location-scoped. What an entity has beyond its fields comes in through EntityConfig's
// optional hooks: prepare (checks against other data), detailLocals (more on the detail page), extraRoutes
// (its own routes, with load and renderDetail from here) and restrict (what a location-limited user may see).
import { Router, type Request, type Response } from 'express';
import type { Knex } from 'knex';
import { z } from 'zod';
import { audit } from '../db/audit.js';
import type { TenantScope } from '../db/scope.js';
import type { Meta, VersionInfo } from '../db/versioned.js';
import { requireApiPermission } from '../http/api.js';
import { HttpError } from '../http/errors.js';
import { recordNr } from '../http/fields.js';
import { formErrors, parseForm, submitForm } from '../http/forms.js';
import { guardsFor, requireActionPermission } from '../http/guards.js';
import { mountListApi, mountListPage } from '../http/list-routes.js';
import { actorOf, tenantScope } from '../http/tenant.js';
import { parseOr400 } from '../http/validate.js';
import { can } from '../permissions/index.js';
import type { EntityConfig } from './entity.js';

const NrBody = z.object({ nr: recordNr() });
const VersionField = z.coerce.number().int().min(1);

/**
 * The version an edit was based on: the form's `version` field, or the API's body `version` or `If-Match`
 * header. None means the edit is not checked against a version; anything but a positive integer is a 400.
 */
function basedOnVersion(req: Request): number | undefined {
  const ifMatch = typeof req.headers['if-match'] === 'string' ? req.headers['if-match'].replace(/"/g, '') : undefined;
  const raw = req.body?.version ?? ifMatch;
  return raw === undefined || raw === '' ? undefined : parseOr400(VersionField, raw);
}

/** The form's summary above the fields: "fill in all required fields" when one is missing, else null (default). */
const summaryOf = (err: unknown, req: Request) => (err instanceof HttpError && err.messageKey === 'errors.requiredFields' ? req.t(err.messageKey) : null);

/** Input without the fields it did not mention, so an update changes only what was sent. */
const mentioned = <T extends Record<string, unknown>>(data: T): T => Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined)) as T;

export function entityRoutes<T extends Record<string, unknown>>(knex: Knex, cfg: EntityConfig<T>): { pages: Router; api: Router } {
  const pages = Router({ mergeParams: true });
  const api = Router();
  const detailPath = `${cfg.path}/:id`;
  const base = (res: Response) => `/${res.locals.lang}/${cfg.path}`;
  const scopeOf = (res: Response, action: 'view' | 'edit' = 'view') => tenantScope(knex, res, cfg.area, action);
  const lifecycle = cfg.lifecycle ?? 'aktivierbar';
  const numbered = !cfg.generateNr;
  const createPath = cfg.createPath ?? 'neu';
  const auditKind = (action: string) => `${cfg.path.split('/')[0]}.${cfg.resource}.${action}`;

  /** Refuses a change to a locked record (inside the store's transaction, on the locked current row). */
  const notLocked = (current: T & Meta) => {
    const reason = cfg.lockedReason?.(current);
    if (reason) throw new HttpError(409, 'RECORD_LOCKED', reason);
  };

  /** Validated input completed by the entity's checks against other data (references, one per day). */
  async function prepared(scope: TenantScope, fields: T, before: (T & Meta) | null): Promise<T> {
    return cfg.prepare ? cfg.prepare(scope, fields, before) : fields;
  }

  /** Creates a record (form and API alike): number typed or generated, the entity's create-time fields set. */
  async function createRecord(req: Request, res: Response, input: T & { nr?: string }) {
    const { nr: typed, ...rest } = input;
    const scope = scopeOf(res, 'edit');
    const fields = await prepared(scope, { ...(rest as unknown as T), ...(cfg.onCreate ?? {}) }, null);
    const nr = typed ?? (await cfg.generateNr!(scope));
    if (cfg.standortOf && !scope.allowsStandort(cfg.standortOf({ ...fields, nr } as unknown as T & Meta))) {
      throw new HttpError(400, 'VALIDATION', 'errors.badRequest', [{ field: cfg.locatedBy ?? 'nr', message: 'stammdaten:errors.standortNotAllowed' }]);
    }
    const actor = actorOf(req, res);
    const record = await cfg.store.create(scope, nr, fields, actor.user.id);
    await audit(knex, { kind: auditKind('create'), mandant: actor.mandant, benutzerId: actor.user.id, entity: cfg.resource, entityId: nr, after: record, ip: actor.ip });
    return { scope, record };
  }

  /** Saves changed fields of a record; the location may only move within the user's locations. */
  async function updateRecord(req: Request, res: Response, scope: TenantScope, record: T & Meta, input: Partial<T>, basedOn: number | undefined) {
    // The entity's checks see the whole record: what was sent over what is stored (a cancellation sends one
    // field). Without checks only what was sent is saved.
    const stored = Object.fromEntries(Object.keys(cfg.store.spec.fields).map((f) => [f, record[f]])) as T;
    const fields = cfg.prepare ? mentioned(await cfg.prepare(scope, { ...stored, ...mentioned(input as T) }, record)) : mentioned(input as T);
    if (cfg.standortOf && !scope.allowsStandort(cfg.standortOf({ ...record, ...fields }))) {
      throw new HttpError(400, 'VALIDATION', 'errors.badRequest', [{ field: cfg.locatedBy ?? 'nr', message: 'stammdaten:errors.standortNotAllowed' }]);
    }
    const actor = actorOf(req, res);
    const saved = await cfg.store.update(scope, record.nr, fields, basedOn, actor.user.id, notLocked);
    if (saved.version !== record.version) {
      await audit(knex, { kind: auditKind('update'), mandant: actor.mandant, benutzerId: actor.user.id, entity: cfg.resource, entityId: record.nr, before: record, after: saved, ip: actor.ip });
    }
    return saved;
  }

  /** The record if it exists and lies in the user's locations; else 404 (never "forbidden": no hint it exists). */
  async function load(res: Response, nr: string, action: 'view' | 'edit' = 'view') {
    const scope = scopeOf(res, action);
    const record = await cfg.store.get(scope, nr);
    if (!record || (cfg.standortOf && !scope.allowsStandort(cfg.standortOf(record)))) throw new HttpError(404, 'NOT_FOUND', 'stammdaten:errors.notFound');
    return { scope, record };
  }

  /** load() and the record's version history, in one statement: what the detail page shows. */
  async function loadWithHistory(res: Response, nr: string) {
    const scope = scopeOf(res);
    const found = await cfg.store.getWithHistory(scope, nr);
    if (!found || (cfg.standortOf && !scope.allowsStandort(cfg.standortOf(found.record)))) throw new HttpError(404, 'NOT_FOUND', 'stammdaten:errors.notFound');
    return { scope, record: found.record, history: visibleHistory(scope, found.history) };
  }

  /** Validates fields and number together, so the form shows every error at once. */
  function validateAll(body: unknown, withNr: boolean): T & { nr?: string } {
    const errors: HttpError['errors'] = [];
    let fields: T | undefined;
    let nr: string | undefined;
    try {
      fields = parseForm(cfg.schema as z.ZodType<T>, body);
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
      errors.push(...e.errors);
    }
    if (withNr && numbered) {
      try {
        nr = parseForm(NrBody, body).nr;
      } catch (e) {
        if (!(e instanceof HttpError)) throw e;
        errors.push(...e.errors);
      }
    }
    // A missing required field is named as the spec says: "Bitte füllen Sie alle Pflichtfelder aus".
    if (errors.length) throw new HttpError(400, 'VALIDATION', errors.some((e) => e.message === 'validation.required') ? 'errors.requiredFields' : 'errors.badRequest', errors);
    return { ...mentioned(fields as T), ...(nr ? { nr } : {}) };
  }

  /** A record or version as the scope may see it (cfg.restrict hides what lies outside the user's locations). */
  function visible<R extends Record<string, unknown>>(scope: TenantScope, data: R): R {
    if (!cfg.restrict) return data;
    return Object.fromEntries(Object.entries(data).map(([field, value]) => [field, cfg.restrict!(scope, field, value)])) as R;
  }

  /** The version history as the scope may see it; a change that is invisible to it is left out. */
  async function historyOf(scope: TenantScope, nr: string): Promise<VersionInfo[]> {
    return visibleHistory(scope, await cfg.store.history(scope, nr));
  }

  function visibleHistory(scope: TenantScope, history: VersionInfo[]): VersionInfo[] {
    if (!cfg.restrict) return history;
    return history.map((h) => ({
      ...h,
      data: visible(scope, h.data),
      changes: h.changes
        .map((c) => ({ ...c, before: cfg.restrict!(scope, c.field, c.before), after: cfg.restrict!(scope, c.field, c.after) }))
        .filter((c) => JSON.stringify(c.before) !== JSON.stringify(c.after)),
    }));
  }

  async function detailPage(req: Request, res: Response, locals: Record<string, unknown>) {
    const principal = res.locals.principal!;
    const record = (locals.record ?? null) as (T & Meta) | null;
    // One scope for the entity's locals and the form's choices, so what the one reads the other may reuse.
    const scope = scopeOf(res);
    const extra = cfg.detailLocals
      ? await cfg.detailLocals({ scope, editScope: scopeOf(res, 'edit'), record, query: req.query as Record<string, unknown> })
      : {};
    const locked = record ? cfg.lockedReason?.(record) ?? null : null;
    await res.page('records/detail', {
      cfg: { ns: cfg.ns, path: cfg.path, resource: cfg.resource, lifecycle, numbered, createPath },
      form: await formWithChoices(scope, (locals.values ?? record ?? {}) as Record<string, unknown>),
      canEdit: can(principal, 'edit', cfg.area) && !locked,
      locked,
      badge: record ? (cfg.badge ? cfg.badge(record) : { label: `stammdaten:status.${record.status}`, variant: record.status === 'aktiv' ? 'success' : 'neutral' }) : null,
      errors: {},
      history: [],
      warnings: [],
      confirmNr: null,
      ...extra,
      ...locals,
    });
  }

  /** The form's fields with the choices of data-backed selects; a stored value that is no longer offered stays. */
  async function formWithChoices(scope: TenantScope, values: Record<string, unknown>) {
    return Promise.all(cfg.form.map(async (f) => {
      if (!f.choices) return f;
      const options = await f.choices(scope);
      const current = values[f.name];
      if (typeof current === 'string' && current && !options.some((o) => o.value === current)) options.push({ value: current, label: current, raw: true });
      return { ...f, options };
    }));
  }

  /**
   * The detail page of a record as GET shows it; `extra` adds or replaces locals (a sub-form's errors). The
   * history is read unless `extra` brings it (loadWithHistory).
   */
  async function showDetail(req: Request, res: Response, record: T & Meta, extra: Record<string, unknown> = {}) {
    await detailPage(req, res, {
      title: `${req.t(`${cfg.ns}:one`)} ${record.nr}`,
      record,
      values: record,
      history: extra.history ?? (await historyOf(scopeOf(res), record.nr)),
      warnings: cfg.warnings?.(record) ?? [],
      ...extra,
    });
  }

  // List page and list API, each with the exports (?format=csv|xlsx|pdf).
  mountListPage(pages, knex, cfg.list, {
    path: cfg.path, area: cfg.area, view: 'records/index', title: `${cfg.ns}:title`, filename: cfg.resource, createPath,
  });
  mountListApi(api, knex, cfg.list, cfg.resource, cfg.area, { title: `${cfg.ns}:title`, filename: cfg.resource });

  const editGuards = [...guardsFor(detailPath), requireActionPermission(cfg.area, 'edit')];

  pages.get(`/${cfg.path}/${createPath}`, ...guardsFor(createPath === 'neu' ? detailPath : `${cfg.path}/${createPath}`, 'edit'), (req, res) =>
    detailPage(req, res, { title: req.t(`${cfg.ns}:create`), record: null, values: { ...(cfg.defaults ?? {}) } }),
  );

  pages.post(`/${cfg.path}`, ...editGuards, (req, res) =>
    submitForm(
      req, res,
      async () => `${base(res)}/${encodeURIComponent((await createRecord(req, res, validateAll(req.body, true))).record.nr)}`,
      (errors, err) => detailPage(req, res, { title: req.t(`${cfg.ns}:create`), record: null, values: req.body ?? {}, errors, errorSummary: summaryOf(err, req) }),
    ),
  );

  pages.get(`/${detailPath}`, ...guardsFor(detailPath), async (req, res) => {
    const { record, history } = await loadWithHistory(res, String(req.params.id));
    await showDetail(req, res, record, { history });
  });

  // Save; a changed number first asks for confirmation (a plain HTML step), then renumbers.
  pages.post(`/${detailPath}`, ...editGuards, async (req, res) => {
    const { scope, record } = await load(res, String(req.params.id), 'edit');
    const actor = actorOf(req, res);
    try {
      notLocked(record);
      const input = validateAll(req.body, true);
      const basedOn = basedOnVersion(req);
      const { nr = record.nr, ...fields } = input;
      if (nr !== record.nr && req.body?.confirmNr !== nr) {
        return await detailPage(req, res, { title: `${req.t(`${cfg.ns}:one`)} ${record.nr}`, record, values: req.body, confirmNr: nr });
      }
      let saved = await updateRecord(req, res, scope, record, fields as unknown as Partial<T>, basedOn);
      if (nr !== record.nr) {
        saved = await cfg.store.renumber(scope, record.nr, nr, saved.version, actor.user.id, notLocked);
        await audit(knex, { kind: auditKind('renumber'), mandant: actor.mandant, benutzerId: actor.user.id, entity: cfg.resource, entityId: saved.nr, before: { nr: record.nr }, after: { nr: saved.nr }, ip: actor.ip });
      }
      res.flash('success', 'flash.saved');
      res.redirect(`${base(res)}/${encodeURIComponent(saved.nr)}`);
    } catch (err) {
      const conflict = err instanceof HttpError && err.status === 409 && err.code === 'VERSION_CONFLICT';
      if (err instanceof HttpError && err.code === 'RECORD_LOCKED') {
        res.status(409);
        return await showDetail(req, res, (await load(res, record.nr)).record);
      }
      const errors = conflict ? { _: req.t(err.messageKey) } : formErrors(err, req);
      if (!errors) throw err;
      res.status(conflict ? 409 : 400);
      await detailPage(req, res, {
        title: `${req.t(`${cfg.ns}:one`)} ${record.nr}`, record, values: req.body ?? {}, errors, conflict, errorSummary: summaryOf(err, req),
        history: await historyOf(scope, record.nr),
      });
    }
  });

  if (lifecycle === 'aktivierbar') {
    pages.post(`/${detailPath}/status`, ...editGuards, async (req, res) => {
      const { scope, record } = await load(res, String(req.params.id), 'edit');
      const status = req.body?.status === 'inaktiv' ? 'inaktiv' : 'aktiv';
      const actor = actorOf(req, res);
      const saved = await cfg.store.update(scope, record.nr, { status } as Partial<T> & { status: Meta['status'] }, undefined, actor.user.id);
      await audit(knex, { kind: auditKind('status'), mandant: actor.mandant, benutzerId: actor.user.id, entity: cfg.resource, entityId: record.nr, before: { status: record.status }, after: { status: saved.status }, ip: actor.ip });
      res.flash('success', status === 'aktiv' ? 'stammdaten:flash.activated' : 'stammdaten:flash.deactivated');
      res.redirect(`${base(res)}/${encodeURIComponent(record.nr)}`);
    });

    pages.post(`/${detailPath}/delete`, ...editGuards, async (req, res) => {
      const { scope, record } = await load(res, String(req.params.id), 'edit');
      try {
        await removeRecord(req, res, scope, record);
      } catch (err) {
        if (!(err instanceof HttpError) || err.status !== 409) throw err;
        res.flash('error', 'stammdaten:errors.inUse');
        return res.redirect(`${base(res)}/${encodeURIComponent(record.nr)}`);
      }
      res.flash('success', 'stammdaten:flash.deleted');
      res.redirect(base(res));
    });
  }

  // Cancelling keeps the record (and its proof); it is marked everywhere and left out of every total.
  if (lifecycle === 'stornierbar') {
    pages.post(`/${detailPath}/storno`, ...editGuards, async (req, res) => {
      const { scope, record } = await load(res, String(req.params.id), 'edit');
      const storniert = req.body?.storniert !== 'false';
      try {
        await updateRecord(req, res, scope, record, { storniert } as unknown as Partial<T>, basedOnVersion(req));
      } catch (err) {
        // Locked, changed meanwhile or a tampered form: said on the record's page.
        if (!(err instanceof HttpError) || err.status >= 500) throw err;
        res.flash('error', err.messageKey);
        return res.redirect(`${base(res)}/${encodeURIComponent(record.nr)}`);
      }
      res.flash('success', storniert ? 'bewegungsdaten:flash.storniert' : 'bewegungsdaten:flash.stornoAufgehoben');
      res.redirect(`${base(res)}/${encodeURIComponent(record.nr)}`);
    });
  }

  async function removeRecord(req: Request, res: Response, scope: TenantScope, record: T & Meta) {
    await cfg.store.remove(scope, record.nr, (tx) => cfg.referenced(tx, record.nr));
    const actor = actorOf(req, res);
    await audit(knex, { kind: auditKind('delete'), mandant: actor.mandant, benutzerId: actor.user.id, entity: cfg.resource, entityId: record.nr, before: record, ip: actor.ip });
  }

  // JSON API: read, create, update (version in the body or If-Match), delete (master data), versions.
  const view = requireApiPermission(cfg.area, 'view');
  const edit = requireApiPermission(cfg.area, 'edit');
  const apiNr = (raw: unknown) => String(raw);

  api.get(`/${cfg.resource}/:nr`, view, async (req, res) => {
    const { scope, record } = await load(res, apiNr(req.params.nr));
    res.json({ success: true, data: visible(scope, record) });
  });

  api.get(`/${cfg.resource}/:nr/versionen`, view, async (req, res) => {
    const { scope, record } = await load(res, apiNr(req.params.nr));
    const data = await historyOf(scope, record.nr);
    res.json({ data, total: data.length, page: 1, pageSize: data.length });
  });

  api.post(`/${cfg.resource}`, edit, async (req, res) => {
    const { scope, record } = await createRecord(req, res, validateAll(req.body, true));
    res.status(201).json({ success: true, data: visible(scope, record) });
  });

  api.put(`/${cfg.resource}/:nr`, edit, async (req, res) => {
    const { scope, record } = await load(res, apiNr(req.params.nr), 'edit');
    notLocked(record);
    const fields = parseOr400(cfg.schema as z.ZodType<T>, req.body);
    const basedOn = basedOnVersion(req);
    const saved = await updateRecord(req, res, scope, record, fields, basedOn);
    res.json({ success: true, data: visible(scope, saved) });
  });

  if (lifecycle === 'aktivierbar') {
    api.delete(`/${cfg.resource}/:nr`, edit, async (req, res) => {
      const { scope, record } = await load(res, apiNr(req.params.nr), 'edit');
      await removeRecord(req, res, scope, record);
      res.json({ success: true });
    });
  }

  // The entity's own routes (e.g. the partner's rules) come after the generic ones and use the same loading
  // and detail page.
  if (cfg.extraRoutes) {
    const extra = cfg.extraRoutes(knex, { load, renderDetail: showDetail });
    if (extra.pages) pages.use(extra.pages);
    if (extra.api) api.use(extra.api);
  }

  return { pages, api };
}
