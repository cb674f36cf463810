// Pages of the movement-data import, plain HTML forms (no script needed; the editor island only adds line
// numbers and errors as you type):
//   GET  /{lang}/bewegungsdaten/import?typ=&code=        type tabs, saved codes, the code editor, the upload
//   POST /{lang}/bewegungsdaten/import                   multipart (file, typ, code text) → preview page
//   POST /{lang}/bewegungsdaten/import/codes             save the code (new, or the next version of the one open)
//   POST /{lang}/bewegungsdaten/import/codes/{id}/delete
//   GET  /{lang}/bewegungsdaten/import/vorlage/{typ}     the example file
//   GET  /{lang}/bewegungsdaten/import/{token}           preview, and the result once confirmed
//   POST /{lang}/bewegungsdaten/import/{token}           confirm
import { Router, type Request, type Response } from 'express';
import type { Knex } from 'knex';
import { askFirst, isConfirmed } from '../../http/confirm.js';
import { HttpError } from '../../http/errors.js';
import { parseForm } from '../../http/forms.js';
import { guardsFor } from '../../http/guards.js';
import { actorOf, tenantScope } from '../../http/tenant.js';
import { fileError } from '../../import/file.js';
import { errorInRow, errorSentence, STATUS_VARIANT, toSave, valueText } from '../../import/present.js';
import { Token, type Translate } from '../../import/schema.js';
import { commitWithFlash, csvDownload, receiveUpload } from '../../import/upload.js';
import { can, IMPORT_AREAS } from '../../permissions/index.js';
import { LIEFERUNG_NAMES } from '../lieferungen/names.js';
import { exampleCsv, exampleFilename } from './defaults.js';
import { fieldsOf, type ImportTyp } from './mapping.js';
import { idOr404 } from '../../http/validate.js';
import { CodeId, CreateCode, PreviewFields, UpdateCode } from './schema.js';
import {
  codeErrors, codeFor, commit, createCode, deleteCode, findImport, getCode, listCodes, permittedTypes, preview, PREVIEW_ROWS, standardCode, typeFor, updateCode,
} from './service.js';

const PATH = 'bewegungsdaten/import';

/** The editor's state as the page shows it: the code open (saved or typed), its name and version. */
interface EditorState {
  typ: ImportTyp;
  id: number | null;
  name: string;
  version: number | null;
  updatedAt: string | null;
  text: string;
}

/** What went wrong with a post of the page, shown above the forms. */
interface Failure {
  message: string;
  items: string[];
  nameError?: string | null;
}

