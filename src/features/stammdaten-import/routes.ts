// Pages of the master-data import, plain HTML forms (no script needed): choose the entity and the file, see
// the preview at /{lang}/stammdaten/import/{token}, confirm with a POST there, see the result on the same
// page. A template per entity is downloaded from /{lang}/stammdaten/import/vorlage/{entity}.
import { Router, type Request, type Response } from 'express';
import type { Knex } from 'knex';
import { HttpError } from '../../http/errors.js';
import { guardsFor } from '../../http/guards.js';
import { actorOf, tenantScope } from '../../http/tenant.js';
import { fieldLabel, importFields, templateColumns, templateHeaders } from '../../import/labelled.js';
import { fileError } from '../../import/file.js';
import { errorInRow, errorSentence, STATUS_VARIANT, toSave, uploadFailure, valueText } from '../../import/present.js';
import { Token, type Translate } from '../../import/schema.js';
import { commit, entityFor, findImport, permittedEntities, preview, PREVIEW_ROWS } from './service.js';
import { commitWithFlash, receiveUpload, sendTemplate, translatorsOf } from '../../import/upload.js';
import { idOr404 } from '../../http/validate.js';

const PATH = 'stammdaten/import';

export function stammdatenImportRoutes(knex: Knex): Router {
  const router = Router({ mergeParams: true });
  const guards = guardsFor(PATH);
  const base = (res: Response) => `/${res.locals.lang}/${PATH}`;
  const tokenOf = (raw: unknown) => {
    return idOr404(Token, raw, 'import:errors.notFound');
  };

  /** The upload page; `failure` is a refused upload (its message, and the columns a header row got wrong). */
  async function uploadPage(req: Request, res: Response, selected: unknown, failure?: HttpError) {
    const t = req.t as Translate;
    const entities = permittedEntities(res.locals.principal!).map((cfg) => ({
      resource: cfg.resource,
      title: t(`${cfg.ns}:title`),
      templateHref: `${base(res)}/vorlage/${cfg.resource}`,
      columns: templateColumns(cfg, t),
    }));
    const chosen = entities.find((e) => e.resource === selected)?.resource ?? (entities.length === 1 ? entities[0].resource : '');
    await res.page('stammdaten-import/index', {
      title: t('import:title'),
      entities,
      selected: chosen,
      failure: failure ? uploadFailure(failure, t) : null,
    });
  }

  router.get(`/${PATH}`, ...guards, (req, res) => uploadPage(req, res, req.query.entity));

  router.get(`/${PATH}/vorlage/:entity`, ...guards, async (req, res) => {
    const cfg = entityFor(req.params.entity, res.locals.principal!);
    await sendTemplate(res, cfg, req.t as Translate, res.locals.lang);
  });

  router.post(`/${PATH}`, ...guards, async (req, res) => {
    try {
      const file = await receiveUpload(req, res);
      if (!req.body?.entity) throw new HttpError(400, 'VALIDATION', 'import:errors.noEntity');
      const cfg = entityFor(req.body.entity, res.locals.principal!);
      if (!file) throw fileError('noFile');
      const staging = await preview(tenantScope(knex, res, cfg.area, 'edit'), actorOf(req, res), cfg, file, req.t as Translate, translatorsOf(req));
      res.redirect(`${base(res)}/${staging.id}`);
    } catch (err) {
      if (err instanceof HttpError && err.status === 403) {
        res.flash('error', 'flash.noPermission');
        return res.redirect(base(res));
      }
      if (!(err instanceof HttpError) || err.status >= 500 || err.status === 404) throw err;
      res.status(err.status);
      await uploadPage(req, res, req.body?.entity, err);
    }
  });

  router.get(`/${PATH}/:token`, ...guards, async (req, res) => {
    const t = req.t as Translate;
    const actor = actorOf(req, res);
    const staging = await findImport(tenantScope(knex, res), actor, tokenOf(req.params.token));
    const cfg = entityFor(staging.entity, actor.principal);
    const { summary } = staging;
    // The column that names a row (usually the name): the first of the entity's fields the file has.
    const titleField = importFields(cfg).find((f) => f.name === staging.fields[0]);
    const label = fieldLabel(cfg, t);
    await res.page('stammdaten-import/preview', {
      title: t('import:preview.title', { entity: t(`${cfg.ns}:title`) }),
      entityTitle: t(`${cfg.ns}:title`),
      listHref: `/${res.locals.lang}/${cfg.path}`,
      uploadHref: `${base(res)}?entity=${encodeURIComponent(cfg.resource)}`,
      action: `${base(res)}/${staging.id}`,
      staging,
      summary,
      toSave: toSave(summary.counts),
      previewRows: PREVIEW_ROWS,
      firstColumnLabel: titleField ? t(titleField.label) : null,
      errorSentences: summary.errors.map((e) => errorSentence(e, t, label)),
      rows: summary.rows.map((r) => ({
        ...r,
        statusLabel: t(`import:status.${r.status}`),
        variant: STATUS_VARIANT[r.status],
        changes: (r.changes ?? []).map((c) => ({ column: c.column ?? c.field, before: valueText(c.before, t), after: valueText(c.after, t) })),
        errors: (r.errors ?? []).map((e) => errorInRow(e, t, label)),
      })),
      headers: templateHeaders(cfg, t),
    });
  });

  router.post(`/${PATH}/:token`, ...guards, async (req, res) => {
    const actor = actorOf(req, res);
    const token = tokenOf(req.params.token);
    const staging = await findImport(tenantScope(knex, res), actor, token);
    const cfg = entityFor(staging.entity, actor.principal);
    await commitWithFlash(res, () => commit(tenantScope(knex, res, cfg.area, 'edit'), actor, cfg, token));
    res.redirect(`${base(res)}/${token}`);
  });

  return router;
}
