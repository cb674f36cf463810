// The pages of permissions: permission management (admin), the role overview (admin) and "my permissions"
// (everyone signed in). Plain forms, POST-redirect-GET; the matrix island enhances the management page.
import { Router } from 'express';
import type { Knex } from 'knex';
import { fullName } from '../../auth/current-user.js';
import { HttpError, badRequest } from '../../http/errors.js';
import { guardsFor } from '../../http/guards.js';
import { tenantScope } from '../../http/tenant.js';
import { parseOr400 } from '../../http/validate.js';
import { principalKind } from '../../permissions/index.js';
import { MatrixForm, PageQuery, PermissionsBody, UserId, formToPermissions } from './schema.js';
import {
  candidates, manageableMember, permissionsOf, ownPermissions, roleOverview, savePermissions, standorteOf, userNotFound,
  type Member, type Reach,
} from './service.js';
import { matrixModel } from './matrix-view.js';

const MANAGE = 'benutzer/berechtigungsverwaltung';
const ROLLEN = 'benutzer/rollen';
const OWN = 'benutzer/berechtigungen';

const displayName = (m: Pick<Member, 'vorname' | 'nachname' | 'login'>) => fullName(m) || m.login;

export function berechtigungenRoutes(knex: Knex): Router {
  const router = Router({ mergeParams: true });

  router.get(`/${MANAGE}`, ...guardsFor(MANAGE), async (req, res) => {
    const t = req.t;
    const scope = tenantScope(knex, res);
    const query = PageQuery.parse(req.query);
    const [users, standorte] = await Promise.all([candidates(scope), standorteOf(scope)]);
    const locals: Record<string, unknown> = {
      title: t('nav.berechtigungsverwaltung'),
      users: users.map((u) => ({
        value: String(u.id),
        label: `${displayName(u)} (${u.login})${u.status === 'inactive' ? ` – ${t('berechtigungen:verwaltung.inactive')}` : ''}`,
      })),
      selectedId: query.benutzer ?? '',
      matrix: null,
      pageError: null,
    };

    if (query.benutzer) {
      try {
        const userId = UserId.safeParse(query.benutzer);
        if (!userId.success) throw userNotFound();
        // The candidates are exactly the manageable members: one of them needs no look-up of its own; anyone
        // else is looked up for the precise refusal (404, or 409 for an administrator or support).
        const member = users.find((u) => u.id === userId.data) ?? (await manageableMember(scope, userId.data));
        const { permissions } = await permissionsOf(scope, member);
        locals.matrix = matrixModel(t, {
          lang: res.locals.lang, userId: member.id, userName: displayName(member), standorte, permissions, requested: query.standort,
        });
        locals.islands = ['permission-matrix'];
      } catch (err) {
        if (!(err instanceof HttpError) || err.status >= 500) throw err;
        res.status(err.status);
        locals.pageError = t(err.messageKey);
      }
    }
    await res.page('berechtigungen/verwaltung', locals);
  });

  // The plain form's save: the checkboxes become the API's body and pass the same schema and service.
  router.post(`/${MANAGE}/:userId`, ...guardsFor(MANAGE), async (req, res) => {
    const userId = UserId.safeParse(req.params.userId);
    if (!userId.success) throw userNotFound();
    const form = MatrixForm.safeParse(req.body ?? {});
    if (!form.success) throw badRequest();
    const body = parseOr400(PermissionsBody, { permissions: formToPermissions(form.data) });
    await savePermissions(tenantScope(knex, res), { id: req.user!.id, ip: req.ip }, userId.data, body.permissions);
    res.flash('success', 'flash.saved');
    res.redirect(`/${res.locals.lang}/${MANAGE}?benutzer=${userId.data}#matrix`);
  });

  router.get(`/${ROLLEN}`, ...guardsFor(ROLLEN), async (req, res) => {
    const t = req.t;
    const rows = await roleOverview(tenantScope(knex, res));
    const where = (h: { allStandorte: boolean; standorte: string[] }) => {
      const parts = [];
      if (h.allStandorte) parts.push(t('berechtigungen:rollen.allStandorte'));
      if (h.standorte.length) {
        parts.push(t(h.standorte.length === 1 ? 'berechtigungen:rollen.standortOne' : 'berechtigungen:rollen.standorte', { list: h.standorte.join(', ') }));
      }
      return parts.join('; ');
    };
    await res.page('berechtigungen/rollen', {
      title: t('nav.rollen'),
      rows: rows.map((r) => ({
        typ: r.typ,
        name: r.name,
        meaning: t(`berechtigungen:rollen.meanings.${r.typ}`),
        holders: r.holders.length ? r.holders.map((h) => `${displayName(h)} (${where(h)})`).join(', ') : t('berechtigungen:rollen.none'),
      })),
    });
  });

  router.get(`/${OWN}`, ...guardsFor(OWN), async (req, res) => {
    const t = req.t;
    const principal = res.locals.principal!;
    const names = new Map((await standorteOf(tenantScope(knex, res))).map((s) => [s.nr, s.name]));
    const own = ownPermissions(principal);
    const describe = (reach: Reach) => {
      if (!reach.allowed) return { label: t('berechtigungen:meine.no'), variant: 'neutral', icon: null };
      if (reach.standorte === 'all') return { label: t('berechtigungen:meine.all'), variant: 'success', icon: 'check' };
      const list = reach.standorte.map((nr) => (names.has(nr) ? `${nr} (${names.get(nr)})` : nr)).join(', ');
      return { label: t(reach.standorte.length === 1 ? 'berechtigungen:meine.some' : 'berechtigungen:meine.someMany', { list }), variant: 'info', icon: 'check' };
    };
    const status = principalKind(principal);
    await res.page('berechtigungen/meine', {
      title: t('nav.berechtigungen'),
      status,
      admin: own.admin,
      rows: own.areas.map((a) => ({ area: t(`berechtigungen:meine.areas.${a.area}`), view: describe(a.view), edit: describe(a.edit) })),
    });
  });

  return router;
}
