// A Bilanz as the API, the page and the editor island show it: the contract's fields (api-contract.md,
// `bilanzen`) with names for display, every allocation line with its reason in words in the request's
// language, what stays not covered, and the certificates the lines draw on. One function, so the three never
// disagree.
import type { TenantScope } from '../../db/scope.js';
import { begruendungText } from '../../domain/allocation.js';
import { ausMilli, milli } from '../../domain/lieferkette.js';
import type { Formatter } from '../../http/format.js';
import * as repo from './repo.js';
import { berechne, type Verteilung } from './service.js';

export interface BilanzPosition {
  id: number;
  partnerNr: string;
  partnerName: string;
  prioritaet: number;
  biogehalt: string | null;
  bioMenge: string | null;
  status: repo.BilanzStatus;
  /** What its lines hold. */
  zugeordnet: string;
}

export interface BilanzZuordnung {
  nr: number;
  positionId: number;
  ablieferungNr: string;
  lieferdatum: string | null;
  partnerNr: string;
  nachweisNr: string;
  menge: string;
  thg: string | null;
  thgMinderungT: string | null;
  vorlaeufig: boolean;
  begruendung: string;
  /** The POC the line became when its position closed, else null. */
  nachweisbescheinigungNr: string | null;
}

export interface BilanzDetail {
  id: number;
  standortNr: string;
  standortName: string;
  produktNr: string;
  produktName: string;
  zeitraumVon: string;
  zeitraumBis: string;
  status: repo.BilanzStatus;
  einheit: string;
  version: number;
  verteilt: boolean;
  verteiltAm: string | null;
  geschlossenAm: string | null;
  kommentar: string | null;
  mengeGesamt: string | null;
  bioMenge: string | null;
  /** Assigned as a share of the total quantity, in percent (two decimals). */
  biogehalt: string | null;
  restBioMenge: string | null;
  zugeordnet: string | null;
  thgMinderungT: string | null;
  positionen: BilanzPosition[];
  zuordnungen: BilanzZuordnung[];
  nichtGedeckt: { ablieferungNr: string; positionId: number; offen: string }[];
  nachweise: { nachweisNr: string; menge: string; vorlaeufig: boolean }[];
}

/** A quantity with its unit as the reasons say it ("12.000 L"). */
const mengeText = (fmt: Formatter, einheit: string) => (v: string) => `${fmt.number(v, stellen(v))} ${einheit}`;
/** The decimals a quantity needs (at most three): 12.5 → 1, 12 → 0. */
const stellen = (v: string) => (ausMilli(milli(v)).split('.')[1] ?? '').length;

/** What an allocation would give (`POST …/verteilung?vorschau=1`): the figures and the lines with their reasons. */
export function verteilungDetail(v: Verteilung, t: (key: string, params?: Record<string, unknown>) => string, fmt: Formatter) {
  const menge = mengeText(fmt, v.einheit);
  return {
    einheit: v.einheit,
    mengeGesamt: v.mengeGesamt,
    bioMenge: v.bioMenge,
    zugeordnet: v.zugeordnet,
    restBioMenge: v.restBioMenge,
    biogehalt: prozent(v.zugeordnet, v.mengeGesamt),
    thgMinderungT: v.thgMinderungT,
    zuordnungen: v.ergebnis.zeilen.map((z) => ({
      positionId: Number(z.positionId), ablieferungNr: z.ablieferungNr, lieferdatum: v.lieferdaten.get(z.ablieferungNr) ?? null, nachweisNr: z.nachweisNr, menge: z.menge, thg: z.thg, thgMinderungT: z.thgMinderungT,
      vorlaeufig: v.vorlaeufig.has(z.nachweisNr), begruendung: begruendungText(z.begruendung, (key, params) => t(key, params), menge),
    })),
    nichtGedeckt: v.ergebnis.nichtGedeckt.map((n) => ({ ...n, positionId: Number(n.positionId) })),
  };
}