export function bewegungsdatenImportRoutes(knex: Knex): Router {
  const router = Router({ mergeParams: true });
  const guards = guardsFor(PATH);
  const base = (res: Response) => `/${res.locals.lang}/${PATH}`;
  const scopeOf = (res: Response) => tenantScope(knex, res);
  const importScope = (res: Response, typ: ImportTyp) => tenantScope(knex, res, IMPORT_AREAS[typ], 'edit');
  const typLabel = (t: Translate, typ: ImportTyp) => t(`bewegungsdaten-import:types.${typ}`);

  /** A field's label as the delivery forms show it. */
  function fieldLabel(t: Translate, typ: ImportTyp, field: string): string {
    const names = LIEFERUNG_NAMES[typ];
    if (field === 'nr') return t('records:fields.nr');
    if (field === names.datum || field === names.menge) return t(`${typ}:fields.${field}`);
    if (field === names.einheit) return t('bewegungsdaten:fields.einheit');
    return t(`bewegungsdaten:fields.${field}`);
  }

  /** The type a page shows: the one asked for if permitted, else the first the user may import. */
  function chosenType(res: Response, raw: unknown): ImportTyp | null {
    const types = permittedTypes(res.locals.principal!);
    return types.find((x) => x === raw) ?? types[0] ?? null;
  }

  async function uploadPage(req: Request, res: Response, editor: EditorState | null, failure?: Failure) {
    const t = req.t as Translate;
    const types = permittedTypes(res.locals.principal!);
    const lang = res.locals.lang as 'de' | 'en';
    const typ = editor?.typ ?? null;
    const saved = typ ? await listCodes(scopeOf(res), res.locals.principal!, typ) : [];
    const messages = typ
      ? Object.fromEntries(Object.keys(t('bewegungsdaten-import:code.errors', { returnObjects: true }) as unknown as Record<string, string>).map((code) => [code, (req.i18n.getResource(lang, 'bewegungsdaten-import', `code.errors.${code}`) as string) ?? code]))
      : {};
    const lineErrors = editor ? codeErrors(editor.text, editor.typ, t).map((e) => t(e.message, e.params)) : [];
    await res.page('bewegungsdaten-import/index', {
      title: t('bewegungsdaten-import:title'),
      islands: Boolean(typ),
      types: types.map((x) => ({ typ: x, label: typLabel(t, x), href: `${base(res)}?typ=${x}`, current: x === typ })),
      typ,
      typLabel: typ ? typLabel(t, typ) : '',
      saved: saved.map((c) => ({ ...c, href: `${base(res)}?typ=${c.typ}&code=${c.id}`, current: c.id === editor?.id })),
      standardHref: typ ? `${base(res)}?typ=${typ}` : '',
      editor,
      lineErrors,
      failure: failure ?? null,
      // Who sees the sidebar entry for the certificate right (22) alone imports certificates elsewhere: say where.
      nachweiseImportHref: can(res.locals.principal!, 'edit', 'nachweise') ? `/${lang}/bewegungsdaten/nachweise/import` : null,
      exampleHref: typ ? `${base(res)}/vorlage/${typ}` : '',
      exampleName: typ ? exampleFilename(typ) : '',
      fields: typ ? fieldsOf(typ).map((f) => ({ ...f, label: fieldLabel(t, typ, f.name) })) : [],
      editorProps: typ && editor
        ? {
            typ, name: 'code', id: 'f-code', value: editor.text, describedBy: 'f-code-hint',
            messages,
            labels: {
              lineError: req.i18n.getResource(lang, 'bewegungsdaten-import', 'code.lineError'),
              valid: t('bewegungsdaten-import:code.valid'),
              invalidOne: req.i18n.getResource(lang, 'bewegungsdaten-import', 'code.invalid_one'),
              invalidOther: req.i18n.getResource(lang, 'bewegungsdaten-import', 'code.invalid_other'),
              gutterError: req.i18n.getResource(lang, 'bewegungsdaten-import', 'code.gutterError'),
              goToLine: req.i18n.getResource(lang, 'bewegungsdaten-import', 'code.goToLine'),
              lines: t('bewegungsdaten-import:code.lines'),
            },
          }
        : null,
    });
  }

  /** The editor for a GET: a saved code (?code=id), else the type's default. */
  async function editorFor(req: Request, res: Response, typ: ImportTyp): Promise<EditorState> {
    const id = CodeId.safeParse(req.query.code);
    if (req.query.code !== undefined && id.success) {
      const saved = await getCode(scopeOf(res), res.locals.principal!, id.data);
      if (saved.typ === typ) return { typ, id: saved.id, name: saved.name, version: saved.version, updatedAt: saved.updatedAt, text: saved.code };
    } else if (req.query.code !== undefined) throw new HttpError(404, 'NOT_FOUND', 'bewegungsdaten-import:errors.notFound');
    return { typ, id: null, name: '', version: null, updatedAt: null, text: standardCode(typ, req.t as Translate, res.locals.lang) };
  }

  /** The editor as the user left it in a post (their text, name and the code it was based on). */
  function editorFromBody(req: Request, typ: ImportTyp): EditorState {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === 'string' ? v : '');
    const id = CodeId.safeParse(body.codeId);
    const version = CodeId.safeParse(body.version);
    return { typ, id: id.success ? id.data : null, name: str(body.name), version: version.success ? version.data : null, updatedAt: null, text: str(body.code) };
  }

  const failureOf = (err: HttpError, t: Translate): Failure => ({
    message: t(err.messageKey, err.params),
    items: err.code === 'IMPORT_CODE' ? [] : err.errors.filter((e) => e.field !== 'name').map((e) => (err.code === 'IMPORT_COLUMNS' ? `„${e.field}“: ${t(e.message, e.params ?? {})}` : t(e.message, e.params ?? {}))),
    nameError: err.errors.find((e) => e.field === 'name') ? t(err.errors.find((e) => e.field === 'name')!.message, err.errors.find((e) => e.field === 'name')!.params ?? {}) : null,
  });

  /** A user's mistake in a post: the page again with their input and what is wrong; anything else is thrown. */
  async function refused(req: Request, res: Response, err: unknown, typ: ImportTyp | null) {
    if (err instanceof HttpError && err.status === 403) {
      res.flash('error', 'flash.noPermission');
      return res.redirect(base(res));
    }
    if (!(err instanceof HttpError) || err.status >= 500 || (err.status === 404 && err.code !== 'NOT_FOUND')) throw err;
    const t = req.t as Translate;
    const failure = failureOf(err, t);
    if (err.code === 'IMPORT_COLUMNS' && err.params.present) failure.items.push(t('bewegungsdaten-import:errors.columnsPresent', { columns: err.params.present }));
    res.status(err.status);
    await uploadPage(req, res, typ ? editorFromBody(req, typ) : null, failure);
  }

  // The page itself opens to whoever sees its sidebar entry (19, 20 or 22: 'open'); everything that imports or
  // saves a code needs 19 or 20 (the guards above) and, per type, that type's right.
  router.get(`/${PATH}`, ...guardsFor(PATH, 'open'), async (req, res) => {
    const typ = chosenType(res, req.query.typ);
    await uploadPage(req, res, typ ? await editorFor(req, res, typ) : null);
  });

  router.get(`/${PATH}/vorlage/:typ`, ...guards, (req, res) => {
    const typ = typeFor(req.params.typ, res.locals.principal!);
    csvDownload(res, exampleFilename(typ), exampleCsv(typ));
  });

  router.post(`/${PATH}`, ...guards, async (req, res) => {
    let typ: ImportTyp | null = null;
    try {
      const file = await receiveUpload(req, res);
      typ = chosenType(res, req.body?.typ);
      const fields = PreviewFields.safeParse(req.body ?? {});
      if (!fields.success) throw new HttpError(400, 'VALIDATION', 'bewegungsdaten-import:errors.noType');
      typ = typeFor(fields.data.typ, res.locals.principal!);
      if (!file) throw fileError('noFile');
      const scope = importScope(res, typ);
      const code = await codeFor(scope, res.locals.principal!, typ, fields.data, req.t as Translate, res.locals.lang);
      const staging = await preview(scope, actorOf(req, res), typ, file, code, req.t as Translate);
      res.redirect(`${base(res)}/${staging.id}`);
    } catch (err) {
      await refused(req, res, err, typ);
    }
  });

  router.post(`/${PATH}/codes`, ...guards, async (req, res) => {
    const typ = chosenType(res, req.body?.typ);
    try {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const actor = actorOf(req, res);
      const t = req.t as Translate;
      const id = CodeId.safeParse(body.codeId);
      const asNew = body.saveAs === 'new' || !id.success;
      const saved = asNew
        ? await createCode(scopeOf(res), actor, parseForm(CreateCode, body), t)
        : await updateCode(scopeOf(res), actor, id.data, parseForm(UpdateCode, body), t);
      res.flash('success', 'bewegungsdaten-import:flash.saved');
      res.redirect(`${base(res)}?typ=${saved.typ}&code=${saved.id}`);
    } catch (err) {
      await refused(req, res, err, typ);
    }
  });

  router.post(`/${PATH}/codes/:id/delete`, ...guards, async (req, res) => {
    const id = CodeId.safeParse(req.params.id);
    if (!id.success) throw new HttpError(404, 'NOT_FOUND', 'bewegungsdaten-import:errors.notFound');
    const version = CodeId.safeParse(req.body?.version);
    const typ = chosenType(res, req.body?.typ);
    if (!isConfirmed(req)) {
      // Deleting an import code asks first, naming it; one that does not exist is refused by deleteCode below.
      const code = await getCode(scopeOf(res), actorOf(req, res).principal, id.data).catch(() => null);
      if (code) {
        const what = { name: code.name, typ: req.t(`bewegungsdaten-import:types.${code.typ}`) };
        return askFirst(req, res, {
          heading: req.t('bewegungsdaten-import:code.confirmDelete.heading', what),
          text: req.t('bewegungsdaten-import:code.confirmDelete.text', what),
          confirm: req.t('bewegungsdaten-import:code.delete'),
          cancelHref: `${base(res)}?typ=${code.typ}&code=${code.id}`,
          trail: [{ label: req.t('bewegungsdaten-import:title'), href: `${base(res)}?typ=${code.typ}` }],
        });
      }
    }
    try {
      await deleteCode(scopeOf(res), actorOf(req, res), id.data, version.success ? version.data : undefined);
    } catch (err) {
      if (!(err instanceof HttpError) || err.status >= 500) throw err;
      res.flash('error', err.messageKey);
      return res.redirect(`${base(res)}?typ=${typ ?? ''}&code=${id.data}`);
    }
    res.flash('success', 'bewegungsdaten-import:flash.deleted');
    res.redirect(`${base(res)}?typ=${typ ?? ''}`);
  });

  const tokenOf = (raw: unknown) => {
    return idOr404(Token, raw, 'import:errors.notFound');
  };

  router.get(`/${PATH}/:token`, ...guards, async (req, res) => {
    const t = req.t as Translate;
    const actor = actorOf(req, res);
    const staging = await findImport(scopeOf(res), actor, tokenOf(req.params.token));
    const typ = typeFor(staging.entity, actor.principal);
    const names = LIEFERUNG_NAMES[typ];
    const { summary } = staging;
    const meta = (summary.meta ?? {}) as { codeId?: number | null; codeName?: string | null };
    const ref = (v: Record<string, unknown> | undefined, field: string, version: string) =>
      v?.[field] ? `${v[field]}${v[version] ? ` (${t('bewegungsdaten-import:preview.version', { version: v[version] })})` : ''}` : '';
    const columns = [names.datum, 'partnerNr', 'standortNr', 'produktNr', 'produktgruppe', names.menge, names.einheit, 'biogehalt', 'status'];
    await res.page('bewegungsdaten-import/preview', {
      title: t('bewegungsdaten-import:preview.title', { typ: typLabel(t, typ) }),
      typ,
      typLabel: typLabel(t, typ),
      listHref: `/${res.locals.lang}/bewegungsdaten/${typ}`,
      uploadHref: `${base(res)}?typ=${typ}${meta.codeId ? `&code=${meta.codeId}` : ''}`,
      action: `${base(res)}/${staging.id}`,
      staging,
      summary,
      codeName: meta.codeName ?? null,
      toSave: toSave(summary.counts),
      previewRows: PREVIEW_ROWS,
      errorSentences: summary.errors.map((e) => errorSentence(e, t)),
      headers: columns.map((c) => fieldLabel(t, typ, c)),
      rows: summary.rows.map((r) => {
        const v = r.values;
        const cells = v
          ? {
              datum: v[names.datum] ? String(v[names.datum]) : null,
              refs: [ref(v, 'partnerNr', 'partnerVersion'), ref(v, 'standortNr', 'standortVersion'), ref(v, 'produktNr', 'produktVersion')],
              gruppe: v.produktgruppe ? t(`produkte:gruppen.${v.produktgruppe}`) : '',
              menge: v[names.menge] == null ? null : String(v[names.menge]),
              einheit: String(v[names.einheit] ?? ''),
              biogehalt: v.biogehalt == null ? null : String(v.biogehalt),
              status: v.status ? t(`bewegungsdaten:status.${v.status}`) : '',
            }
          : null;
        return {
          row: r.row,
          nr: r.nr,
          status: r.status,
          statusLabel: t(`import:status.${r.status}`),
          variant: STATUS_VARIANT[r.status],
          cells,
          changes: (r.changes ?? []).map((c) => ({ column: c.column ?? fieldLabel(t, typ, c.field), before: valueText(c.before, t), after: valueText(c.after, t) })),
          errors: (r.errors ?? []).map((e) => errorInRow(e, t)),
        };
      }),
    });
  });

  router.post(`/${PATH}/:token`, ...guards, async (req, res) => {
    const actor = actorOf(req, res);
    const token = tokenOf(req.params.token);
    const staging = await findImport(scopeOf(res), actor, token);
    const typ = typeFor(staging.entity, actor.principal);
    await commitWithFlash(res, () => commit(importScope(res, typ), actor, typ, token));
    res.redirect(`${base(res)}/${token}`);
  });

  return router;
}
