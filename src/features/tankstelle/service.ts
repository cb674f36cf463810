// The Tankstelle (filling-station view) for the pages and the API alike (docs/decisions.md "Tank traffic light"
// and "Tankstelle views"; the JSON is the contract between this server part and the island):
// - the tank view: per tank (location and product) its latest Bestand, bio content, cover, use, reach and
//   traffic light (src/domain/tankampel.ts), and the location's 10 latest deliveries;
// - the pump view: the outbound deliveries of the last 30 days by product, their sums and certificate statuses;
// - the chain view: where a tank's bio content comes from (src/domain/tankinhalt.ts), with the certificates;
// - the tenant's two thresholds, read and changed (in one transaction with its audit entry).
// The rows come from repo.ts; this module only assembles and computes, exactly (thousandths of a litre).
import { audit } from '../../db/audit.js';
import type { TenantScope } from '../../db/scope.js';
import type { Produktgruppe } from '../../domain/fuels.js';
import { ausMilli, bioMenge, milli, zertifikatGruppe, type ZertifikatStatus } from '../../domain/lieferkette.js';
import { AMPEL_DARSTELLUNG, tankAmpel, type TankAmpel, type TankEinlieferung } from '../../domain/tankampel.js';
import { tankinhalt } from '../../domain/tankinhalt.js';
import { umrechnen, type Einheit } from '../../domain/units.js';
import { notFound } from '../../errors.js';
import type { Actor } from '../../records/service.js';
import type { Lieferstatus } from '../lieferungen/names.js';
import { verfolgungHref } from '../nachweisverfolgung/list.js';
import { OFFENE_STATUS } from '../nachweisverfolgung/repo.js';
import * as repo from './repo.js';
import type { LetzteLieferungZeile } from './repo.js';
import type { EinstellungenInput } from './schema.js';

/** How many deliveries the list under every view shows. */
export const LETZTE_ANZAHL = 10;
/** The pump view's period: the last 30 days, today included. */
export const ZAPFSAEULEN_TAGE = 30;
/** At most this many outbound deliveries per product in the pump view's table. */
export const ZAPFSAEULEN_ZEILEN = 20;
/** The chain view reads a tank's inbound deliveries in pages of this many, newest first, until its content is explained. */
const KETTE_SEITE = 100;

export const ENTITY = 'mandanten';
export const AUDIT_KIND = 'tankstelle.einstellungen.aendern';

/** What the answers are written for: the language of links and texts, and its translation. */
export interface Darstellung {
  lang: string;
  t: (key: string, options?: Record<string, unknown>) => string;
}

/** A stored decimal as the API writes decimals: "31000.000" → "31000", "62.50" → "62.5". */
const dezimal = (v: string) => ausMilli(milli(v));
const dezimalOderNull = (v: string | null | undefined) => (v == null ? null : dezimal(v));

/** ISO day `tage` days before (negative: after) `iso`. */
export function tageVor(iso: string, tage: number): string {
  return new Date(Date.parse(`${iso}T00:00:00Z`) - tage * 86_400_000).toISOString().slice(0, 10);
}

const href = {
  einlieferung: (lang: string, nr: string) => `/${lang}/bewegungsdaten/einlieferungen/${encodeURIComponent(nr)}`,
  ablieferung: (lang: string, nr: string) => `/${lang}/bewegungsdaten/ablieferungen/${encodeURIComponent(nr)}`,
  nachweis: (lang: string, nr: string) => `/${lang}/bewegungsdaten/nachweise/${encodeURIComponent(nr)}`,
};

// ---------------------------------------------------------------------------------------------------------
// The location

/** The user's locations and the one asked for (default: the first by number); 404 when it is not theirs. */
export async function standortWahl(scope: TenantScope, standortNr?: string | null): Promise<{ standorte: repo.StandortZeile[]; standort: repo.StandortZeile }> {
  // Read once per request: the page's view and its list of locations both start here.
  const standorte = await scope.memo('tankstelle:standorte', () => repo.standorte(scope));
  const standort = standortNr ? standorte.find((s) => s.nr === standortNr) : standorte[0];
  if (!standort) throw notFound('tankstelle:errors.standortUnbekannt');
  return { standorte, standort };
}

// ---------------------------------------------------------------------------------------------------------
// The tank view

