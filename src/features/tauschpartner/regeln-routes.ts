// Pages and API of a partner's rules. Pages: plain forms on the partner's detail page (POST, then back to the
// rules; the user's mistakes show in the rules form). API: GET/POST /api/tauschpartner/{nr}/regeln and
// PUT/DELETE /api/tauschpartner/{nr}/regeln/{id}; an optional `version` (body or If-Match) names the partner
// version the change is based on. Both go through regeln.ts and are limited to the user's locations.
import { Router, type Request, type Response } from 'express';
import type { Knex } from 'knex';
import { z } from 'zod';
import { requireApiPermission } from '../../http/api.js';
import { askFirst, isConfirmed } from '../../http/confirm.js';
import { HttpError } from '../../http/errors.js';
import { guardsFor, requireActionPermission } from '../../http/guards.js';
import { actorOf, tenantScope } from '../../http/tenant.js';
import { idOr404, parseOr400 } from '../../http/validate.js';
import type { EntityKit } from '../../records/entity.js';
import { withAliases } from '../../records/api-names.js';
import { addRegel, deleteRegel, parseRegel, regelnOf, regelWithSpecNames, updateRegel, RegelSchema, type RegelChange, type RegelScopes } from './regeln.js';
import { REGEL_API_ALIASES, type Tauschpartner } from './store.js';
import { documentApis, Page } from '../api-docs/registry.js';

const Regel = z.object({
  id: z.number().int(), standortNr: z.string(), standortName: z.string().nullable(), prioritaet: z.number(), priority: z.number(),
  biogehalt: z.unknown(), biomenge: z.unknown(), biomengeEinheit: z.string().nullable(),
}).strict();
const Partner = z.object({ nr: z.string(), version: z.number().int() }).strict();
const RegelAnswer = z.object({ success: z.literal(true), data: Regel, partner: Partner }).strict();
const RegelBody = RegelSchema.extend({ priority: z.unknown().optional().describe('= prioritaet'), version: z.number().int().optional() });
const regelParams = z.object({ nr: z.string(), regel: z.string().regex(/^\d+$/) });
documentApis([
  { method: 'get', path: '/tauschpartner/:nr/regeln', tag: 'tauschpartner', summary: 'regeln.list', ok: { 200: Page(Regel) } },
  { method: 'post', path: '/tauschpartner/:nr/regeln', tag: 'tauschpartner', summary: 'regeln.create', body: RegelBody, ok: { 201: RegelAnswer } },
  { method: 'put', path: '/tauschpartner/:nr/regeln/:regel', tag: 'tauschpartner', summary: 'regeln.update', params: regelParams, body: RegelBody, ok: { 200: RegelAnswer } },
  {
    method: 'delete', path: '/tauschpartner/:nr/regeln/:regel', tag: 'tauschpartner', summary: 'regeln.delete', params: regelParams,
    ok: { 200: z.object({ success: z.literal(true), partner: Partner }).strict() },
  },
]);

const DETAIL = 'stammdaten/tauschpartner/:id';
const VersionField = z.coerce.number().int().min(1).optional();
const RegelId = z.coerce.number().int().min(1).max(2_147_483_647);

type Op = 'create' | 'update' | 'delete';

/** The partner version a change is based on; none given: not checked. */
const versionFrom = (raw: unknown) => (raw === undefined || raw === null || raw === '' ? undefined : parseOr400(VersionField, raw));