/** Percent of `teil` in `ganz`, two decimals, half up; null without a whole. */
export function prozent(teil: string | null, ganz: string | null): string | null {
  if (teil == null || ganz == null || milli(ganz) <= 0n) return null;
  const h = (milli(teil) * 20_000n + milli(ganz)) / (2n * milli(ganz));
  return `${h / 100n}.${(h % 100n).toString().padStart(2, '0')}`;
}

/**
 * The Bilanz `id` as the scope may see it, or null. Not yet allocated, an open Bilanz shows what it starts from
 * (total quantity and certified bio quantity, computed now); assigned and rest stay empty until it is allocated.
 */
export async function bilanzDetail(scope: TenantScope, id: number, t: (key: string, params?: Record<string, unknown>) => string, fmt: Formatter, heute: string): Promise<BilanzDetail | null> {
  const b = await repo.bilanz(scope, id);
  if (!b) return null;
  const [positionen, zeilen] = await Promise.all([repo.positionen(scope, id), repo.zeilen(scope, id)]);
  const [partner, standort, produkt, daten] = await Promise.all([
    repo.namen(scope, 'tauschpartner', positionen.map((p) => p.partnerNr)),
    repo.namen(scope, 'standorte', [b.standortNr]),
    repo.namen(scope, 'produkte', [b.produktNr]),
    repo.lieferdaten(scope, zeilen.map((z) => z.ablieferungNr)),
  ]);
  let { mengeGesamt, bioMenge } = b;
  const menge = mengeText(fmt, b.einheit);
  if (b.status === 'offen' && !b.verteiltAm) {
    const v = await berechne(scope, b, heute);
    mengeGesamt = v.mengeGesamt;
    bioMenge = v.bioMenge;
  }
  const summe = new Map<number, bigint>();
  const nachweise = new Map<string, { menge: bigint; vorlaeufig: boolean }>();
  for (const z of zeilen) {
    summe.set(z.positionId, (summe.get(z.positionId) ?? 0n) + milli(z.menge));
    const n = nachweise.get(z.nachweisNr) ?? { menge: 0n, vorlaeufig: z.vorlaeufig };
    nachweise.set(z.nachweisNr, { menge: n.menge + milli(z.menge), vorlaeufig: n.vorlaeufig || z.vorlaeufig });
  }
  return {
    id: b.id,
    standortNr: b.standortNr,
    standortName: standort.get(b.standortNr) ?? b.standortNr,
    produktNr: b.produktNr,
    produktName: produkt.get(b.produktNr) ?? b.produktNr,
    zeitraumVon: b.zeitraumVon,
    zeitraumBis: b.zeitraumBis,
    status: b.status,
    einheit: b.einheit,
    version: b.version,
    verteilt: b.verteiltAm != null,
    verteiltAm: b.verteiltAm,
    geschlossenAm: b.geschlossenAm,
    kommentar: b.kommentar,
    mengeGesamt,
    bioMenge,
    biogehalt: prozent(b.zugeordnet, mengeGesamt),
    restBioMenge: b.restBioMenge,
    zugeordnet: b.zugeordnet,
    thgMinderungT: b.thgMinderungT,
    positionen: positionen.map((p) => ({ ...p, partnerName: partner.get(p.partnerNr) ?? p.partnerNr, zugeordnet: ausMilli(summe.get(p.id) ?? 0n) })),
    zuordnungen: zeilen.map((z) => ({
      nr: z.nr,
      positionId: z.positionId,
      ablieferungNr: z.ablieferungNr,
      lieferdatum: daten.get(z.ablieferungNr)?.datum ?? null,
      partnerNr: daten.get(z.ablieferungNr)?.partnerNr ?? z.begruendung.partnerNr,
      nachweisNr: z.nachweisNr,
      menge: z.menge,
      thg: z.thg,
      thgMinderungT: z.thgMinderungT,
      vorlaeufig: z.vorlaeufig,
      begruendung: begruendungText(z.begruendung, (key, params) => t(key, params), menge),
      nachweisbescheinigungNr: z.nachweisbescheinigungNr,
    })),
    nichtGedeckt: b.nichtGedeckt,
    nachweise: [...nachweise].map(([nachweisNr, n]) => ({ nachweisNr, menge: ausMilli(n.menge), vorlaeufig: n.vorlaeufig })),
  };
}
