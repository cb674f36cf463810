// Pages and API of linking (verknuepfung.ts), on both sides: the Einlieferung's tab "Abholung" with the API of
// the contract (`GET|PUT|DELETE /api/einlieferungen/{nr}/abholung`), and the collection's tab "Einlieferungen".
// Thin: parse, guard, call the one service, render. Plain forms that post and redirect back to their tab; a
// refused link shows the tab again with the message at its field.
//
// The collection's tab posts to routes of its own rather than a RecordAction of the collection: an action
// locks the collection first, and linking locks the Einlieferung first (verknuepfung.ts), so two opposite
// orders could wait for each other.
import { documentApis } from '../api-docs/registry.js';
import { recordEnvelope } from '../api-docs/records.js';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Knex } from 'knex';
import { z } from 'zod';
import type { Meta } from '../../db/versioned.js';
import { requireApiPermission } from '../../http/api.js';
import { HttpError } from '../../http/errors.js';
import { refusedForm } from '../../http/forms.js';
import { guardsFor, requireActionPermission } from '../../http/guards.js';
import { actorOf, tenantScope } from '../../http/tenant.js';
import { parseOr400 } from '../../http/validate.js';
import { can, type Area } from '../../permissions/index.js';
import type { EntityKit } from '../../records/entity.js';
import { requiredText } from '../../records/fields.js';
import type { Lieferung } from '../lieferungen/lieferung.js';
import type { Abholung } from './store.js';
import { abholungFuer, loesen, statusOf, verknuepfen, type VerknuepfungsRechte } from './verknuepfung.js';

type ScopeFor = (area: Area, action: 'view' | 'edit') => ReturnType<typeof tenantScope>;

/** The user's locations for both sides of a link. */
export const rechteAus = (scopeFor: ScopeFor): VerknuepfungsRechte => ({
  einlieferungen: { view: scopeFor('einlieferungen', 'view'), edit: scopeFor('einlieferungen', 'edit') },
  abholungen: { view: scopeFor('abholungen', 'view'), edit: scopeFor('abholungen', 'edit') },
});

const rechteDer = (knex: Knex, res: Response) => rechteAus((area, action) => tenantScope(knex, res, area, action));

/**
 * Either edit right (docs/decisions.md): with the collections' right it passes, else the inbound deliveries'
 * guard decides, so a refusal is the usual one (API 403; a page goes back with the no-permission dialog).
 */
const eitherRight = (guard: RequestHandler): RequestHandler => (req, res, next) =>
  (res.locals.principal && can(res.locals.principal, 'edit', 'abholungen') ? next() : guard(req, res, next));
const requireLinkApi = () => eitherRight(requireApiPermission('einlieferungen', 'edit'));
const requireLinkPage = () => eitherRight(requireActionPermission('einlieferungen', 'edit'));

const AbholungNrBody = z.object({ abholungNr: requiredText(32) });

// The collection and the Einlieferung as their own record types describe them.
documentApis([
  { method: 'get', path: '/einlieferungen/:nr/abholung', tag: 'einlieferungen', summary: 'abholung.read', ok: { 200: recordEnvelope('abholungen') } },
  { method: 'put', path: '/einlieferungen/:nr/abholung', tag: 'einlieferungen', summary: 'abholung.link', body: AbholungNrBody, ok: { 200: recordEnvelope('einlieferungen') } },
  { method: 'delete', path: '/einlieferungen/:nr/abholung', tag: 'einlieferungen', summary: 'abholung.unlink', ok: { 200: recordEnvelope('einlieferungen') } },
]);
const EinlieferungNrBody = z.object({ einlieferungNr: requiredText(32) });

/**
 * Runs a tab's link or unlink: on success a flash and back to the tab; a refusal (4xx) shows the tab again
 * with the form's values and each message at its field (`_` when none is named).
 */
async function tabAction(req: Request, res: Response, opts: { tab: string; form: string; href: string; run: () => Promise<unknown>; flash: string; again: (extra: Record<string, unknown>) => Promise<void> }) {
  try {
    await opts.run();
  } catch (err) {
    const { status, errors } = refusedForm(err, req);
    res.status(status);
    return opts.again({ tab: opts.tab, actionForm: { name: opts.form, errors, values: req.body ?? {} } });
  }
  res.flash('success', opts.flash);
  res.redirect(`${opts.href}?tab=${opts.tab}`);
}

