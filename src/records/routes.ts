// Pages and API of a versioned record type, built from its EntityConfig: list (search, filters, sort, paging,
// sums, exports), detail with edit form and version history, create, number change with a confirmation step,
// the record type's actions (activate/deactivate, cancel, …: each mounted as `…/{nr}/{name}` on pages and API)
// and delete where the type allows it. Handlers are thin: they parse, authorize (guards), call the record
// service (src/records/service.ts, the one write path: transaction, checks, version and audit together) and
// render. A locked record (a completed delivery) is read-only and its API answers 409. What a type has beyond
// its fields comes in through EntityConfig's optional hooks: prepare (checks against other data), detailLocals
// (more on the detail page), extraRoutes (its own routes, with load and renderDetail from here) and restrict
// (what a location-limited user may see).
import { Router, type Request, type Response } from 'express';
import type { Knex } from 'knex';
import { z } from 'zod';
import type { TenantScope } from '../db/scope.js';
import type { Meta, VersionInfo } from '../db/versioned.js';
import { requireApiPermission } from '../http/api.js';
import { isConfirmed, askFirst } from '../http/confirm.js';
import { HttpError, httpErrorOf } from '../http/errors.js';
import { recordNr } from './fields.js';
import { formErrors, parseForm, refusedForm, submitForm } from '../http/forms.js';
import { guardsFor, requireActionPermission } from '../http/guards.js';
import { mountListApi, mountListPage } from './list/routes.js';
import { actorOf, tenantScope } from '../http/tenant.js';
import { parseOr400 } from '../http/validate.js';
import { can, type Area } from '../permissions/index.js';
import { withAuthors } from './authors.js';
import { apiRecord, withAliases } from './api-names.js';
import { bulkRecords, createAll } from './bulk.js';
import type { EntityConfig } from './entity.js';
import { checkUpload, readFile, receiveFiles, sendFile, type FileRef, type Upload } from './files.js';
import { fieldLabel, formGroups, formValue, historyValue, keyFigures, readGroups } from './presenter.js';
import { lockProblem, mentioned, recordService } from './service.js';
import { documentEntity, rowSchema } from '../features/api-docs/records.js';

const NrBody = z.object({ nr: recordNr() });
/** The tabs every record has: its fields and actions, and its versions. */
const GENERAL = 'allgemein';
const VERSIONS = 'versionen';
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
const summaryOf = (err: unknown, req: Request) => (httpErrorOf(err)?.messageKey === 'errors.requiredFields' ? req.t('errors.requiredFields') : null);

