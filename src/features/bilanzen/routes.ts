// Pages of the Bilanzen, usable without JavaScript: the list (list engine), the create form, and a Bilanz's
// page with a form for each operation (POST, then back to the page with a message; a refused one shows the page
// again with the problem at its form). Closing the Bilanz or a position and splitting a position have a page of
// their own first: the preview of the POCs closing would issue, the split's form. The editor island
// (islands/bilanz-editor) enhances the same page over the JSON API (api.ts).
import { Router, type Request, type Response } from 'express';
import type { Knex } from 'knex';
import type { Clock } from '../../clock.js';
import { notFound, ProblemError } from '../../errors.js';
import { ausMilli, milli } from '../../domain/lieferkette.js';
import { askFirst, isConfirmed, type Confirmation } from '../../http/confirm.js';
import { refusedForm } from '../../http/forms.js';
import { guardsFor, requireActionPermission } from '../../http/guards.js';
import { actorOf, tenantScope } from '../../http/tenant.js';
import { can } from '../../permissions/index.js';
import { mountListPage } from '../../records/list/routes.js';
import { choicesOf } from '../bewegungsdaten/references.js';
import { heuteInDeutschland } from '../zuordnung/service.js';
import { fmtOf, idOf } from './api.js';
import { bilanzDetail, type BilanzDetail } from './detail.js';
import { editorProps } from './editor.js';
import { bilanzListe } from './list.js';
import * as repo from './repo.js';
import { parseBilanz, parsePosition, parsePositionAenderung, parseTeil, parseVersion, parseZeitraum, quartal } from './schema.js';
import * as service from './service.js';

const PATH = 'bewegungsdaten/bilanzen';
const DETAIL = `${PATH}/:id`;
const AREA = 'bilanzen';

/** Which form of the page a refused change belongs to, with what was typed and the problems by field. */
export interface Formzustand {
  form: string;
  values: Record<string, unknown>;
  errors: Record<string, string>;
}