export function regelnRoutes(knex: Knex, kit: EntityKit<Tauschpartner>): { pages: Router; api: Router } {
  const pages = Router({ mergeParams: true });
  const api = Router();
  const scopesOf = (res: Response): RegelScopes => ({
    view: tenantScope(knex, res, 'tauschpartner', 'view'),
    edit: tenantScope(knex, res, 'tauschpartner', 'edit'),
  });
  /** A rule id from the URL; anything else is a rule that does not exist. */
  const regelId = (raw: unknown) => {
    return idOr404(RegelId, raw, 'tauschpartner:regeln.errors.notFound');
  };

  /** `body`: the page's form, or the API's body with the spec's names taken (`priority` for `prioritaet`). */
  async function run(req: Request, res: Response, op: Op, partnerNr: string, id: number | null, basedOn: number | undefined, body: unknown = req.body): Promise<RegelChange> {
    const actor = actorOf(req, res);
    const scopes = scopesOf(res);
    return op === 'create' ? addRegel(scopes, partnerNr, parseRegel(body), basedOn, actor)
      : op === 'update' ? updateRegel(scopes, partnerNr, id!, parseRegel(body), basedOn, actor)
      : deleteRegel(scopes, partnerNr, id!, basedOn, actor);
  }
  const runApi = (req: Request, res: Response, op: Op, partnerNr: string, id: number | null) =>
    withAliases(REGEL_API_ALIASES, req.body, (body) => run(req, res, op, partnerNr, id, versionOf(req), body));

  // Pages: add, change and delete from the forms of the rules section.
  const editGuards = [...guardsFor(DETAIL), requireActionPermission('tauschpartner', 'edit')];

  async function submit(req: Request, res: Response, op: Op) {
    const { record } = await kit.load(res, String(req.params.id), 'edit');
    const id = op === 'create' ? null : regelId(req.params.regel);
    try {
      await run(req, res, op, record.nr, id, versionFrom(req.body?.version));
      res.flash('success', `tauschpartner:flash.regel.${op}`);
      res.redirect(`/${res.locals.lang}/stammdaten/tauschpartner/${encodeURIComponent(record.nr)}#regeln`);
    } catch (err) {
      // The user's mistakes (400), a location they may not use (403) and someone else's change in between (409)
      // show in the rules form; everything else goes to the error handler.
      if (!(err instanceof HttpError) || ![400, 403, 409].includes(err.status)) throw err;
      const errors: Record<string, string> = {};
      // A refused delete has no field of its own: its message goes above the rules form.
      if (op !== 'delete') for (const e of err.errors) errors[e.field] ??= req.t(e.message, e.params ?? {});
      if (!Object.keys(errors).length || err.status === 409) errors._ = req.t(err.messageKey);
      res.status(err.status);
      await kit.renderDetail(req, res, record, {
        regelForm: { id: op === 'delete' ? null : id, values: op === 'delete' ? {} : req.body ?? {}, errors, conflict: err.status === 409 },
      });
    }
  }

  pages.post(`/${DETAIL}/regeln`, ...editGuards, (req, res) => submit(req, res, 'create'));
  pages.post(`/${DETAIL}/regeln/:regel`, ...editGuards, (req, res) => submit(req, res, 'update'));
  // Deleting a rule asks first, naming the rule; a rule the user cannot delete is refused by submit at once.
  pages.post(`/${DETAIL}/regeln/:regel/delete`, ...editGuards, async (req, res) => {
    if (!isConfirmed(req)) {
      const { record } = await kit.load(res, String(req.params.id), 'edit');
      const id = regelId(req.params.regel);
      const regel = (await regelnOf(scopesOf(res).edit, record.nr)).find((r) => r.id === id);
      if (regel && scopesOf(res).edit.allowsStandort(regel.standortNr)) {
        const partnerHref = `/${res.locals.lang}/stammdaten/tauschpartner/${encodeURIComponent(record.nr)}`;
        const which = { standort: regel.standortNr, prioritaet: regel.prioritaet, partner: record.nr };
        return askFirst(req, res, {
          heading: req.t('tauschpartner:regeln.confirmDelete.heading', which),
          text: req.t('tauschpartner:regeln.confirmDelete.text', which),
          confirm: req.t('tauschpartner:regeln.delete'),
          cancelHref: `${partnerHref}#regeln`,
          trail: [{ label: req.t('tauschpartner:title'), href: `/${res.locals.lang}/stammdaten/tauschpartner` }, { label: record.nr, href: partnerHref }],
        });
      }
    }
    await submit(req, res, 'delete');
  });

  // API.
  const view = requireApiPermission('tauschpartner', 'view');
  const edit = requireApiPermission('tauschpartner', 'edit');
  const versionOf = (req: Request) => {
    const ifMatch = typeof req.headers['if-match'] === 'string' ? req.headers['if-match'].replace(/"/g, '') : undefined;
    return versionFrom(req.body?.version ?? ifMatch);
  };
  const partnerOf = (r: RegelChange) => ({ nr: r.partner.nr, version: r.partner.version });

  api.get('/tauschpartner/:nr/regeln', view, async (req, res) => {
    const { record } = await kit.load(res, String(req.params.nr));
    const data = (await regelnOf(scopesOf(res).view, record.nr)).map(regelWithSpecNames);
    res.json({ data, total: data.length, page: 1, pageSize: data.length });
  });

  api.post('/tauschpartner/:nr/regeln', edit, async (req, res) => {
    const { record } = await kit.load(res, String(req.params.nr), 'edit');
    const result = await runApi(req, res, 'create', record.nr, null);
    res.status(201).json({ success: true, data: regelWithSpecNames(result.regel!), partner: partnerOf(result) });
  });

  api.put('/tauschpartner/:nr/regeln/:regel', edit, async (req, res) => {
    const { record } = await kit.load(res, String(req.params.nr), 'edit');
    const result = await runApi(req, res, 'update', record.nr, regelId(req.params.regel));
    res.json({ success: true, data: regelWithSpecNames(result.regel!), partner: partnerOf(result) });
  });

  api.delete('/tauschpartner/:nr/regeln/:regel', edit, async (req, res) => {
    const { record } = await kit.load(res, String(req.params.nr), 'edit');
    const result = await run(req, res, 'delete', record.nr, regelId(req.params.regel), versionOf(req));
    res.json({ success: true, partner: partnerOf(result) });
  });

  return { pages, api };
}
