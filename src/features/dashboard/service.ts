// The dashboard: which tiles a user sees (the permission service decides, per area), the period of each figure,
// and the link of each tile to the list it summarises, with the same filters, so the figure is that list's total.
import type { Knex } from 'knex';
import { TenantRequest, TenantScope } from '../../db/scope.js';
import { can, standortScope, type Area, type Principal } from '../../permissions/index.js';
import { alsPostengruppen } from '../thg-anzeige/repo.js';
import { einsparungenAus, tonnen } from '../thg-anzeige/service.js';
import * as repo from './repo.js';

export type { Zeitraum } from './repo.js';

const tag = (d: Date) => d.toISOString().slice(0, 10);

/** This month up to today, last month whole, this year, and today + 30 days, from today (ISO). */
export function zeitraum(heute: string): repo.Zeitraum {
  const [y, m, d] = heute.split('-').map(Number);
  return {
    heute,
    monatAb: tag(new Date(Date.UTC(y, m - 1, 1))),
    vormonatAb: tag(new Date(Date.UTC(y, m - 2, 1))),
    vormonatBis: tag(new Date(Date.UTC(y, m - 1, 0))),
    jahrAb: `${heute.slice(0, 4)}-01-01`,
    in30Tagen: tag(new Date(Date.UTC(y, m - 1, d + 30))),
  };
}

/** A list's address below /{lang} with its filters. */
export function listeHref(lang: string, path: string, filter: Record<string, string> = {}): string {
  const q = new URLSearchParams(filter).toString();
  return `/${lang}/${path}${q ? `?${q}` : ''}`;
}

export interface Kennzahl {
  /** i18n key of its label. */
  label: string;
  wert: number;
  href: string;
  /** The list API address with the same filters (the tests compare its total). */
  api: string;
}

export interface Lieferkachel {
  monat: Kennzahl;
  vormonat: Kennzahl;
  offen: Kennzahl;
  inBearbeitung: Kennzahl;
}

export interface Bestandbalken {
  standortNr: string;
  name: string;
  volumen: string;
  href: string;
}

export interface Import {
  at: string;
  entity: string;
  benutzer: string | null;
  datei: string | null;
  neu: number;
  geaendert: number;
  unveraendert: number;
  href: string;
}

export interface Dashboard {
  zeitraum: repo.Zeitraum;
  einlieferungen?: Lieferkachel;
  ablieferungen?: Lieferkachel;
  bestaende?: Bestandbalken[];
  nachweise?: Kennzahl & { naechster: { datum: string; anzahl: number; href: string; api: string } | null };
  bilanzen?: Kennzahl;
  thg?: { jahr: string; href: string };
  importe?: Import[];
  nachrichten: { ungelesen: number; neueste: { id: number; titel: string }[]; href: string };
}

/** Where an import of each kind (audit entity) is made, and the right that lets a user see it. */
const IMPORTE: Record<string, { path: string; darf: (p: Principal) => boolean }> = {
  einlieferungen: { path: 'bewegungsdaten/import', darf: (p) => can(p, 'view', 'import-einlieferungen') },
  ablieferungen: { path: 'bewegungsdaten/import', darf: (p) => can(p, 'view', 'import-ablieferungen') },
  nachweise: { path: 'bewegungsdaten/nachweise/import', darf: (p) => can(p, 'edit', 'nachweise') },
  produkte: { path: 'stammdaten/import', darf: (p) => can(p, 'view', 'stammdaten-import') },
  standorte: { path: 'stammdaten/import', darf: (p) => can(p, 'view', 'stammdaten-import') },
  tauschpartner: { path: 'stammdaten/import', darf: (p) => can(p, 'view', 'stammdaten-import') },
};

export interface Wer {
  principal: Principal;
  mandant: string;
  benutzerId: number;
}

function lieferkachel(lang: string, resource: 'einlieferungen' | 'ablieferungen', z: repo.Zeitraum, zahlen: repo.LieferungZahlen): Lieferkachel {
  const path = `bewegungsdaten/${resource}`;
  const k = (label: string, wert: number, filter: Record<string, string>): Kennzahl => ({
    label, wert, href: listeHref(lang, path, { ...filter, storniert: 'false' }), api: `/api/${resource}?${new URLSearchParams({ ...filter, storniert: 'false' })}`,
  });
  return {
    monat: k('dashboard:lieferungen.monat', zahlen.monat, { von: z.monatAb, bis: z.heute }),
    vormonat: k('dashboard:lieferungen.vormonat', zahlen.vormonat, { von: z.vormonatAb, bis: z.vormonatBis }),
    offen: k('dashboard:lieferungen.offen', zahlen.offen, { status: 'open' }),
    inBearbeitung: k('dashboard:lieferungen.inBearbeitung', zahlen.inBearbeitung, { status: 'inProgress' }),
  };
}

/**
 * The figures the user may see. `knex`: the base connection; each area's scope limits rows to the locations its
 * right covers; all scopes share one read transaction, and the figures are one statement.
 */