export interface Tank {
  standortNr: string;
  produktNr: string;
  produktName: string;
  bestandDatum: string | null;
  volumen: string | null;
  fuellstand: string | null;
  bioAnteil: string;
  bioMenge: string | null;
  gedeckt: string;
  gedecktProzent: string | null;
  verbrauchProTag: string;
  reichweiteTage: number | null;
  aktiveEinlieferungNr: string | null;
  nachfolger: boolean;
  ampel: TankAmpel;
  ampelText: string;
  ampelFarbe: (typeof AMPEL_DARSTELLUNG)[TankAmpel]['farbe'];
  ampelIcon: string;
}

/** A row of the 10 latest deliveries, with the link to its record. */
export interface LetzteLieferung extends LetzteLieferungZeile {
  href: string;
}

export interface TankUebersicht {
  standortNr: string;
  stand: string;
  einstellungen: repo.Einstellungen;
  standorte: repo.StandortZeile[];
  tanks: Tank[];
  letzteLieferungen: LetzteLieferung[];
}

/** B: the latest Bestand's volume × the product's bio share, to the thousandth (as a delivery's bio quantity). */
function bestandBio(tank: repo.TankZeile): string | null {
  if (!tank.bestand) return null;
  return bioMenge({ menge: tank.bestand.volumen, einheit: 'L', biogehalt: tank.biogehalt, gruppe: tank.produktgruppe });
}

/** min(100, C / B × 100) to one decimal (half up); null without a bio content. */
export function gedecktProzent(gedeckt: string, bio: string | null): string | null {
  if (bio == null) return null;
  const b = milli(bio);
  if (b <= 0n) return null;
  const c = milli(gedeckt);
  // Tenths of a percent: C × 1000 / B, rounded half up.
  const zehntel = (c * 1000n * 2n + b) / (2n * b);
  return ausMilli((zehntel > 1000n ? 1000n : zehntel) * 100n);
}

const inLiter = (menge: string, einheit: Einheit, gruppe: Produktgruppe) => umrechnen(menge, einheit, 'L', gruppe);

/**
 * The inbound deliveries of each product as the traffic light needs them: those with certificate rest (each
 * certificate counted once, at the oldest delivery of the tank linking it, its rest in litres), those not yet
 * completed, and, where there is neither, the newest completed one (so "had deliveries" is known). Deliveries
 * left out are completed ones without rest: they change no state.
 */
function einlieferungenJeProdukt(links: repo.VerknuepfterNachweis[], offene: repo.OffeneEinlieferung[], letzte: repo.OffeneEinlieferung[]): Map<string, TankEinlieferung[]> {
  const jeProdukt = new Map<string, Map<string, TankEinlieferung & { restM: bigint; vorlaeufigM: bigint }>>();
  const abgeschlossen = (status: Lieferstatus) => !OFFENE_STATUS.includes(status);
  const lieferung = (produktNr: string, l: { nr: string; datum: string; status: Lieferstatus }) => {
    let map = jeProdukt.get(produktNr);
    if (!map) jeProdukt.set(produktNr, (map = new Map()));
    let e = map.get(l.nr);
    if (!e) map.set(l.nr, (e = { nr: l.nr, datum: l.datum, abgeschlossen: abgeschlossen(l.status), rest: '0', restVorlaeufig: '0', restM: 0n, vorlaeufigM: 0n }));
    return e;
  };
  // Rows come oldest delivery first: the first delivery of a tank that names a certificate keeps it.
  const gezaehlt = new Set<string>();
  for (const r of links) {
    const e = lieferung(r.produktNr, { nr: r.einlieferungNr, datum: r.datum, status: r.status });
    const key = `${r.produktNr}|${r.nachweisNr}`;
    if (gezaehlt.has(key)) continue;
    gezaehlt.add(key);
    const rest = milli(inLiter(r.rest, r.einheit, r.produktgruppe));
    e.restM += rest;
    if (r.vorlaeufig) e.vorlaeufigM += rest;
  }
  for (const o of offene) lieferung(o.produktNr, o);
  for (const l of letzte) if (!jeProdukt.has(l.produktNr)) lieferung(l.produktNr, l);
  return new Map([...jeProdukt].map(([p, m]) => [p, [...m.values()].map(({ restM, vorlaeufigM, ...e }) => ({ ...e, rest: ausMilli(restM), restVorlaeufig: ausMilli(vorlaeufigM) }))]));
}

function letzteLieferungAus(l: repo.LetzteLieferungZeile, lang: string): LetzteLieferung {
  return { ...l, menge: dezimal(l.menge), href: l.art === 'ein' ? href.einlieferung(lang, l.nr) : href.ablieferung(lang, l.nr) };
}