export function entityRoutes<T extends Record<string, unknown>>(knex: Knex, cfg: EntityConfig<T>): { pages: Router; api: Router } {
  const pages = Router({ mergeParams: true });
  const api = Router();
  // The API description of every route below, from this same declaration.
  documentEntity(cfg as unknown as EntityConfig<Record<string, unknown>>);
  const detailPath = `${cfg.path}/:id`;
  const base = (res: Response) => `/${res.locals.lang}/${cfg.path}`;
  const scopeOf = (res: Response, action: 'view' | 'edit' = 'view') => tenantScope(knex, res, cfg.area, action);
  const numbered = !cfg.generateNr;
  const createPath = cfg.createPath ?? 'neu';
  const service = recordService(cfg);
  const rec = cfg as unknown as EntityConfig<Record<string, unknown>>;
  const detailHref = (res: Response, nr: string) => `${base(res)}/${encodeURIComponent(nr)}`;
  const fileFields = cfg.form.filter((f) => f.kind === 'file');
  /** A form with file fields is multipart: its files are parsed by the route, after the CSRF check (files.ts). */
  const receive = (req: Request, res: Response) => (fileFields.length ? receiveFiles(req, res, fileFields.map((f) => f.name)) : Promise.resolve());

  /** The record if it exists and lies in the user's locations; else 404 (never "forbidden": no hint it exists). */
  async function load(res: Response, nr: string, action: 'view' | 'edit' = 'view') {
    const scope = scopeOf(res, action);
    const record = await cfg.store.get(scope, nr);
    if (!record || (cfg.standortOf && !scope.allowsStandort(cfg.standortOf(record)))) throw new HttpError(404, 'NOT_FOUND', 'records:errors.notFound');
    return { scope, record };
  }

  /** load() and the record's version history, in one statement: what the detail page shows. */
  async function loadWithHistory(res: Response, nr: string) {
    const scope = scopeOf(res);
    const found = await cfg.store.getWithHistory(scope, nr);
    if (!found || (cfg.standortOf && !scope.allowsStandort(cfg.standortOf(found.record)))) throw new HttpError(404, 'NOT_FOUND', 'records:errors.notFound');
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

  /** A record as the API answers it: what the scope may see, under the spec's names too (cfg.api). */
  const answer = (scope: TenantScope, record: T & Meta) => apiRecord(cfg.api, visible(scope, record), scope.mandant);

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

  /** The tabs of a record's page: Allgemein (its fields and actions), the type's sections, Versionen. */
  const tabKeys = () => [GENERAL, ...(cfg.sections ?? []).map((x) => x.key), VERSIONS];

  function tabsOf(req: Request, res: Response, record: T & Meta, current: string) {
    const sectionLabel = (key: string) => cfg.sections?.find((x) => x.key === key)?.label ?? `records:tabs.${key}`;
    return tabKeys().map((key) => ({
      label: req.t(sectionLabel(key)),
      href: `${detailHref(res, record.nr)}${key === GENERAL ? '' : `?tab=${key}`}`,
      current: key === current,
      count: key === VERSIONS ? record.version : undefined,
    }));
  }

  async function detailPage(req: Request, res: Response, locals: Record<string, unknown>) {
    const principal = res.locals.principal!;
    const record = (locals.record ?? null) as (T & Meta) | null;
    const tab = (locals.tab as string | undefined) ?? GENERAL;
    const section = cfg.sections?.find((x) => x.key === tab) ?? null;
    // One scope for the entity's locals and the form's choices, so what the one reads the other may reuse.
    const scope = scopeOf(res);
    const ctx = {
      scope, editScope: scopeOf(res, 'edit'), record, query: req.query as Record<string, unknown>,
      scopeFor: (area: Area, action: 'view' | 'edit') => tenantScope(knex, res, area, action),
    };
    // Only the chosen tab's data is read: the form and the type's extras for Allgemein, a section's own locals.
    const extra = section ? ((await section.locals?.(ctx)) ?? {}) : tab === GENERAL && cfg.detailLocals ? await cfg.detailLocals(ctx) : {};
    const form = section ? [] : await formWithChoices(scope, (locals.values ?? record ?? {}) as Record<string, unknown>, record !== null);
    const locked = record ? cfg.lockedReason?.(record) ?? null : null;
    const canEdit = can(principal, 'edit', cfg.area) && !locked;
    // A stored record opens as a read view; the form is for a new record, "Bearbeiten" and a refused save.
    const mode = record && (locals.mode ?? 'read') === 'read' ? 'read' : 'edit';
    const groups = formGroups(form);
    await res.page('records/detail', {
      cfg: { ns: cfg.ns, path: cfg.path, resource: cfg.resource, numbered, createPath, removable: Boolean(cfg.removable) },
      form,
      groups,
      mode,
      editHref: record ? `${detailHref(res, record.nr)}/bearbeiten` : null,
      keyFields: cfg.keyFields,
      present: { formValue, historyValue, fieldLabel, keyFigures, readGroups },
      formatValue: cfg.formatValue,
      tab,
      tabs: record ? tabsOf(req, res, record, tab) : [],
      sectionView: section?.view ?? null,
      canEdit,
      // The actions this user may take on this record, as buttons of small forms (each posts to …/{nr}/{name}).
      // On a locked record only those that its lock permits (an undo); an action with a tab of its own is there.
      actions: record
        ? (cfg.actions ?? [])
          .filter((a) => !a.section && (!locked || a.evenWhenLocked) && can(principal, a.right ?? 'edit', cfg.area) && (!a.offered || a.offered(record)))
          .map((a) => ({ name: a.name, ...a.button(record) }))
        : [],
      /** Whether the user may take the named action on this record now (a tab's own form asks). */
      offers: (name: string) => {
        const a = record && cfg.actions?.find((x) => x.name === name);
        return Boolean(a && (!locked || a.evenWhenLocked) && can(principal, a.right ?? 'edit', cfg.area) && (!a.offered || a.offered(record)));
      },
      locked,
      badge: record ? (cfg.badge ? cfg.badge(record) : { label: `records:status.${record.status}`, variant: record.status === 'aktiv' ? 'success' : 'neutral' }) : null,
      errors: {},
      warnings: [],
      confirmNr: null,
      ...extra,
      ...locals,
      // Who saved each version, named in the page's language.
      history: withAuthors(((locals.history ?? (extra as { history?: unknown }).history) ?? []) as VersionInfo[], req.t),
    });
  }

  /** The form's fields with the choices of data-backed selects; a stored value that is no longer offered stays. */
  async function formWithChoices(scope: TenantScope, values: Record<string, unknown>, stored: boolean) {
    return Promise.all(cfg.form.map(async (f) => {
      // A fixed list on a stored record is shown as text: its choices are not read.
      if (!f.choices || (stored && f.fixed && f.multiple)) return f.choices ? { ...f, options: [] } : f;
      const options = await f.choices(scope);
      const current = values[f.name];
      if (typeof current === 'string' && current && !options.some((o) => o.value === current)) options.push({ value: current, label: current, raw: true });
      return { ...f, options };
    }));
  }

  /** The confirmation before a destructive action on a record: "{action}: {one} {nr}?", what it does, back to the record. */
  function confirmationOf(req: Request, res: Response, record: T & Meta, label: string, text: string) {
    const one = `${req.t(`${cfg.ns}:one`)} ${record.nr}`;
    return {
      heading: req.t('records:confirmAction', { action: label, record: one }), text, confirm: label, cancelHref: detailHref(res, record.nr),
      trail: [{ label: req.t(`${cfg.ns}:title`), href: base(res) }, { label: record.nr, href: detailHref(res, record.nr) }],
    };
  }

  /**
   * The detail page of a record as GET shows it, on its Allgemein tab unless `extra.tab` says otherwise;
   * `extra` adds or replaces locals (a sub-form's errors). The Versionen tab reads the history unless `extra`
   * brings it (loadWithHistory).
   */
  async function showDetail(req: Request, res: Response, record: T & Meta, extra: Record<string, unknown> = {}) {
    await detailPage(req, res, {
      title: `${req.t(`${cfg.ns}:one`)} ${record.nr}`,
      record,
      values: record,
      history: extra.history ?? (extra.tab === VERSIONS ? await historyOf(scopeOf(res), record.nr) : []),
      warnings: cfg.warnings?.(record) ?? [],
      ...extra,
    });
  }

  // List page and list API, each with the exports (?format=csv|xlsx|pdf).
  mountListPage(pages, knex, cfg.list, {
    path: cfg.path, area: cfg.area, view: 'records/index', title: `${cfg.ns}:title`, filename: cfg.resource, createPath, importPath: cfg.importPath,
  });
  mountListApi(api, knex, cfg.list, cfg.resource, cfg.area, {
    title: `${cfg.ns}:title`, filename: cfg.resource, present: cfg.api && ((row, mandant) => apiRecord(cfg.api, row, mandant)),
    row: rowSchema(rec),
  });

  const editGuards = [...guardsFor(detailPath), requireActionPermission(cfg.area, 'edit')];

  pages.get(`/${cfg.path}/${createPath}`, ...guardsFor(createPath === 'neu' ? detailPath : `${cfg.path}/${createPath}`, 'edit'), async (req, res) =>
    detailPage(req, res, {
      title: req.t(`${cfg.ns}:create`), record: null,
      values: { ...(cfg.defaults ?? {}), ...(cfg.proposeNr ? { nr: await cfg.proposeNr(scopeOf(res, 'edit')) } : {}) },
    }),
  );

  pages.post(`/${cfg.path}`, ...editGuards, (req, res) =>
    submitForm(
      req, res,
      async () => {
        await receive(req, res);
        return detailHref(res, (await service.create(scopeOf(res, 'edit'), actorOf(req, res), validateAll(req.body, true))).nr);
      },
      (errors, err) => detailPage(req, res, { title: req.t(`${cfg.ns}:create`), record: null, values: req.body ?? {}, errors, errorSummary: summaryOf(err, req) }),
    ),
  );

  // The form of a stored record, on request ("Bearbeiten"); a locked record has none and shows its read view.
  pages.get(`/${detailPath}/bearbeiten`, ...editGuards, async (req, res) => {
    const { record } = await load(res, String(req.params.id), 'edit');
    if (lockProblem(rec, record)) return res.redirect(detailHref(res, record.nr));
    await showDetail(req, res, record, { mode: 'edit' });
  });

  // The detail page, one address per tab (?tab=…); a tab the type does not have is a page that does not exist.
  pages.get(`/${detailPath}`, ...guardsFor(detailPath), async (req, res) => {
    const tab = req.query.tab === undefined ? GENERAL : String(req.query.tab);
    if (!tabKeys().includes(tab)) throw new HttpError(404, 'NOT_FOUND', 'records:errors.tabNotFound');
    if (tab === VERSIONS) {
      const { record, history } = await loadWithHistory(res, String(req.params.id));
      return showDetail(req, res, record, { history, tab });
    }
    const { record } = await load(res, String(req.params.id));
    await showDetail(req, res, record, { tab });
  });

  // Save; a changed number first asks for confirmation (a plain HTML step), then saves and renumbers at once.
  pages.post(`/${detailPath}`, ...editGuards, async (req, res) => {
    const { scope, record } = await load(res, String(req.params.id), 'edit');
    try {
      const lock = lockProblem(rec, record);
      if (lock) throw new HttpError(409, 'RECORD_LOCKED', lock.message);
      await receive(req, res);
      const { nr = record.nr, ...fields } = validateAll(req.body, true);
      if (nr !== record.nr && req.body?.confirmNr !== nr) {
        return await detailPage(req, res, { title: `${req.t(`${cfg.ns}:one`)} ${record.nr}`, record, values: req.body, confirmNr: nr, mode: 'edit' });
      }
      const saved = await service.update(scope, actorOf(req, res), record.nr, fields as unknown as Partial<T>, basedOnVersion(req), nr);
      res.flash('success', 'flash.saved');
      res.redirect(detailHref(res, saved.nr));
    } catch (err) {
      const known = httpErrorOf(err);
      const conflict = known?.status === 409 && known.code === 'VERSION_CONFLICT';
      if (known?.code === 'RECORD_LOCKED') {
        res.status(409);
        return await showDetail(req, res, (await load(res, record.nr)).record);
      }
      const errors = conflict ? { _: req.t(known.messageKey) } : formErrors(err, req);
      if (!errors) throw err;
      res.status(conflict ? 409 : known?.status === 413 ? 413 : 400);
      await detailPage(req, res, {
        title: `${req.t(`${cfg.ns}:one`)} ${record.nr}`, record, values: req.body ?? {}, errors, conflict, errorSummary: summaryOf(err, req), mode: 'edit',
      });
    }
  });

  // The record type's actions, each a resource of its own on the page and in the API.
  const view = requireApiPermission(cfg.area, 'view');
  const edit = requireApiPermission(cfg.area, 'edit');
  const apiNr = (raw: unknown) => String(raw);

  for (const action of cfg.actions ?? []) {
    const right = action.right ?? 'edit';
    pages.post(`/${detailPath}/${action.name}`, ...guardsFor(detailPath), requireActionPermission(cfg.area, right), async (req, res) => {
      const { scope, record } = await load(res, String(req.params.id), right === 'view' ? 'view' : 'edit');
      const back = (nr: string) => `${detailHref(res, nr)}${action.section ? `?tab=${action.section}` : ''}`;
      // Asks first only where the action would run: a refused one (locked, not offered) says so at once.
      const button = action.section ? null : action.button(record);
      const runs = (!cfg.lockedReason?.(record) || action.evenWhenLocked) && (!action.offered || action.offered(record));
      if (button?.confirm && runs && !isConfirmed(req)) {
        return askFirst(req, res, confirmationOf(req, res, record, req.t(button.label), req.t(button.confirm, { nr: record.nr })));
      }
      try {
        const done = await service.act(scope, actorOf(req, res), record.nr, action.name, req.body, basedOnVersion(req));
        res.flash('success', done.flash);
        res.redirect(back(done.record.nr));
      } catch (err) {
        // Locked, changed meanwhile, not offered or a tampered form: said on the record's page. A tab's own
        // form shows its input again with the problem at its fields.
        const known = httpErrorOf(err);
        if (!known || known.status >= 500) throw err;
        if (action.section) {
          const { status, errors } = refusedForm(err, req);
          res.status(status);
          return await showDetail(req, res, (await load(res, record.nr)).record, { tab: action.section, actionForm: { name: action.name, errors, values: req.body ?? {} } });
        }
        res.flash('error', known.errors[0]?.message ?? known.messageKey);
        res.redirect(back(record.nr));
      }
    });

    api.post(`/${cfg.resource}/:nr/${action.name}`, requireApiPermission(cfg.area, right), async (req, res) => {
      const { scope, record } = await load(res, apiNr(req.params.nr), right === 'view' ? 'view' : 'edit');
      const done = await service.act(scope, actorOf(req, res), record.nr, action.name, req.body, basedOnVersion(req));
      res.status(done.status ?? 200).json({ success: true, data: done.data ?? answer(scope, done.record) });
    });
  }

  // Each file field: downloaded at …/{nr}/{field} (page and API), replaced through the API with a multipart
  // PUT whose file part is `file` (as the imports take it); a replaced file is a new version.
  for (const field of fileFields) {
    const download = async (req: Request, res: Response, nr: string) => {
      const { scope, record } = await load(res, nr);
      const ref = record[field.name] as FileRef | null;
      const content = ref ? await readFile(scope, ref) : null;
      if (!ref || !content) throw new HttpError(404, 'NOT_FOUND', 'records:files.none');
      sendFile(res, ref, content);
    };
    pages.get(`/${detailPath}/${field.name}`, ...guardsFor(detailPath), (req, res) => download(req, res, String(req.params.id)));
    api.get(`/${cfg.resource}/:nr/${field.name}`, view, (req, res) => download(req, res, apiNr(req.params.nr)));
    api.put(`/${cfg.resource}/:nr/${field.name}`, edit, async (req, res) => {
      const { scope, record } = await load(res, apiNr(req.params.nr), 'edit');
      await receiveFiles(req, res, ['file'], field.file?.maxBytes);
      const sent = req.body?.file as Upload | undefined;
      const checked = sent ? checkUpload(sent, { kinds: field.file?.kinds ?? ['pdf'], maxBytes: field.file?.maxBytes }) : { problem: 'records:files.missing' };
      if ('problem' in checked) throw new HttpError(400, 'VALIDATION', 'errors.badRequest', [{ field: 'file', message: checked.problem, params: checked.params }]);
      const saved = await service.update(scope, actorOf(req, res), record.nr, { [field.name]: checked } as Partial<T>, basedOnVersion(req));
      res.json({ success: true, data: answer(scope, saved) });
    });
  }

  if (cfg.removable) {
    pages.post(`/${detailPath}/delete`, ...editGuards, async (req, res) => {
      const { scope, record } = await load(res, String(req.params.id), 'edit');
      if (!isConfirmed(req)) {
        // A record still in use cannot be deleted: said at once, not after a confirmation that cannot succeed.
        if (await cfg.removable!.referenced(scope, record.nr)) {
          res.flash('error', 'records:errors.inUse');
          return res.redirect(detailHref(res, record.nr));
        }
        return askFirst(req, res, confirmationOf(req, res, record, req.t('records:delete'), req.t('records:deleteConfirm', { nr: record.nr, count: record.version })));
      }
      try {
        await service.remove(scope, actorOf(req, res), record.nr);
      } catch (err) {
        const known = httpErrorOf(err);
        if (known?.status !== 409) throw err;
        res.flash('error', known.messageKey);
        return res.redirect(detailHref(res, record.nr));
      }
      res.flash('success', 'records:flash.deleted');
      res.redirect(base(res));
    });
  }

  // JSON API: read, create, update (version in the body or If-Match), delete (master data), versions.
  api.get(`/${cfg.resource}/:nr`, view, async (req, res) => {
    const { scope, record } = await load(res, apiNr(req.params.nr));
    res.json({ success: true, data: { ...answer(scope, record), ...(await cfg.api?.detail?.(scope, record)) } });
  });

  api.get(`/${cfg.resource}/:nr/versionen`, view, async (req, res) => {
    const { scope, record } = await load(res, apiNr(req.params.nr));
    // The history records what was stored, under the stored names (its changes name the stored fields too).
    const data = withAuthors(await historyOf(scope, record.nr), req.t);
    res.json({ data, total: data.length, page: 1, pageSize: data.length });
  });

  api.post(`/${cfg.resource}`, edit, async (req, res) => {
    const scope = scopeOf(res, 'edit');
    const record = await withAliases(cfg.api?.aliases, req.body, (body) => service.create(scope, actorOf(req, res), validateAll(body, true)));
    res.status(201).json({ success: true, data: answer(scope, record) });
  });

  if (cfg.bulk) {
    // Each record as POST /{resource} takes it, through the same validation and write path, all in one transaction.
    api.post(`/${cfg.resource}/bulk`, edit, async (req, res) => {
      const records = bulkRecords(req.body);
      const scope = scopeOf(res, 'edit');
      const actor = actorOf(req, res);
      const created = await createAll(scope, records, (tx, body) =>
        withAliases(cfg.api?.aliases, body, (b) => service.create(tx, actor, validateAll(b, true))));
      res.status(201).json({ success: true, data: created.map((r) => answer(scope, r)), total: created.length });
    });
  }

  api.put(`/${cfg.resource}/:nr`, edit, async (req, res) => {
    const { scope, record } = await load(res, apiNr(req.params.nr), 'edit');
    const lock = lockProblem(rec, record);
    if (lock) throw new HttpError(409, 'RECORD_LOCKED', lock.message);
    const saved = await withAliases(cfg.api?.aliases, req.body, (body) =>
      service.update(scope, actorOf(req, res), record.nr, parseOr400(cfg.schema as z.ZodType<T>, body), basedOnVersion(req)));
    res.json({ success: true, data: answer(scope, saved) });
  });

  if (cfg.removable) {
    api.delete(`/${cfg.resource}/:nr`, edit, async (req, res) => {
      const { scope, record } = await load(res, apiNr(req.params.nr), 'edit');
      await service.remove(scope, actorOf(req, res), record.nr);
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