/** The Einlieferung's side: its tab's forms and the contract's API. */
export function einlieferungAbholungRoutes(knex: Knex, kit: EntityKit<Lieferung>): { pages: Router; api: Router } {
  const pages = Router({ mergeParams: true });
  const api = Router();
  const detail = 'bewegungsdaten/einlieferungen/:id';
  const href = (res: Response, nr: string) => `/${res.locals.lang}/bewegungsdaten/einlieferungen/${encodeURIComponent(nr)}`;

  pages.post(`/${detail}/abholung`, ...guardsFor(detail), requireLinkPage(), async (req, res) => {
    const { record } = await kit.load(res, String(req.params.id));
    await tabAction(req, res, {
      tab: 'abholung', form: 'abholung', href: href(res, record.nr), flash: 'abholungen:flash.verknuepft',
      run: () => verknuepfen(rechteDer(knex, res), actorOf(req, res), record.nr, parseOr400(AbholungNrBody, req.body).abholungNr),
      again: (extra) => kit.renderDetail(req, res, record, extra),
    });
  });

  pages.post(`/${detail}/abholung/loesen`, ...guardsFor(detail), requireLinkPage(), async (req, res) => {
    const { record } = await kit.load(res, String(req.params.id));
    await tabAction(req, res, {
      tab: 'abholung', form: 'loesen', href: href(res, record.nr), flash: 'abholungen:flash.geloest',
      run: () => loesen(rechteDer(knex, res), actorOf(req, res), record.nr),
      again: (extra) => kit.renderDetail(req, res, record, extra),
    });
  });

  /** The Einlieferung as the link's API answers it: with its link status. */
  const answer = async (res: Response, e: Lieferung & Meta) => ({ ...e, verknuepfungStatus: await statusOf(tenantScope(knex, res, 'einlieferungen'), (e.abholungNr as string | null) ?? null) });

  api.get('/einlieferungen/:nr/abholung', requireApiPermission('einlieferungen', 'view'), async (req, res) => {
    const { record } = await kit.load(res, String(req.params.nr));
    const abholung = await abholungFuer(tenantScope(knex, res, 'abholungen'), (record.abholungNr as string | null) ?? null);
    if (!abholung) throw new HttpError(404, 'NOT_LINKED', 'abholungen:errors.nichtVerknuepft', [], { nr: record.nr });
    res.json({ success: true, data: abholung });
  });

  api.put('/einlieferungen/:nr/abholung', requireLinkApi(), async (req, res) => {
    const { abholungNr } = parseOr400(AbholungNrBody, req.body);
    const saved = await verknuepfen(rechteDer(knex, res), actorOf(req, res), String(req.params.nr), abholungNr);
    res.json({ success: true, data: await answer(res, saved) });
  });

  api.delete('/einlieferungen/:nr/abholung', requireLinkApi(), async (req, res) => {
    const saved = await loesen(rechteDer(knex, res), actorOf(req, res), String(req.params.nr));
    res.json({ success: true, data: await answer(res, saved) });
  });

  return { pages, api };
}

/** The collection's side: its Einlieferungen tab's forms (link by number or choice, unlink per row). */
export function abholungRoutes(knex: Knex, kit: EntityKit<Abholung>): { pages: Router } {
  const pages = Router({ mergeParams: true });
  const detail = 'bewegungsdaten/abholungen/:id';
  const href = (res: Response, nr: string) => `/${res.locals.lang}/bewegungsdaten/abholungen/${encodeURIComponent(nr)}`;

  pages.post(`/${detail}/einlieferungen`, ...guardsFor(detail), requireLinkPage(), async (req, res) => {
    const { record } = await kit.load(res, String(req.params.id));
    await tabAction(req, res, {
      tab: 'einlieferungen', form: 'einlieferungen', href: href(res, record.nr), flash: 'abholungen:flash.verknuepft',
      run: () => verknuepfen(rechteDer(knex, res), actorOf(req, res), parseOr400(EinlieferungNrBody, req.body).einlieferungNr, record.nr),
      again: (extra) => kit.renderDetail(req, res, record, extra),
    });
  });

  pages.post(`/${detail}/einlieferungen/:einlieferung/loesen`, ...guardsFor(detail), requireLinkPage(), async (req, res) => {
    const { record } = await kit.load(res, String(req.params.id));
    await tabAction(req, res, {
      tab: 'einlieferungen', form: 'loesen', href: href(res, record.nr), flash: 'abholungen:flash.geloest',
      run: () => loesen(rechteDer(knex, res), actorOf(req, res), String(req.params.einlieferung), record.nr),
      again: (extra) => kit.renderDetail(req, res, record, extra),
    });
  });

  return { pages };
}