/** The location's 10 latest deliveries (the list under every view). */
export async function letzteLieferungen(scope: TenantScope, standortNr: string, d: Darstellung): Promise<LetzteLieferung[]> {
  return (await repo.letzteLieferungen(scope, standortNr, LETZTE_ANZAHL)).map((l) => letzteLieferungAus(l, d.lang));
}

/** GET /api/tankstelle: the location's tanks with their traffic lights, and its 10 latest deliveries. */
export function tankUebersicht(scope: TenantScope, standortNr: string | null | undefined, heute: string, d: Darstellung): Promise<TankUebersicht> {
  // Two round trips to the database: the locations with the settings, then the eight reads of the location
  // (each a moment on the database; one at a time, their round trips were most of the view's time).
  return scope.together(async (s) => {
    const [{ standorte, standort }, einstellungen] = await Promise.all([standortWahl(s, standortNr), repo.einstellungen(s)]);
    const S = standort.nr;
    const verbrauchVon = tageVor(heute, einstellungen.verbrauchTage - 1);
    const [tanks, links, offene, letzte, unverknuepft, abgaben, letzteLieferungen_] = await Promise.all([
      repo.tanks(s, S, heute),
      repo.verknuepfteNachweise(s, S),
      repo.offeneEinlieferungen(s, S),
      repo.letzteAbgeschlossene(s, S),
      repo.unverknuepfteNachweise(s, S),
      repo.abgaben(s, S, verbrauchVon, heute),
      repo.letzteLieferungen(s, S, LETZTE_ANZAHL),
    ]);
    return uebersichtAus(S, heute, d, einstellungen, standorte, { tanks, links, offene, letzte, unverknuepft, abgaben, letzteLieferungen_ });
  });
}

interface UebersichtDaten {
  tanks: repo.TankZeile[];
  links: repo.VerknuepfterNachweis[];
  offene: repo.OffeneEinlieferung[];
  letzte: repo.OffeneEinlieferung[];
  unverknuepft: Map<Produktgruppe, number>;
  abgaben: repo.AbgabeZeile[];
  letzteLieferungen_: repo.LetzteLieferungZeile[];
}

/** The tank view from what the database gave: the traffic light of every tank. */
function uebersichtAus(
  S: string,
  heute: string,
  d: Darstellung,
  einstellungen: repo.Einstellungen,
  standorte: repo.StandortZeile[],
  { tanks, links, offene, letzte, unverknuepft, abgaben, letzteLieferungen_ }: UebersichtDaten,
): TankUebersicht {
  const einlieferungen = einlieferungenJeProdukt(links, offene, letzte);
  const abgabeBio = new Map<string, bigint>();
  for (const a of abgaben) {
    const bio = milli(bioMenge({ menge: a.menge, einheit: a.einheit, biogehalt: a.biogehalt, gruppe: a.produktgruppe }, 'L'));
    abgabeBio.set(a.produktNr, (abgabeBio.get(a.produktNr) ?? 0n) + bio);
  }
  return {
    standortNr: S,
    stand: heute,
    einstellungen,
    standorte,
    tanks: tanks.map((tank) => {
      const bio = bestandBio(tank);
      const r = tankAmpel({
        einlieferungen: einlieferungen.get(tank.produktNr) ?? [],
        unverknuepfteZertifikate: unverknuepft.get(zertifikatGruppe(tank.produktgruppe)) ?? 0,
        abgabeBio: ausMilli(abgabeBio.get(tank.produktNr) ?? 0n),
        verbrauchTage: einstellungen.verbrauchTage,
        reichweiteTage: einstellungen.reichweiteTage,
      });
      const darstellung = AMPEL_DARSTELLUNG[r.ampel];
      return {
        standortNr: S,
        produktNr: tank.produktNr,
        produktName: tank.produktName,
        bestandDatum: tank.bestand?.datum ?? null,
        volumen: dezimalOderNull(tank.bestand?.volumen),
        fuellstand: dezimalOderNull(tank.bestand?.fuellstand),
        bioAnteil: dezimal(tank.biogehalt),
        bioMenge: bio,
        gedeckt: r.deckung,
        gedecktProzent: gedecktProzent(r.deckung, bio),
        verbrauchProTag: r.verbrauchProTag,
        reichweiteTage: r.reichweiteTage,
        aktiveEinlieferungNr: r.aktiv?.nr ?? null,
        nachfolger: r.nachfolger,
        ampel: r.ampel,
        ampelText: d.t(`tankstelle:ampel.${r.ampel}`),
        ampelFarbe: darstellung.farbe,
        ampelIcon: darstellung.icon,
      };
    }),
    letzteLieferungen: letzteLieferungen_.map((l) => letzteLieferungAus(l, d.lang)),
  };
}

