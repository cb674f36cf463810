// User administration pages (benutzer/administration): list with search and paging, create, edit,
// activate/deactivate, reset password and second factor. Plain forms, POST-redirect-GET.
import { Router, type Request, type Response } from 'express';
import type { AccountService } from '../../auth/services.js';
import { askFirst, isConfirmed } from '../../http/confirm.js';
import { HttpError } from '../../http/errors.js';
import { isSystemAdmin } from '../../permissions/index.js';
import { guardsFor } from '../../http/guards.js';
import { actorOf } from '../../http/tenant.js';
import { parseForm, submitForm } from '../../http/forms.js';
import { exportLinks, listErrorsView, listHref } from '../../records/list/engine.js';
import { registerList } from '../../records/list/request.js';
import { listPageOrExport } from '../../records/list/routes.js';
import { NewUserInput, StatusInput, UserId, UserInput } from './schema.js';
import { allTenants, userList } from './repo.js';
import { BenutzerService } from './service.js';
import { idOr404 } from '../../http/validate.js';

const PATH = 'benutzer/administration';

export function benutzerRoutes(accounts: AccountService): Router {
  const router = Router({ mergeParams: true });
  const service = new BenutzerService(accounts);
  const guards = guardsFor(PATH);
  const base = (res: Response) => `/${res.locals.lang}/${PATH}`;
  const idOf = (raw: unknown) => {
    return idOr404(UserId, raw, 'errors.userNotFound');
  };
  const tenants = () => allTenants(accounts.knex);

  /** Renders the form again with the errors of a failed save, the entered values kept. */
  async function formPage(req: Request, res: Response, locals: Record<string, unknown>) {
    const actor = actorOf(req, res);
    await res.page('benutzer/form', {
      title: locals.userId ? req.t('benutzer:edit.title') : req.t('benutzer:create.title'),
      isSystemAdmin: isSystemAdmin(actor.principal),
      tenants: await tenants(),
      errors: {},
      ...locals,
    });
  }

  registerList(userList, { page: PATH, exports: true });
  router.get(`/${PATH}`, ...guards, async (req, res) => {
    const list = await listPageOrExport(req, res, userList, service.listSource(actorOf(req, res)), { title: 'nav.administration', filename: 'benutzer' });
    if (!list) return;
    const { state, input, errors, result } = list;
    const current = { ...state, page: result.page };
    await res.page('benutzer/index', {
      title: req.t('nav.administration'),
      rows: result.rows, total: result.total, page: result.page, pageSize: state.pageSize, q: input.q,
      href: (page: number) => listHref(base(res), current, { page }, userList.defaultSort),
      listErrors: listErrorsView(userList.filters, errors, req.t),
      exports: exportLinks(base(res), current, req.t, userList.defaultSort),
    });
  });

  router.get(`/${PATH}/neu`, ...guards, (req, res) => formPage(req, res, { values: { mandanten: [res.locals.mandant] }, userId: null }));

  router.post(`/${PATH}`, ...guards, async (req, res) => {
    await submitForm(
      req, res,
      async () => `${base(res)}/${(await service.create(actorOf(req, res), parseForm(NewUserInput, req.body))).id}`,
      (errors) => formPage(req, res, { values: { ...req.body, password: '' }, userId: null, errors }),
    );
  });

  router.get(`/${PATH}/:id`, ...guards, async (req, res) => {
    const user = await service.get(actorOf(req, res), idOf(req.params.id));
    const current = user.mandanten.find((m) => m.mandant === res.locals.mandant);
    await formPage(req, res, {
      userId: user.id, user,
      values: { ...user, tenantAdmin: current?.adminKz ?? false, mandanten: user.mandanten.map((m) => m.mandant) },
    });
  });

  router.post(`/${PATH}/:id`, ...guards, async (req, res) => {
    const id = idOf(req.params.id);
    await submitForm(
      req, res,
      async () => {
        await service.update(actorOf(req, res), id, parseForm(UserInput, req.body));
        return `${base(res)}/${id}`;
      },
      async (errors) => {
        const user = await service.get(actorOf(req, res), id);
        await formPage(req, res, { userId: id, user, values: { ...req.body, mfaEnabled: user.mfaEnabled, status: user.status }, errors });
      },
    );
  });

  // Actions that are not edits of the record are resources of their own (status, password, second factor).
  // `run` answers null when it has answered itself (a confirmation step).
  const action = (name: string, run: (req: Request, res: Response, id: number) => Promise<string | null>) =>
    router.post(`/${PATH}/:id/${name}`, ...guards, async (req, res) => {
      const id = idOf(req.params.id);
      try {
        const flash = await run(req, res, id);
        if (flash === null) return;
        res.flash('success', flash);
      } catch (err) {
        if (!(err instanceof HttpError) || err.status >= 500 || err.status === 404) throw err;
        res.flash('error', err.messageKey.includes(':') || err.messageKey.startsWith('errors.') ? err.messageKey : 'errors.badRequest');
      }
      res.redirect(`${base(res)}/${id}`);
    });

  action('status', async (req, res, id) => {
    const parsed = StatusInput.safeParse({ status: req.body?.status });
    if (!parsed.success) throw new HttpError(400, 'VALIDATION', 'errors.badRequest');
    await service.setStatus(actorOf(req, res), id, parsed.data.status);
    return parsed.data.status === 'active' ? 'benutzer:flash.activated' : 'benutzer:flash.deactivated';
  });
  action('passwort', async (req, res, id) => {
    await service.resetPassword(actorOf(req, res), id, typeof req.body?.newPassword === 'string' ? req.body.newPassword : '');
    return 'benutzer:flash.passwordReset';
  });
  action('2fa', async (req, res, id) => {
    // Resetting a second factor asks first: the user must set it up again, and until then signs in without it.
    if (!isConfirmed(req)) {
      const user = await service.get(actorOf(req, res), id);
      if (user.mfaEnabled) {
        const who = { name: `${user.vorname} ${user.nachname}`.trim(), login: user.login };
        await askFirst(req, res, {
          heading: req.t('benutzer:confirmMfaReset.heading', who),
          text: req.t('benutzer:confirmMfaReset.text', who),
          confirm: req.t('benutzer:actions.resetMfa'),
          cancelHref: `${base(res)}/${id}`,
          trail: [{ label: req.t('nav.administration'), href: base(res) }, { label: user.login, href: `${base(res)}/${id}` }],
        });
        return null;
      }
    }
    await service.resetMfa(actorOf(req, res), id);
    return 'benutzer:flash.mfaReset';
  });

  return router;
}