export async function dashboard(knex: Knex, wer: Wer, heute: string, lang: string): Promise<Dashboard> {
  const z = zeitraum(heute);
  const p = wer.principal;
  const shared = new TenantRequest(knex, wer.mandant);
  const scopeFor = (area?: Area) => new TenantScope(knex, wer.mandant, area ? standortScope(p, 'view', area) : 'all', shared);
  const sichtbar = (area: Area) => (can(p, 'view', area) ? scopeFor(area) : undefined);
  const importEntities = Object.entries(IMPORTE).filter(([, i]) => i.darf(p)).map(([e]) => e);
  const roh = await repo.rohzahlen({
    einlieferungen: sichtbar('einlieferungen'),
    ablieferungen: sichtbar('ablieferungen'),
    bestaende: sichtbar('bestaende'),
    nachweise: sichtbar('nachweise'),
    bilanzen: sichtbar('bilanzen'),
    // The tenant's saving this year: the figure of its public THG display (tenant-wide, as published there).
    thg: can(p, 'view', 'bilanzen') ? scopeFor() : undefined,
    importe: importEntities.length ? { scope: scopeFor(), entities: importEntities } : undefined,
    nachrichten: { scope: scopeFor(), benutzerId: wer.benutzerId },
  }, z);

  const d: Dashboard = {
    zeitraum: z,
    nachrichten: { ...roh.nachrichten, href: `/${lang}/benutzer/nachrichten` },
  };
  if (roh.einlieferungen) d.einlieferungen = lieferkachel(lang, 'einlieferungen', z, roh.einlieferungen);
  if (roh.ablieferungen) d.ablieferungen = lieferkachel(lang, 'ablieferungen', z, roh.ablieferungen);
  if (roh.bestaende) {
    d.bestaende = roh.bestaende.map((b) => ({
      standortNr: b.standortNr, name: b.name ?? b.standortNr, volumen: b.volumen,
      href: listeHref(lang, 'bewegungsdaten/bestaende', { standortNr: b.standortNr, bis: z.heute }),
    }));
  }
  if (roh.nachweise !== undefined) {
    const filter = { laeuftAbVon: z.heute, laeuftAbBis: z.in30Tagen };
    const n = roh.naechsterAblauf;
    const naechsterFilter = n ? { laeuftAbVon: n.datum, laeuftAbBis: n.datum } : null;
    d.nachweise = {
      label: 'dashboard:nachweise.label', wert: roh.nachweise, href: listeHref(lang, 'bewegungsdaten/nachweise', filter), api: `/api/nachweise?${new URLSearchParams(filter)}`,
      naechster: n && naechsterFilter
        ? { ...n, href: listeHref(lang, 'bewegungsdaten/nachweise', naechsterFilter), api: `/api/nachweise?${new URLSearchParams(naechsterFilter)}` }
        : null,
    };
  }
  if (roh.bilanzen !== undefined) {
    const filter = { status: 'offen' };
    d.bilanzen = { label: 'dashboard:bilanzen.label', wert: roh.bilanzen, href: listeHref(lang, 'bewegungsdaten/bilanzen', filter), api: `/api/bilanzen?${new URLSearchParams(filter)}` };
  }
  if (roh.thg) {
    const summen = einsparungenAus(roh.thg.werte, alsPostengruppen(roh.thg.posten), heute);
    d.thg = { jahr: tonnen(summen.jahr), href: listeHref(lang, 'bewegungsdaten/bilanzen', { von: z.jahrAb, bis: z.heute }) };
  }
  if (roh.importe) {
    d.importe = roh.importe.map((i) => {
      const after = (i.after ?? {}) as Record<string, unknown>;
      return {
        at: i.at, entity: i.entity, benutzer: i.benutzer, datei: (after.datei as string | undefined) ?? null,
        neu: Number(after.create ?? 0), geaendert: Number(after.update ?? 0), unveraendert: Number(after.unchanged ?? 0),
        href: `/${lang}/${IMPORTE[i.entity]?.path ?? 'bewegungsdaten/import'}`,
      };
    });
  }
  return d;
}

export interface Balkendiagramm {
  breite: number;
  hoehe: number;
  balken: { y: number; breite: number; label: string; wert: string; wertX: number; href: string }[];
  achseX: number;
}

/**
 * The layout of the stock chart (SVG user units): one horizontal bar per location, the longest filling the
 * width left of its value. `format` writes a value as the page shows it.
 */
export function balkendiagramm(balken: Bestandbalken[], format: (v: string) => string): Balkendiagramm {
  const links = 64;
  const maxBalken = 380;
  const zeile = 32;
  const max = Math.max(0, ...balken.map((b) => Number(b.volumen)));
  return {
    breite: 560,
    hoehe: balken.length * zeile + 8,
    achseX: links,
    balken: balken.map((b, i) => {
      const w = max > 0 ? Math.max(Number(b.volumen) > 0 ? 2 : 0, Math.round((Math.max(0, Number(b.volumen)) / max) * maxBalken)) : 0;
      return { y: 4 + i * zeile, breite: w, label: b.standortNr, wert: format(b.volumen), wertX: links + w + 6, href: b.href };
    }),
  };
}