// ---------------------------------------------------------------------------------------------------------
// The pump view

export interface PumpenAblieferung {
  nr: string;
  datum: string;
  partnerName: string | null;
  menge: string;
  einheit: Einheit;
  bioMenge: string;
  zertifikatStatus: ZertifikatStatus;
  href: string;
}

export interface PumpenProdukt {
  produktNr: string;
  produktName: string;
  menge: string;
  bioMenge: string;
  anzahl: Record<ZertifikatStatus, number>;
  ablieferungen: PumpenAblieferung[];
}

export interface Zapfsaeulen {
  standortNr: string;
  stand: string;
  von: string;
  bis: string;
  produkte: PumpenProdukt[];
}

/**
 * GET /api/tankstelle/zapfsaeulen: pumps are not master data (certificates-and-balances.md section 7), so the
 * pump view groups the location's outbound deliveries of the last 30 days by product.
 */
export function zapfsaeulen(scope: TenantScope, standortNr: string | null | undefined, heute: string, d: Darstellung): Promise<Zapfsaeulen> {
  // Each read one round trip with its BEGIN and settings (together(): prepared, as a read of its own is not).
  return scope.together(async (s) => {
    const { standort } = await standortWahl(s, standortNr);
    const von = tageVor(heute, ZAPFSAEULEN_TAGE - 1);
    return zapfsaeulenAus(standort.nr, von, heute, d, await repo.abgabenMitStatus(s, standort.nr, von, heute));
  });
}

/** The pump view from the location's outbound deliveries of the period. */
function zapfsaeulenAus(standortNr: string, von: string, heute: string, d: Darstellung, rows: repo.PumpenZeile[]): Zapfsaeulen {
  const produkte = new Map<string, PumpenProdukt & { mengeM: bigint; bioM: bigint }>();
  for (const r of rows) {
    let p = produkte.get(r.produktNr);
    if (!p) {
      produkte.set(r.produktNr, (p = {
        produktNr: r.produktNr, produktName: r.produktName ?? r.produktNr, menge: '0', bioMenge: '0', mengeM: 0n, bioM: 0n,
        anzahl: { keine: 0, ohne_endgueltige: 0, mit_endgueltigen: 0 }, ablieferungen: [],
      }));
    }
    const bio = bioMenge({ menge: r.menge, einheit: r.einheit, biogehalt: r.biogehalt, gruppe: r.produktgruppe }, 'L');
    p.mengeM += milli(inLiter(r.menge, r.einheit, r.produktgruppe));
    p.bioM += milli(bio);
    p.anzahl[r.zertifikatStatus] += 1;
    if (p.ablieferungen.length < ZAPFSAEULEN_ZEILEN) {
      p.ablieferungen.push({
        nr: r.nr, datum: r.datum, partnerName: r.partnerName, menge: dezimal(r.menge), einheit: r.einheit, bioMenge: bio,
        zertifikatStatus: r.zertifikatStatus, href: href.ablieferung(d.lang, r.nr),
      });
    }
  }
  return {
    standortNr,
    stand: heute,
    von,
    bis: heute,
    produkte: [...produkte.values()]
      .sort((a, b) => (a.produktNr < b.produktNr ? -1 : a.produktNr > b.produktNr ? 1 : 0))
      .map(({ mengeM, bioM, ...p }) => ({ ...p, menge: ausMilli(mengeM), bioMenge: ausMilli(bioM) })),
  };
}

// ---------------------------------------------------------------------------------------------------------
// The chain view

export interface KettenNachweis {
  nr: string;
  rest: string;
  einheit: Einheit;
  vorlaeufig: boolean;
  thg: string | null;
  href: string;
}

export interface KettenAnteil {
  einlieferungNr: string;
  datum: string;
  partnerName: string | null;
  bioMenge: string;
  anteil: string;
  abholungNr: string | null;
  href: string;
  verfolgungHref: string;
  nachweise: KettenNachweis[];
}

export interface Lieferkette {
  standortNr: string;
  produktNr: string;
  produktName: string;
  bioMenge: string | null;
  anteile: KettenAnteil[];
  ohneHerkunft: string;
  summe: string;
}

