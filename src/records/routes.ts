// Pages and API of a master-data entity, built from its EntityConfig: list (search, filters, sort, paging,
// CSV), detail with edit form and version history, create, number change with a confirmation step,
// activate/deactivate, delete (refused while referenced). Every write is audited and location-scoped. What an
// entity has beyond its fields (the partner's rules) comes in through EntityConfig's optional hooks:
// detailLocals (more on the detail page), extraRoutes (its own routes, with load and renderDetail from here)
// and restrict (what a location-limited user may see of a field).
import { Router, type Request, type Response } from 'express';
import type { Knex } from 'knex';
import { z } from 'zod';
import { audit } from '../db/audit.js';
import type { TenantScope } from '../db/scope.js';
import type { Meta, VersionInfo } from '../db/versioned.js';
import { requireApiPermission } from '../http/api.js';
import { HttpError } from '../http/errors.js';
import { recordNr } from '../http/fields.js';
import { formErrors, parseForm } from '../http/forms.js';
import { guardsFor, requireActionPermission } from '../http/guards.js';
import { mountListApi, mountListPage } from '../http/list-routes.js';
import { actorOf, tenantScope } from '../http/tenant.js';
import { parseOr400 } from '../http/validate.js';
import { can } from '../permissions/index.js';
import type { EntityConfig } from './entity.js';

const NrBody = z.object({ nr: recordNr() });
const VersionField = z.coerce.number().int().min(1).optional();

