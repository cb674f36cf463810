// Tenant management pages (benutzer/mandanten, system administrators): list, create, edit, activate/deactivate
// and the tenant's users.
import { Router, type Request, type Response } from 'express';
import type { AccountService } from '../../auth/services.js';
import { HttpError } from '../../http/errors.js';
import { parseForm, submitForm } from '../../http/forms.js';
import { guardsFor } from '../../http/guards.js';
import { exportLinks, listErrorsView, listHref } from '../../records/list/engine.js';
import { registerList } from '../../records/list/request.js';
import { listPageOrExport } from '../../records/list/routes.js';
import { actorOf } from '../../http/tenant.js';
import { MandantId, MandantInput, NewMandantInput, StatusInput } from './schema.js';
import { mandantList, MandantenService } from './service.js';
import { idOr404 } from '../../http/validate.js';

const PATH = 'benutzer/mandanten';

export function mandantenRoutes(accounts: AccountService): Router {
  const router = Router({ mergeParams: true });
  const service = new MandantenService(accounts.knex);
  const guards = guardsFor(PATH);
  const base = (res: Response) => `/${res.locals.lang}/${PATH}`;
  const idOf = (raw: unknown) => {
    return idOr404(MandantId, raw, 'errors.mandantNotFound');
  };

  async function formPage(req: Request, res: Response, locals: { id: string | null; values: Record<string, unknown>; errors?: Record<string, string> }) {
    const actor = actorOf(req, res);
    const record = locals.id ? await service.get(actor, locals.id) : null;
    await res.page('mandanten/form', {
      title: record ? req.t('mandanten:edit.heading', { mandant: record.mandant }) : req.t('mandanten:create.title'),
      record,
      users: locals.id ? await service.users(actor, locals.id) : [],
      errors: {},
      ...locals,
    });
  }

  registerList(mandantList, { page: PATH, exports: true });
  router.get(`/${PATH}`, ...guards, async (req, res) => {
    const list = await listPageOrExport(req, res, mandantList, service.listSource(actorOf(req, res)), { title: 'nav.mandanten', filename: 'mandanten' });
    if (!list) return;
    const { state, errors, result } = list;
    const current = { ...state, page: result.page };
    await res.page('mandanten/index', {
      title: req.t('nav.mandanten'),
      rows: result.rows, total: result.total, page: result.page, pageSize: state.pageSize,
      href: (page: number) => listHref(base(res), current, { page }, mandantList.defaultSort),
      listErrors: listErrorsView(mandantList.filters, errors, req.t),
      exports: exportLinks(base(res), current, req.t, mandantList.defaultSort),
    });
  });

  router.get(`/${PATH}/neu`, ...guards, (req, res) => formPage(req, res, { id: null, values: {} }));

  router.post(`/${PATH}`, ...guards, async (req, res) => {
    await submitForm(
      req, res,
      async () => `${base(res)}/${(await service.create(actorOf(req, res), parseForm(NewMandantInput, req.body))).mandant}`,
      (errors) => formPage(req, res, { id: null, values: req.body ?? {}, errors }),
    );
  });

  router.get(`/${PATH}/:id`, ...guards, async (req, res) => {
    const record = await service.get(actorOf(req, res), idOf(req.params.id));
    await formPage(req, res, { id: record.mandant, values: { ...record } });
  });

  router.post(`/${PATH}/:id`, ...guards, async (req, res) => {
    const id = idOf(req.params.id);
    await submitForm(
      req, res,
      async () => {
        await service.update(actorOf(req, res), id, parseForm(MandantInput, req.body));
        return `${base(res)}/${id}`;
      },
      (errors) => formPage(req, res, { id, values: req.body ?? {}, errors }),
    );
  });

  router.post(`/${PATH}/:id/status`, ...guards, async (req, res) => {
    const id = idOf(req.params.id);
    const parsed = StatusInput.safeParse({ status: req.body?.status });
    if (!parsed.success) throw new HttpError(400, 'VALIDATION', 'errors.badRequest');
    try {
      await service.setStatus(actorOf(req, res), id, parsed.data.status);
      res.flash('success', parsed.data.status === 'active' ? 'mandanten:flash.activated' : 'mandanten:flash.deactivated');
    } catch (err) {
      if (!(err instanceof HttpError) || err.status !== 409) throw err;
      res.flash('error', err.messageKey);
    }
    res.redirect(`${base(res)}/${id}`);
  });

  return router;
}
