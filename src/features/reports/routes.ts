// Pages of the reports, complete without JavaScript (area `reports`, right 18):
//   GET /{lang}/reports/liste          the catalogue: each report, what it answers, its parameters and formats
//   GET /{lang}/reports/auswertungen   the generator: a GET form (report, period, partner, location, product);
//       with `erzeugen=1` it generates: the result on screen with paging, sums and explanations, and download
//       links (the same query with `format=csv|xlsx|pdf`, answered as a file in the language of the path).
// Refused parameters show at their fields and in a summary above the form (status 400), a location that is not
// the user's as an error with no rows (403). The parameters of the last report generated on screen are kept per
// user and tenant (report_vorgaben) and prefill the form when it is opened without parameters.
import { Router, type Request, type Response } from 'express';
import type { Knex } from 'knex';
import type { Clock } from '../../clock.js';
import { httpErrorOf, type FieldError } from '../../http/errors.js';
import { formatter } from '../../http/format.js';
import { guardsFor } from '../../http/guards.js';
import { tenantScope } from '../../http/tenant.js';
import { cellText } from '../../records/list/engine.js';
import { heuteInDeutschland } from '../zuordnung/service.js';
import { AREA, katalogEintrag } from './api.js';
import { clientSignal, sendeDatei } from './ausgabe.js';
import { REPORT_PARAMETER, type ReportDefinition, type ReportErgebnis, type ReportParameter } from './definition.js';
import { findReport, REPORTS } from './katalog.js';
import * as repo from './repo.js';
import { PARAMETER_LABEL } from './schema.js';
import { ausfuehren, erlaeuterungen, parameterInWorten, pruefen, ReportAbgebrochen, zeitraumInWorten, type T } from './service.js';

const LISTE = 'reports/liste';
const GENERATOR = 'reports/auswertungen';
/** The fields the form sends (and the download and paging links repeat). */
const FORMULAR = ['bericht', ...REPORT_PARAMETER] as const;

/** The generator's address with these values (empty ones left out). */
export function generatorHref(lang: string, werte: Record<string, string | number | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(werte)) if (v != null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return `/${lang}/${GENERATOR}${s ? `?${s}` : ''}`;
}

/** What the form shows: one text per field, as sent (or remembered). */
function formWerte(query: Record<string, unknown>): Record<string, string> {
  const werte: Record<string, string> = {};
  for (const key of FORMULAR) {
    const v = query[key];
    if (typeof v === 'string') werte[key] = v.trim().slice(0, 64);
  }
  return werte;
}