export function entityRoutes<T extends Record<string, unknown>>(knex: Knex, cfg: EntityConfig<T>): { pages: Router; api: Router } {
  const pages = Router({ mergeParams: true });
  const api = Router();
  const detailPath = `${cfg.path}/:id`;
  const base = (res: Response) => `/${res.locals.lang}/${cfg.path}`;
  const scopeOf = (res: Response, action: 'view' | 'edit' = 'view') => tenantScope(knex, res, cfg.area, action);

  /** The record if it exists and lies in the user's locations; else 404 (never "forbidden": no hint it exists). */
  async function load(res: Response, nr: string, action: 'view' | 'edit' = 'view') {
    const scope = scopeOf(res, action);
    const record = await cfg.store.get(scope, nr);
    if (!record || (cfg.standortOf && !scope.allowsStandort(cfg.standortOf(record)))) throw new HttpError(404, 'NOT_FOUND', 'stammdaten:errors.notFound');
    return { scope, record };
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
    if (withNr) {
      try {
        nr = parseForm(NrBody, body).nr;
      } catch (e) {
        if (!(e instanceof HttpError)) throw e;
        errors.push(...e.errors);
      }
    }
    if (errors.length) throw new HttpError(400, 'VALIDATION', 'errors.badRequest', errors);
    return { ...(fields as T), ...(nr ? { nr } : {}) };
  }

  /** A record or version as the scope may see it (cfg.restrict hides what lies outside the user's locations). */
  function visible<R extends Record<string, unknown>>(scope: TenantScope, data: R): R {
    if (!cfg.restrict) return data;
    return Object.fromEntries(Object.entries(data).map(([field, value]) => [field, cfg.restrict!(scope, field, value)])) as R;
  }

  /** The version history as the scope may see it; a change that is invisible to it is left out. */
  async function historyOf(scope: TenantScope, nr: string): Promise<VersionInfo[]> {
    const history = await cfg.store.history(scope, nr);
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
    const extra = cfg.detailLocals
      ? await cfg.detailLocals({ scope: scopeOf(res), editScope: scopeOf(res, 'edit'), record, query: req.query as Record<string, unknown> })
      : {};
    await res.page('records/detail', {
      cfg: { ns: cfg.ns, path: cfg.path, resource: cfg.resource },
      form: cfg.form,
      canEdit: can(principal, 'edit', cfg.area),
      errors: {},
      history: [],
      warnings: [],
      confirmNr: null,
      ...extra,
      ...locals,
    });
  }

  /** The detail page of a record as GET shows it; `extra` adds or replaces locals (a sub-form's errors). */
  async function showDetail(req: Request, res: Response, record: T & Meta, extra: Record<string, unknown> = {}) {
    const scope = scopeOf(res);
    await detailPage(req, res, {
      title: `${req.t(`${cfg.ns}:one`)} ${record.nr}`,
      record,
      values: record,
      history: await historyOf(scope, record.nr),
      warnings: cfg.warnings?.(record) ?? [],
      ...extra,
    });
  }

  // List page with CSV export, and the list API.
  mountListPage(pages, knex, cfg.list, {
    path: cfg.path, area: cfg.area, view: 'records/index', title: `${cfg.ns}:title`, filename: cfg.resource,
  });
  mountListApi(api, knex, cfg.list, cfg.resource, cfg.area);

  const editGuards = [...guardsFor(detailPath), requireActionPermission(cfg.area, 'edit')];

  pages.get(`/${cfg.path}/neu`, ...guardsFor(detailPath, 'edit'), (req, res) =>
    detailPage(req, res, { title: req.t(`${cfg.ns}:create`), record: null, values: { ...(cfg.defaults ?? {}) } }),
  );

  pages.post(`/${cfg.path}`, ...editGuards, async (req, res) => {
    try {
      const input = validateAll(req.body, true);
      const { nr, ...fields } = input;
      const scope = scopeOf(res, 'edit');
      if (cfg.standortOf && !scope.allowsStandort(cfg.standortOf(input as T & Meta))) throw new HttpError(400, 'VALIDATION', 'errors.badRequest', [{ field: 'nr', message: 'stammdaten:errors.standortNotAllowed' }]);
      const actor = actorOf(req, res);
      const record = await cfg.store.create(scope, nr!, fields as unknown as T, actor.user.id);
      await audit(knex, { kind: `stammdaten.${cfg.resource}.create`, mandant: actor.mandant, benutzerId: actor.user.id, entity: cfg.resource, entityId: nr, after: record, ip: actor.ip });
      res.flash('success', 'flash.saved');
      res.redirect(`${base(res)}/${encodeURIComponent(nr!)}`);
    } catch (err) {
      const errors = formErrors(err, req);
      if (!errors) throw err;
      res.status(400);
      await detailPage(req, res, { title: req.t(`${cfg.ns}:create`), record: null, values: req.body ?? {}, errors });
    }
  });

  pages.get(`/${detailPath}`, ...guardsFor(detailPath), async (req, res) => {
    const { record } = await load(res, String(req.params.id));
    await showDetail(req, res, record);
  });

  // Save; a changed number first asks for confirmation (a plain HTML step), then renumbers.
  pages.post(`/${detailPath}`, ...editGuards, async (req, res) => {
    const { scope, record } = await load(res, String(req.params.id), 'edit');
    const actor = actorOf(req, res);
    try {
      const input = validateAll(req.body, true);
      const basedOn = VersionField.parse(req.body?.version || undefined);
      const { nr, ...fields } = input;
      if (nr !== record.nr && req.body?.confirmNr !== nr) {
        return await detailPage(req, res, { title: `${req.t(`${cfg.ns}:one`)} ${record.nr}`, record, values: req.body, confirmNr: nr });
      }
      let saved = await cfg.store.update(scope, record.nr, fields as unknown as Partial<T>, basedOn, actor.user.id);
      if (nr !== record.nr) saved = await cfg.store.renumber(scope, record.nr, nr!, saved.version, actor.user.id);
      if (saved.version !== record.version) {
        await audit(knex, { kind: `stammdaten.${cfg.resource}.update`, mandant: actor.mandant, benutzerId: actor.user.id, entity: cfg.resource, entityId: saved.nr, before: record, after: saved, ip: actor.ip });
      }
      res.flash('success', 'flash.saved');
      res.redirect(`${base(res)}/${encodeURIComponent(saved.nr)}`);
    } catch (err) {
      const conflict = err instanceof HttpError && err.status === 409;
      const errors = conflict ? { _: req.t(err.messageKey) } : formErrors(err, req);
      if (!errors) throw err;
      res.status(conflict ? 409 : 400);
      await detailPage(req, res, {
        title: `${req.t(`${cfg.ns}:one`)} ${record.nr}`, record, values: req.body ?? {}, errors, conflict,
        history: await historyOf(scope, record.nr),
      });
    }
  });

  pages.post(`/${detailPath}/status`, ...editGuards, async (req, res) => {
    const { scope, record } = await load(res, String(req.params.id), 'edit');
    const status = req.body?.status === 'inaktiv' ? 'inaktiv' : 'aktiv';
    const actor = actorOf(req, res);
    const saved = await cfg.store.update(scope, record.nr, { status } as Partial<T> & { status: Meta['status'] }, undefined, actor.user.id);
    await audit(knex, { kind: `stammdaten.${cfg.resource}.status`, mandant: actor.mandant, benutzerId: actor.user.id, entity: cfg.resource, entityId: record.nr, before: { status: record.status }, after: { status: saved.status }, ip: actor.ip });
    res.flash('success', status === 'aktiv' ? 'stammdaten:flash.activated' : 'stammdaten:flash.deactivated');
    res.redirect(`${base(res)}/${encodeURIComponent(record.nr)}`);
  });

  pages.post(`/${detailPath}/delete`, ...editGuards, async (req, res) => {
    const { scope, record } = await load(res, String(req.params.id), 'edit');
    const actor = actorOf(req, res);
    try {
      await cfg.store.remove(scope, record.nr, (tx) => cfg.referenced(tx, record.nr));
    } catch (err) {
      if (!(err instanceof HttpError) || err.status !== 409) throw err;
      res.flash('error', 'stammdaten:errors.inUse');
      return res.redirect(`${base(res)}/${encodeURIComponent(record.nr)}`);
    }
    await audit(knex, { kind: `stammdaten.${cfg.resource}.delete`, mandant: actor.mandant, benutzerId: actor.user.id, entity: cfg.resource, entityId: record.nr, before: record, ip: actor.ip });
    res.flash('success', 'stammdaten:flash.deleted');
    res.redirect(base(res));
  });

  // JSON API: read, create, update (version in the body or If-Match), delete, versions.
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
    const { nr, ...fields } = validateAll(req.body, true) as T & { nr: string };
    const scope = scopeOf(res, 'edit');
    if (cfg.standortOf && !scope.allowsStandort(cfg.standortOf({ ...fields, nr } as unknown as T & Meta))) throw new HttpError(403, 'FORBIDDEN', 'errors.forbidden');
    const actor = actorOf(req, res);
    const record = await cfg.store.create(scope, nr, fields as unknown as T, actor.user.id);
    await audit(knex, { kind: `stammdaten.${cfg.resource}.create`, mandant: actor.mandant, benutzerId: actor.user.id, entity: cfg.resource, entityId: nr, after: record, ip: actor.ip });
    res.status(201).json({ success: true, data: visible(scope, record) });
  });

  api.put(`/${cfg.resource}/:nr`, edit, async (req, res) => {
    const { scope, record } = await load(res, apiNr(req.params.nr), 'edit');
    const fields = parseOr400(cfg.schema as z.ZodType<T>, req.body);
    const ifMatch = typeof req.headers['if-match'] === 'string' ? req.headers['if-match'].replace(/"/g, '') : undefined;
    // Without a version (body or If-Match) the update is not checked against one; parseOr400 would read the
    // missing value as {} and refuse it.
    const rawVersion = req.body?.version ?? ifMatch;
    const basedOn = rawVersion === undefined || rawVersion === '' ? undefined : parseOr400(VersionField, rawVersion);
    const actor = actorOf(req, res);
    const saved = await cfg.store.update(scope, record.nr, fields, basedOn, actor.user.id);
    if (saved.version !== record.version) {
      await audit(knex, { kind: `stammdaten.${cfg.resource}.update`, mandant: actor.mandant, benutzerId: actor.user.id, entity: cfg.resource, entityId: record.nr, before: record, after: saved, ip: actor.ip });
    }
    res.json({ success: true, data: visible(scope, saved) });
  });

  api.delete(`/${cfg.resource}/:nr`, edit, async (req, res) => {
    const { scope, record } = await load(res, apiNr(req.params.nr), 'edit');
    await cfg.store.remove(scope, record.nr, (tx) => cfg.referenced(tx, record.nr));
    const actor = actorOf(req, res);
    await audit(knex, { kind: `stammdaten.${cfg.resource}.delete`, mandant: actor.mandant, benutzerId: actor.user.id, entity: cfg.resource, entityId: record.nr, before: record, ip: actor.ip });
    res.json({ success: true });
  });

  // The entity's own routes (e.g. the partner's rules) come after the generic ones and use the same loading
  // and detail page.
  if (cfg.extraRoutes) {
    const extra = cfg.extraRoutes(knex, { load, renderDetail: showDetail });
    if (extra.pages) pages.use(extra.pages);
    if (extra.api) api.use(extra.api);
  }

  return { pages, api };
}
