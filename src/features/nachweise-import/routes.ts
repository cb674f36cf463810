// Pages of the certificate import, plain HTML forms (no script needed), below the certificates' list:
//   GET  /{lang}/bewegungsdaten/nachweise/import                  upload form, templates, how it works
//   GET  /{lang}/bewegungsdaten/nachweise/import/vorlage?format=   the template (CSV or XLSX)
//   POST /{lang}/bewegungsdaten/nachweise/import                  upload → the preview
//   GET  /{lang}/bewegungsdaten/nachweise/import/{token}          preview (errors, warnings, computed figures), or result
//   POST /{lang}/bewegungsdaten/nachweise/import/{token}          confirm: all or nothing
// Guarded as the route tree says (edit right on certificates). Mounted before the certificates' own pages, whose
// `/{nr}` would otherwise take these paths.
import { Router, type Request, type Response } from 'express';
import type { Knex } from 'knex';
import { formatter } from '../../http/format.js';
import { HttpError } from '../../http/errors.js';
import { guardsFor } from '../../http/guards.js';
import { actorOf, tenantScope } from '../../http/tenant.js';
import { parseOr400 } from '../../http/validate.js';
import { fileError } from '../../import/file.js';
import { fieldLabel, templateColumns } from '../../import/labelled.js';
import { errorInRow, errorSentence, STATUS_VARIANT, toSave, uploadFailure, valueText } from '../../import/present.js';
import { Token, type Translate } from '../../import/schema.js';
import { commitWithFlash, receiveUpload, sendTemplate, translatorsOf } from '../../import/upload.js';
import { onlyTokens } from './api.js';
import { TemplateQuery } from './schema.js';
import { commit, entity, findImport, preview, PREVIEW_ROWS, READING } from './service.js';

const PATH = `${entity.path}/${entity.importPath}`;

type Values = Record<string, unknown> | undefined;

export function nachweiseImportRoutes(knex: Knex): Router {
  const router = Router({ mergeParams: true });
  const guards = guardsFor(PATH);
  const base = (res: Response) => `/${res.locals.lang}/${PATH}`;
  const listHref = (res: Response) => `/${res.locals.lang}/${entity.path}`;
  const scopeOf = (res: Response) => tenantScope(knex, res, entity.area, 'edit');

  /** The upload page; `failure` is a refused upload (its message, and the columns a header row got wrong). */
  async function uploadPage(req: Request, res: Response, failure?: HttpError) {
    const t = req.t as Translate;
    await res.page('nachweise-import/index', {
      title: t('nachweise-import:title'),
      listHref: listHref(res),
      action: base(res),
      templates: (['csv', 'xlsx'] as const).map((format) => ({ format, href: `${base(res)}/vorlage?format=${format}` })),
      columns: templateColumns(entity, t, READING),
      failure: failure ? uploadFailure(failure, t) : null,
    });
  }

  router.get(`/${PATH}`, ...guards, (req, res) => uploadPage(req, res));

  router.get(`/${PATH}/vorlage`, ...guards, async (req, res) => {
    const { format } = parseOr400(TemplateQuery, req.query);
    await sendTemplate(res, entity, req.t as Translate, res.locals.lang, format);
  });

  router.post(`/${PATH}`, ...guards, async (req, res) => {
    try {
      const file = await receiveUpload(req, res);
      if (!file) throw fileError('noFile');
      const staging = await preview(scopeOf(res), actorOf(req, res), file, req.t as Translate, translatorsOf(req));
      res.redirect(`${base(res)}/${staging.id}`);
    } catch (err) {
      if (!(err instanceof HttpError) || err.status >= 500 || err.status === 404) throw err;
      res.status(err.status);
      await uploadPage(req, res, err);
    }
  });

  router.get(`/${PATH}/:token`, onlyTokens, ...guards, async (req, res) => {
    const t = req.t as Translate;
    const lang = res.locals.lang;
    const fmt = formatter(res.locals.currentUser!.settings, lang);
    const staging = await findImport(scopeOf(res), actorOf(req, res), Token.parse(req.params.token));
    const { summary } = staging;
    // Fields by their labels: the form's (as the template heads the columns), else the figures' own.
    const formLabel = fieldLabel(entity, t);
    const label = (field: string) => (entity.form.some((f) => f.name === field) || field === 'nr' ? formLabel(field) : t(`${entity.ns}:fields.${field}`));
    const number = (v: unknown, digits: number) => (v === null || v === undefined || v === '' ? '' : fmt.number(String(v), digits));
    /** What a row would store, as the certificate's page shows it: product, location, quantity and the figures. */
    const cells = (v: Values) => (v ? [
      { text: String(v.produktNr ?? '') },
      { text: String(v.standortNr ?? '') },
      { text: v.menge == null ? '' : `${number(v.menge, 0)} ${v.einheit ?? ''}`, num: true },
      { text: number(v.thg, 2), num: true },
      { text: number(v.einsparung, 2), num: true },
      { text: number(v.schwelle, 0), num: true },
    ] : []);
    /** A changed value as the user reads it; a list of warnings by its codes. */
    const shown = (field: string, v: unknown) => (field === 'hinweise' && Array.isArray(v) ? v.map((h) => h.code).join(', ') || t('import:preview.emptyValue') : valueText(v, t));
    await res.page('nachweise-import/preview', {
      title: t('nachweise-import:preview.title'),
      listHref: listHref(res),
      uploadHref: base(res),
      action: `${base(res)}/${staging.id}`,
      staging,
      summary,
      toSave: toSave(summary.counts),
      previewRows: PREVIEW_ROWS,
      errorSentences: summary.errors.map((e) => errorSentence(e, t, label)),
      warningSentences: summary.warnings.map((e) => errorSentence(e, t, label)),
      extraHeaders: [
        { label: t('nachweise:fields.produktNr') },
        { label: t('nachweise:fields.standortNr') },
        { label: t('nachweise:fields.menge'), num: true },
        { label: t('nachweise:fields.thg'), num: true },
        { label: t('nachweise:fields.einsparung'), num: true },
        { label: t('nachweise:fields.schwelle'), num: true },
      ],
      rows: summary.rows.map((r) => ({
        ...r,
        statusLabel: t(`import:status.${r.status}`),
        variant: STATUS_VARIANT[r.status],
        cells: cells(r.values),
        changes: (r.changes ?? []).map((c) => ({ column: c.column ?? label(c.field), before: shown(c.field, c.before), after: shown(c.field, c.after) })),
        errors: (r.errors ?? []).map((e) => errorInRow(e, t, label)),
        warnings: (r.warnings ?? []).map((e) => errorInRow(e, t, label)),
      })),
    });
  });

  router.post(`/${PATH}/:token`, onlyTokens, ...guards, async (req, res) => {
    const token = Token.parse(req.params.token);
    await commitWithFlash(res, () => commit(scopeOf(res), actorOf(req, res), token));
    res.redirect(`${base(res)}/${token}`);
  });

  return router;
}