export function reportsRoutes(knex: Knex, clock: Clock): Router {
  const router = Router({ mergeParams: true });
  const heute = () => heuteInDeutschland(new Date(clock.now()));

  router.get(`/${LISTE}`, ...guardsFor(LISTE), async (req, res) => {
    const lang = res.locals.lang as string;
    const t = req.t as T;
    await res.page('reports/liste', {
      title: t('nav.reports-liste'),
      berichte: REPORTS.map((def) => ({
        ...katalogEintrag(def, t),
        parameterText: def.parameter.map((p) => ({ label: t(PARAMETER_LABEL[p]), pflicht: def.pflicht.includes(p) })),
        formateText: def.formate.filter((f) => f !== 'json').map((f) => t(`reports:formate.${f}`)),
        href: generatorHref(lang, { bericht: def.id }),
      })),
    });
  });

  router.get(`/${GENERATOR}`, ...guardsFor(GENERATOR), async (req: Request, res: Response) => {
    const lang = res.locals.lang as 'de' | 'en';
    const t = req.t as T;
    const user = res.locals.currentUser!;
    const fmt = formatter(user.settings, lang);
    const scope = tenantScope(knex, res, AREA);
    const query = req.query as Record<string, unknown>;
    const erzeugen = query.erzeugen === '1';
    // Opened without parameters: the last ones generated, else the first report.
    let werte = formWerte(query);
    if (!erzeugen && Object.keys(werte).length === 0) {
      const vorgaben = await repo.vorgabenLesen(scope, user.id);
      if (vorgaben && findReport(vorgaben.bericht)) werte = { bericht: vorgaben.bericht, ...formWerte(vorgaben.parameter) };
    }
    const def: ReportDefinition = findReport(werte.bericht ?? '') ?? REPORTS[0];
    let fehler: FieldError[] = [];
    let meldung: string | null = null;
    let ergebnis: ReportErgebnis<Record<string, unknown>> | null = null;
    let params: ReportParameter | null = null;
    let page = 1;

    if (erzeugen && werte.bericht && !findReport(werte.bericht)) {
      fehler = [{ field: 'bericht', message: 'reports:fehler.unbekannterBericht' }];
      meldung = t('reports:fehler.unbekannterBericht');
      res.status(400);
    } else if (erzeugen) {
      try {
        const anfrage = await pruefen(scope, def, query, t);
        params = anfrage.params;
        page = anfrage.page;
        ergebnis = await ausfuehren(scope, def, params, { lang, t, heute: heute(), signal: clientSignal(res) });
        if (anfrage.format && anfrage.format !== 'json') {
          await sendeDatei(req, res, scope, def, params, ergebnis, anfrage.format, lang);
          return;
        }
        await repo.vorgabenSpeichern(scope, user.id, { bericht: def.id, parameter: Object.fromEntries(REPORT_PARAMETER.map((p) => [p, werte[p] ?? ''])) });
      } catch (err) {
        if (err instanceof ReportAbgebrochen) return;
        const known = httpErrorOf(err);
        if (!known) throw err;
        ergebnis = null;
        params = null;
        fehler = known.errors;
        // Missing required fields: the spec's message listing them; other refusals: a heading over the list.
        meldung = known.status === 400 && !fehler.some((f) => f.message === 'reports:fehler.pflichtfeld') ? t('reports:fehler.ungueltig') : t(known.messageKey, known.params);
        res.status(known.status);
      }
    }

    const auswahl = await repo.auswahl(scope);
    const optionen = (rows: { nr: string; name: string }[]) => [{ value: '', label: t('reports:alle') }, ...rows.map((r) => ({ value: r.nr, label: `${r.name} (${r.nr})` }))];
    const fehlerText = (field: string) => {
      const e = fehler.find((f) => f.field === field);
      return e ? t(e.message, e.params ?? {}) : null;
    };

    let ansicht = null;
    if (ergebnis && params) {
      const pageSize = user.settings.itemsPerPage;
      const total = ergebnis.rows.length;
      const pages = Math.max(1, Math.ceil(total / pageSize));
      page = Math.min(page, pages);
      const columns = def.columns.filter((c) => !c.csvOnly);
      const basis = { ...werte, erzeugen: '1' };
      ansicht = {
        caption: t(`reports:katalog.${def.id}.name`),
        columns: columns.map((c) => ({ key: c.key, label: t(c.label), numeric: c.kind === 'number' })),
        rows: ergebnis.rows.slice((page - 1) * pageSize, page * pageSize),
        cell: (row: Record<string, unknown>, col: { key: string }) => cellText(columns.find((c) => c.key === col.key)!, row, fmt, t),
        page, pageSize, total,
        href: (p: number) => generatorHref(lang, { ...basis, page: p }),
        summen: (def.summen ?? []).map((s) => ({ label: t(s.label), value: ergebnis!.sums[s.key] == null ? '—' : fmt.number(ergebnis!.sums[s.key]!, s.digits ?? 0) })),
        erlaeuterungen: erlaeuterungen(ergebnis, t, fmt),
        zeitraum: zeitraumInWorten(params, fmt),
        parameter: await parameterInWorten(scope, def, params, t, fmt),
        downloads: def.formate.filter((f) => f !== 'json').map((f) => ({ label: t(`reports:formate.${f}`), href: generatorHref(lang, { ...basis, format: f }) })),
      };
    }

    await res.page('reports/auswertungen', {
      title: t('nav.reports-auswertungen'),
      aktion: `/${lang}/${GENERATOR}`,
      listeHref: `/${lang}/${LISTE}`,
      werte,
      bericht: { ...katalogEintrag(def, t), pflicht: def.pflicht, parameter: def.parameter },
      berichte: REPORTS.map((d) => ({ value: d.id, label: t(`reports:katalog.${d.id}.name`) })),
      // Which parameters each report takes: the page script (islands/lib/report-parameter.ts) hides the fields the
      // chosen report does not take; without it every field shows and the report ignores what it does not take.
      // Ids and parameter names only ([a-z-] and JSON's punctuation): safe in a single-quoted attribute.
      parameterJeBericht: JSON.stringify(Object.fromEntries(REPORTS.map((d) => [d.id, d.parameter]))),
      felder: {
        startDate: { label: t(PARAMETER_LABEL.startDate) },
        endDate: { label: t(PARAMETER_LABEL.endDate) },
        partner: { label: t(PARAMETER_LABEL.partner), options: optionen(auswahl.partner) },
        standort: { label: t(PARAMETER_LABEL.standort), options: optionen(auswahl.standorte) },
        produkt: { label: t(PARAMETER_LABEL.produkt), options: optionen(auswahl.produkte) },
      },
      fehler: fehler.map((f) => ({ field: f.field, text: t(f.message, f.params ?? {}), label: f.field === 'bericht' ? t('reports:generator.bericht') : t(PARAMETER_LABEL[f.field as keyof typeof PARAMETER_LABEL] ?? f.field) })),
      fehlerText,
      meldung,
      ansicht,
    });
  });

  return router;
}