export function bilanzenRoutes(knex: Knex, clock: Clock): Router {
  const router = Router({ mergeParams: true });
  const heute = () => heuteInDeutschland(new Date(clock.now()));
  const base = (res: Response) => `/${res.locals.lang}/${PATH}`;
  const href = (res: Response, id: number) => `${base(res)}/${id}`;
  const scope = (res: Response, action: 'view' | 'edit' = 'view') => tenantScope(knex, res, AREA, action);
  const viewGuards = guardsFor(DETAIL);
  const editGuards = [...guardsFor(DETAIL), requireActionPermission(AREA, 'edit')];

  /** The "new" form (before the list's /:id routes). */
  async function neu(req: Request, res: Response, zustand: Formzustand | null) {
    const s = scope(res, 'edit');
    const q = quartal(heute());
    await res.page('bilanzen/neu', {
      title: req.t('bilanzen:neu'),
      index: base(res),
      standorte: await choicesOf('standortNr')(s),
      produkte: await choicesOf('produktNr')(s),
      values: zustand?.values ?? { zeitraumVon: q.von, zeitraumBis: q.bis },
      errors: zustand?.errors ?? {},
    });
  }

  router.get(`/${PATH}/neu`, ...guardsFor(PATH), requireActionPermission(AREA, 'edit'), (req, res) => neu(req, res, null));
  router.post(`/${PATH}`, ...guardsFor(PATH), requireActionPermission(AREA, 'edit'), async (req, res) => {
    try {
      const id = await service.anlegen(scope(res, 'edit'), actorOf(req, res), parseBilanz(req.body));
      res.flash('success', 'bilanzen:flash.angelegt');
      res.redirect(href(res, id));
    } catch (err) {
      const { status, errors } = refusedForm(err, req);
      res.status(status);
      await neu(req, res, { form: 'neu', values: req.body ?? {}, errors });
    }
  });

  mountListPage(router, knex, bilanzListe, { path: PATH, area: AREA, view: 'bilanzen/index', title: 'bilanzen:title', filename: 'bilanzen' });

  async function ladeDetail(req: Request, res: Response, id: number): Promise<BilanzDetail> {
    const d = await bilanzDetail(scope(res), id, req.t, fmtOf(req, res), heute());
    if (!d) throw notFound();
    return d;
  }

  /** The Bilanz's page; after a refused change with the problem at its form. */
  async function zeige(req: Request, res: Response, id: number, zustand: Formzustand | null = null) {
    const d = await ladeDetail(req, res, id);
    const principal = res.locals.principal!;
    const darfBearbeiten = d.status === 'offen' && can(principal, 'edit', AREA, d.standortNr);
    const partner = darfBearbeiten ? await choicesOf('partnerNr')(scope(res, 'edit')) : [];
    const hier = href(res, id);
    await res.page('bilanzen/show', {
      title: req.t('bilanzen:detailTitle', { id }),
      d, index: base(res), hier, darfBearbeiten, partner, zustand,
      // The editor island enhances the page in place (read-only where the user may not change it); its code and
      // React are preloaded on this page only.
      editor: editorProps(d, {
        lang: res.locals.lang, darfBearbeiten, hier, t: req.t, partner,
        datumsformat: res.locals.currentUser?.settings.dateFormat, zeitzone: res.locals.currentUser?.settings.timezone, fehler: zustand,
      }),
      islands: ['bilanz-editor'],
      links: {
        lieferung: (nr: string) => `/${res.locals.lang}/bewegungsdaten/ablieferungen/${encodeURIComponent(nr)}`,
        nachweis: (nr: string) => `/${res.locals.lang}/bewegungsdaten/nachweise/${encodeURIComponent(nr)}`,
        poc: (nr: string) => `/${res.locals.lang}/bewegungsdaten/nachweisbescheinigungen/${encodeURIComponent(nr)}`,
        partner: (nr: string) => `/${res.locals.lang}/stammdaten/tauschpartner/${encodeURIComponent(nr)}`,
      },
    });
  }

  router.get(`/${DETAIL}`, ...viewGuards, (req, res) => zeige(req, res, idOf(req.params.id)));

  /**
   * A change from a form of the page: done → back to the page with `flash`; refused (any 4xx) → the page again
   * with the problem at the form `form`.
   */
  function aktion(
    pfad: string,
    form: string,
    change: (req: Request, res: Response, id: number) => Promise<string | { flash: string; next?: string }>,
    /** For a destructive change: what the confirmation names, or null where the change would be refused anyway. */
    frage?: (req: Request, res: Response, d: BilanzDetail) => Confirmation | null,
  ) {
    router.post(`/${DETAIL}${pfad}`, ...editGuards, async (req, res) => {
      const id = idOf(req.params.id);
      if (frage && !isConfirmed(req)) {
        const c = frage(req, res, await ladeDetail(req, res, id));
        if (c) return askFirst(req, res, c);
      }
      try {
        const r = await change(req, res, id);
        const { flash, next } = typeof r === 'string' ? { flash: r, next: undefined } : r;
        res.flash('success', flash);
        res.redirect(next ?? href(res, id));
      } catch (err) {
        const { status, errors } = refusedForm(err, req);
        res.status(status);
        await zeige(req, res, id, { form: form.replace(':p', String(req.params.p ?? '')), values: req.body ?? {}, errors });
      }
    });
  }

  const version = (req: Request) => parseVersion(req.body);
  const p = (req: Request) => idOf(req.params.p);

  aktion('', 'zeitraum', async (req, res, id) => {
    await service.aendern(scope(res, 'edit'), actorOf(req, res), id, parseZeitraum(req.body));
    return 'bilanzen:flash.gespeichert';
  });
  /** The confirmation's trail and way back: the list, the Bilanz. */
  const frageAuf = (req: Request, res: Response, d: BilanzDetail, zurueck: string) => ({
    cancelHref: zurueck,
    trail: [{ label: req.t('bilanzen:title'), href: base(res) }, { label: req.t('bilanzen:detailTitle', { id: d.id }), href: href(res, d.id) }],
  });
  aktion('/loeschen', 'aktionen', async (req, res, id) => {
    await service.loeschen(scope(res, 'edit'), actorOf(req, res), id, version(req));
    return { flash: 'bilanzen:flash.geloescht', next: base(res) };
  }, (req, res, d) => {
    // A closed Bilanz, or one with a closed position, is refused at once (the service says why).
    if (d.status !== 'offen' || d.positionen.some((x) => x.status === 'geschlossen')) return null;
    const fmt = fmtOf(req, res);
    const was = {
      id: d.id, standort: `${d.standortNr} ${d.standortName}`, produkt: `${d.produktNr} ${d.produktName}`,
      von: fmt.date(d.zeitraumVon), bis: fmt.date(d.zeitraumBis), count: d.positionen.length,
    };
    return {
      heading: req.t('bilanzen:confirmLoeschen.heading', was),
      text: req.t('bilanzen:confirmLoeschen.text', was),
      confirm: req.t('bilanzen:aktionen.loeschen'),
      ...frageAuf(req, res, d, href(res, d.id)),
    };
  });
  aktion('/verteilung', 'aktionen', async (req, res, id) => {
    await service.verteilen(scope(res, 'edit'), actorOf(req, res), id, { version: version(req) }, heute());
    return 'bilanzen:flash.verteilt';
  });
  aktion('/zuruecksetzen', 'aktionen', async (req, res, id) => {
    await service.zuruecksetzen(scope(res, 'edit'), actorOf(req, res), id, version(req));
    return 'bilanzen:flash.zurueckgesetzt';
  });
  aktion('/positionen', 'neuePosition', async (req, res, id) => {
    await service.positionAnlegen(scope(res, 'edit'), actorOf(req, res), id, parsePosition(req.body));
    return 'bilanzen:flash.positionAngelegt';
  });
  aktion('/positionen/:p', 'position-:p', async (req, res, id) => {
    await service.positionAendern(scope(res, 'edit'), actorOf(req, res), id, p(req), parsePositionAenderung(req.body));
    return 'bilanzen:flash.gespeichert';
  });
  aktion('/positionen/:p/loeschen', 'position-:p', async (req, res, id) => {
    await service.positionLoeschen(scope(res, 'edit'), actorOf(req, res), id, p(req), version(req));
    return 'bilanzen:flash.positionGeloescht';
  }, (req, res, d) => {
    const position = d.status === 'offen' ? d.positionen.find((x) => x.id === p(req) && x.status === 'offen') : undefined;
    if (!position) return null;
    const was = { id: d.id, position: position.id, partner: `${position.partnerNr} ${position.partnerName}`, prioritaet: position.prioritaet };
    return {
      heading: req.t('bilanzen:confirmPositionLoeschen.heading', was),
      text: req.t(d.verteilt ? 'bilanzen:confirmPositionLoeschen.textVerteilt' : 'bilanzen:confirmPositionLoeschen.text', was),
      confirm: req.t('bilanzen:confirmPositionLoeschen.confirm'),
      ...frageAuf(req, res, d, `${href(res, d.id)}#positionen-heading`),
    };
  });

  // Closing: first the preview of the POCs (GET), then the POST that issues them.
  async function abschlussSeite(req: Request, res: Response, id: number, positionId: number | null, fehler: string | null = null) {
    const d = await ladeDetail(req, res, id);
    let pocs: service.Poc[] = [];
    try {
      pocs = positionId == null
        ? await service.abschliessen(scope(res, 'edit'), actorOf(req, res), id, { vorschau: true })
        : await service.positionAbschliessen(scope(res, 'edit'), actorOf(req, res), id, positionId, { vorschau: true });
    } catch (err) {
      // Not allocated, closed, …: the Bilanz's page says why.
      const { status, errors } = refusedForm(err, req);
      res.status(status);
      return zeige(req, res, id, { form: 'aktionen', values: {}, errors });
    }
    const position = positionId == null ? null : d.positionen.find((x) => x.id === positionId) ?? null;
    await res.page('bilanzen/abschluss', {
      title: positionId == null ? req.t('bilanzen:abschluss.title', { id }) : req.t('bilanzen:abschluss.positionTitle', { id, position: positionId }),
      d, pocs, position, fehler, hier: href(res, id),
      action: positionId == null ? `${href(res, id)}/abschluss` : `${href(res, id)}/positionen/${positionId}/abschluss`,
      partnerName: (nr: string) => d.positionen.find((x) => x.partnerNr === nr)?.partnerName ?? nr,
    });
  }

  async function schliessen(req: Request, res: Response, id: number, positionId: number | null) {
    try {
      if (positionId == null) await service.abschliessen(scope(res, 'edit'), actorOf(req, res), id, { version: version(req) });
      else await service.positionAbschliessen(scope(res, 'edit'), actorOf(req, res), id, positionId, { version: version(req) });
      // Flashes are keys without values: the page below lists the POCs with their numbers.
      res.flash('success', positionId == null ? 'bilanzen:flash.abgeschlossen' : 'bilanzen:flash.positionAbgeschlossen');
      res.redirect(href(res, id));
    } catch (err) {
      const { status, errors } = refusedForm(err, req);
      res.status(status);
      await abschlussSeite(req, res, id, positionId, Object.values(errors)[0] ?? null);
    }
  }

  router.get(`/${DETAIL}/abschluss`, ...editGuards, (req, res) => abschlussSeite(req, res, idOf(req.params.id), null));
  router.post(`/${DETAIL}/abschluss`, ...editGuards, (req, res) => schliessen(req, res, idOf(req.params.id), null));
  router.get(`/${DETAIL}/positionen/:p/abschluss`, ...editGuards, (req, res) => abschlussSeite(req, res, idOf(req.params.id), p(req)));
  router.post(`/${DETAIL}/positionen/:p/abschluss`, ...editGuards, (req, res) => schliessen(req, res, idOf(req.params.id), p(req)));

  // Splitting: a form with the new position's quantity (and priority); the existing one keeps the rest.
  async function teilungSeite(req: Request, res: Response, id: number, positionId: number, zustand: Formzustand | null) {
    const s = scope(res, 'edit');
    const b = await repo.bilanz(s, id);
    if (!b) throw notFound();
    const position = (await repo.positionen(s, id)).find((x) => x.id === positionId);
    if (!position) throw notFound('bilanzen:errors.positionUnbekannt');
    const menge = await service.positionsMenge(s, b, position, heute());
    await res.page('bilanzen/teilung', {
      title: req.t('bilanzen:teilung.title', { position: positionId }),
      b, position, menge, hier: href(res, id), action: `${href(res, id)}/positionen/${positionId}/teilung`,
      values: zustand?.values ?? {}, errors: zustand?.errors ?? {},
    });
  }

  router.get(`/${DETAIL}/positionen/:p/teilung`, ...editGuards, (req, res) => teilungSeite(req, res, idOf(req.params.id), p(req), null));
  router.post(`/${DETAIL}/positionen/:p/teilung`, ...editGuards, async (req, res) => {
    const id = idOf(req.params.id);
    const positionId = p(req);
    try {
      const s = scope(res, 'edit');
      const b = await repo.bilanz(s, id);
      const position = b && (await repo.positionen(s, id)).find((x) => x.id === positionId);
      if (!b || !position) throw notFound();
      // The form asks for the new part only; the existing position keeps what it holds beyond it.
      const ganz = await service.positionsMenge(s, b, position, heute());
      const neu = parseTeil({ bioMenge: req.body?.bioMenge, prioritaet: req.body?.prioritaet });
      if (milli(neu.bioMenge!) >= milli(ganz)) {
        throw new ProblemError('invalid', 'VALIDATION', 'bilanzen:errors.teilMengeZuGross', [{ field: 'bioMenge', message: 'bilanzen:errors.teilMengeZuGross', params: { menge: ganz, einheit: b.einheit } }]);
      }
      const bleibt = ausMilli(milli(ganz) - milli(neu.bioMenge!));
      await service.teilen(s, actorOf(req, res), id, positionId, { teile: [{ bioMenge: bleibt, prioritaet: null }, neu], version: version(req) }, heute());
      res.flash('success', 'bilanzen:flash.geteilt');
      res.redirect(href(res, id));
    } catch (err) {
      const { status, errors } = refusedForm(err, req);
      res.status(status);
      await teilungSeite(req, res, id, positionId, { form: 'teilung', values: req.body ?? {}, errors: { bioMenge: errors.bioMenge ?? errors.teile ?? errors._, prioritaet: errors.prioritaet } as Record<string, string> });
    }
  });

  return router;
}