/** GET /api/tankstelle/lieferkette: the deliveries the tank's bio content is made of, newest first. 404 when P has no tank at S. */
export function lieferkette(scope: TenantScope, standortNr: string | null | undefined, produktNr: string | null | undefined, heute: string, d: Darstellung): Promise<Lieferkette> {
  return scope.together((s) => kette(s, standortNr, produktNr, heute, d));
}

/** lieferkette() in a together() scope: each read is one round trip, the tank's with the first page's. */
async function kette(scope: TenantScope, standortNr: string | null | undefined, produktNr: string | null | undefined, heute: string, d: Darstellung): Promise<Lieferkette> {
  const { standort } = await standortWahl(scope, standortNr);
  if (!produktNr) throw notFound('tankstelle:errors.tankUnbekannt');
  // Newest first, page by page, until what was read explains B (older ones would not contribute), each page
  // with the certificates of its collections; the tank with the first page, in one round trip.
  const seiteLesen = (offset: number) =>
    Promise.all([repo.einlieferungenNeuesteZuerst(scope, standort.nr, produktNr, offset, KETTE_SEITE), repo.nachweiseDerSeite(scope, standort.nr, produktNr, offset, KETTE_SEITE)]);
  const [[tank], ersteSeite] = await Promise.all([repo.tanks(scope, standort.nr, heute, produktNr), seiteLesen(0)]);
  if (!tank) throw notFound('tankstelle:errors.tankUnbekannt');
  const bio = bestandBio(tank);
  const leer = { standortNr: standort.nr, produktNr: tank.produktNr, produktName: tank.produktName, bioMenge: bio, anteile: [], ohneHerkunft: '0', summe: '0' };
  if (bio == null) return leer;
  const gelesen: (repo.KettenLieferung & { bioMenge: string })[] = [];
  // By collection and number: a collection whose deliveries fall on two pages comes with both.
  const nachweise = new Map<string, repo.KettenNachweis>();
  let erklaert = 0n;
  for (let offset = 0; erklaert < milli(bio); offset += KETTE_SEITE) {
    const [seite, ihreNachweise] = offset === 0 ? ersteSeite : await seiteLesen(offset);
    for (const n of ihreNachweise) nachweise.set(`${n.abholungNr}|${n.nr}`, n);
    for (const l of seite) {
      const b = bioMenge({ menge: l.menge, einheit: l.einheit, biogehalt: l.biogehalt, gruppe: l.produktgruppe }, 'L');
      gelesen.push({ ...l, bioMenge: b });
      erklaert += milli(b);
    }
    if (seite.length < KETTE_SEITE) break;
  }
  const inhalt = tankinhalt(bio, gelesen);
  return {
    ...leer,
    anteile: inhalt.anteile.map(({ lieferung: l, anteil }) => ({
      einlieferungNr: l.nr,
      datum: l.datum,
      partnerName: l.partnerName,
      bioMenge: l.bioMenge,
      anteil,
      abholungNr: l.abholungNr,
      href: href.einlieferung(d.lang, l.nr),
      verfolgungHref: verfolgungHref(d.lang, 'einlieferung', l.nr),
      nachweise: [...nachweise.values()].filter((n) => n.abholungNr === l.abholungNr).map((n) => ({
        nr: n.nr, rest: dezimal(n.rest), einheit: n.einheit, vorlaeufig: n.vorlaeufig, thg: dezimalOderNull(n.thg), href: href.nachweis(d.lang, n.nr),
      })),
    })),
    ohneHerkunft: inhalt.ohneHerkunft,
    summe: inhalt.summe,
  };
}

// ---------------------------------------------------------------------------------------------------------
// The settings

export const einstellungenLesen = (scope: TenantScope) => repo.einstellungen(scope);

/** Changes the tenant's thresholds, with its audit entry in the same transaction; nothing is written when nothing changes. */
export async function einstellungenAendern(scope: TenantScope, actor: Actor, input: EinstellungenInput): Promise<repo.Einstellungen> {
  return scope.transaction(async (tx) => {
    const vorher = await repo.einstellungen(tx, true);
    const nachher = { reichweiteTage: input.reichweiteTage, verbrauchTage: input.verbrauchTage };
    if (vorher.reichweiteTage === nachher.reichweiteTage && vorher.verbrauchTage === nachher.verbrauchTage) return vorher;
    await repo.einstellungenSchreiben(tx, nachher);
    await audit(tx.knex, { kind: AUDIT_KIND, mandant: actor.mandant, benutzerId: actor.user.id, entity: ENTITY, entityId: actor.mandant, ip: actor.ip, before: vorher, after: nachher });
    return nachher;
  });
}
