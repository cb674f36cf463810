// Nachweisverfolgung: a delivery's chain of custody as a tree, with quantities and shares at each step and a
// tracking label on every certificate and proof (certificates-and-balances.md section 3).
// - Backwards from an Ablieferung: its live proofs ← their certificates ← the parents of a part, up to the
//   original ← the collections that carry a certificate of the chain, each with the Einlieferungen it arrived
//   as ← the supplier's certificate of the original.
// - Forwards from an Einlieferung: its collection → the certificates the collection carries → their parts
//   and the proofs made from them (and the proofs' parts) → the Ablieferungen a proof was issued for.
// The page, the API and a proof's tabs read through repo.ts; the rules (bio quantity, statuses, labels) are
// src/domain/lieferkette.ts. Quantities are exact decimal strings, shares percentages to two decimals.
import { alsText, dez, mal, quotient } from '../../domain/dezimal.js';
import { BIOKOMPONENTE } from '../../domain/ghg.js';
import {
  ausMilli, bioMenge, milli, verfolgungStatus, zertifikatStatus, type VerfolgungStatus, type ZertifikatStatus,
} from '../../domain/lieferkette.js';
import type { Produktgruppe } from '../../domain/fuels.js';
import { umrechnen, type Einheit } from '../../domain/units.js';
import type { TenantScope } from '../../db/scope.js';
import { partsIn } from '../../http/format.js';
import type { Lieferstatus } from '../lieferungen/names.js';
import { nachweisAblaufTabelle } from '../gesetzeswerte/service.js';
import * as repo from './repo.js';
import type { AbholungZeile, Art, BescheinigungZeile, Gelesen, LieferungZeile, NachweisZeile, OffeneLieferungen } from './repo.js';

export { ARTEN, MAX_KNOTEN, MAX_TIEFE, type Art } from './repo.js';

/** What a share is of: a delivery's bio quantity, a certificate's quantity, a collection's fuel, a proof's volume. */
export type AnteilVon = 'bioMenge' | 'nachweis' | 'abholung' | 'bescheinigung';

/** The quantity that flows along the edge to the node above in the tree, and its share of `von` `nr`. */
export interface Anteil {
  menge: string;
  einheit: Einheit;
  prozent: string | null;
  von: AnteilVon;
  nr: string;
}

export interface LieferungKnoten {
  typ: Art;
  nr: string;
  datum: string;
  status: Lieferstatus;
  storniert: boolean;
  menge: string;
  einheit: Einheit;
  biogehalt: string | null;
  produktgruppe: string;
  partnerNr: string;
  partnerName: string | null;
  standortNr: string;
  standortName: string | null;
  produktNr: string;
  produktName: string | null;
  /** An Einlieferung's collection (its link), or null. */
  abholungNr: string | null;
  /** An Ablieferung's bio quantity (what certificates may cover), in its unit. */
  bioMenge: string | null;
  /** The traced Ablieferung: its live proofs' volumes, in its unit, and its certificate status. */
  zugeordnet?: string;
  zertifikatStatus?: ZertifikatStatus;
  anteil: Anteil | null;
  kinder: Knoten[];
}

export interface AbholungKnoten {
  typ: 'abholung';
  nr: string;
  lieferdatum: string;
  lieferstelleNr: string;
  lieferant: string | null;
  produktgruppe: string;
  kraftstoffmenge: string;
  einheit: Einheit;
  /** The quantity of the Einlieferungen it arrived as (those the user may see), in its unit. */
  eingeliefert: string;
  anteil: Anteil | null;
  kinder: Knoten[];
}

export interface NachweisKnoten {
  typ: 'nachweis';
  nr: string;
  /** The certificate this one was split off (a Teilnachweis), or null for an original. */
  teilVon: string | null;
  standortNr: string;
  produktgruppe: string;
  rohstoff: string | null;
  menge: string;
  mengeVerbleibend: string;
  /** menge − mengeVerbleibend: split off, made into proofs or assigned. */
  verwendet: string;
  /** Forwards: the parts and proofs shown below it, which add up to `verwendet` when all are visible. */
  verteilt?: string;
  einheit: Einheit;
  thg: string | null;
  einsparung: string | null;
  vorlaeufig: boolean;
  storniert: boolean;
  zeitraumBis: string | null;
  /** The day its rest expires (nachweisAblauf), or null when the law table has none for its period. */
  ablauf: string | null;
  lieferant: string | null;
  lieferantZertifikatNr: string | null;
  status: VerfolgungStatus;
  anteil: Anteil | null;
  kinder: Knoten[];
}

export interface BescheinigungKnoten {
  typ: 'nachweisbescheinigung';
  nr: string;
  nachweisNr: string;
  teilVon: string | null;
  /** The Ablieferung it was issued for (an assignment), or null for a proof held in stock. */
  ablieferungNr: string | null;
  standortNr: string;
  lieferdatum: string;
  volumen: string;
  volumenVerbleibend: string;
  einheit: Einheit;
  thg: string | null;
  status: VerfolgungStatus;
  anteil: Anteil | null;
  kinder: Knoten[];
}

/** Where the chain begins: the supplier and its certificate number, from the original certificate. */
export interface LieferantKnoten {
  typ: 'lieferantenzertifikat';
  nr: string | null;
  lieferant: string | null;
  anteil: null;
  kinder: Knoten[];
}

export type Knoten = LieferungKnoten | AbholungKnoten | NachweisKnoten | BescheinigungKnoten | LieferantKnoten;

/**
 * Why a chain holds no certificate the user may see: an Ablieferung without live proofs, an Einlieferung without
 * (a visible) collection, or one whose collection carries none.
 */
export type OhneNachweiseGrund = 'keine_zuordnung' | 'keine_abholung' | 'abholung_ohne_nachweise';

/** Why the tree may not show everything: cut at MAX_TIEFE / MAX_KNOTEN, or records at other locations left out. */
export type Hinweis = 'gekappt' | 'ausgeblendet';

export interface Verfolgung {
  art: Art;
  nr: string;
  richtung: 'rueckwaerts' | 'vorwaerts';
  /** Whether the chain holds any certificate the user may see (else the page warns first). */
  nachweiseVorhanden: boolean;
  /** Without certificates: why (null when there are some). */
  grund: OhneNachweiseGrund | null;
  hinweise: Hinweis[];
  knoten: LieferungKnoten;
}

/** Today in Germany, where the quota's deadlines are. */
export function heuteInDeutschland(now: number): string {
  const p = partsIn('Europe/Berlin', new Date(now));
  return `${p.year}-${p.month}-${p.day}`;
}

/** Canonical decimal text: "4000.000" → "4000". */
const q = (v: string) => ausMilli(milli(v));

function anteil(menge: string, einheit: Einheit, ganz: string, von: AnteilVon, nr: string): Anteil {
  const prozent = milli(ganz) > 0n ? alsText(quotient(mal(dez(q(menge)), dez('100')), dez(q(ganz)), 2)) : null;
  return { menge: q(menge), einheit, prozent, von, nr };
}

/** What every trace reads besides its nodes, and the node budget. */
class Baum {
  private knoten = 0;
  readonly hinweise = new Set<Hinweis>();

  constructor(
    readonly heute: string,
    readonly ablauf: (zeitraumBis: string) => string | null,
    readonly offen: OffeneLieferungen,
    readonly nachweise: Map<string, NachweisZeile>,
  ) {}

  /** Notes what a read left out. */
  gelesen<R>(g: Gelesen<R>): R[] {
    if (g.gekappt) this.hinweise.add('gekappt');
    if (g.ausgeblendet) this.hinweise.add('ausgeblendet');
    return g.zeilen;
  }

  /** Room for one more node? Past MAX_KNOTEN the tree is cut, with a note. */
  platz(): boolean {
    if (this.knoten >= repo.MAX_KNOTEN) {
      this.hinweise.add('gekappt');
      return false;
    }
    this.knoten += 1;
    return true;
  }

  /**
   * Linked to an Einlieferung not yet completed through the collections that carry it; a part that no
   * collection carries arrived with its parent's (up to the original).
   */
  private einOffen(nr: string, weg = new Set<string>()): boolean {
    if (this.offen.getragen.has(nr)) return this.offen.einOffen.has(nr);
    const parent = this.nachweise.get(nr)?.referenzNachweisNr;
    if (!parent || weg.has(nr) || weg.size > repo.MAX_TIEFE) return false;
    weg.add(nr);
    return this.einOffen(parent, weg);
  }

  /** A certificate's tracking label (verfolgungStatus). */
  nachweisStatus(n: NachweisZeile): VerfolgungStatus {
    return verfolgungStatus({
      rest: n.mengeVerbleibend,
      vorlaeufig: n.vorlaeufig,
      lieferungOffen: this.einOffen(n.nr) || this.offen.ausOffen.has(n.nr),
      zeitraumBis: n.zeitraumBis,
      ablauf: this.ablaufVon(n),
      heute: this.heute,
    });
  }

  /**
   * A proof's label: its certificate's provisional flag and period; its rest, which for a proof issued for an
   * Ablieferung is nothing (its quantity belongs to that delivery); pending while that Ablieferung or an
   * Einlieferung of its certificate's collections is not completed.
   */
  bescheinigungStatus(b: BescheinigungZeile): VerfolgungStatus {
    const n = this.nachweise.get(b.nachweisNr);
    return verfolgungStatus({
      rest: b.ablieferungNr ? '0' : b.volumenVerbleibend,
      vorlaeufig: n?.vorlaeufig ?? false,
      lieferungOffen: this.offen.bescheinigungOffen.has(b.nr) || this.einOffen(b.nachweisNr),
      zeitraumBis: n?.zeitraumBis ?? null,
      ablauf: n ? this.ablaufVon(n) : '9999-12-31',
      heute: this.heute,
    });
  }

  /** Expiry from the law table; a period it has no value for does not expire by it (the 12 months still apply). */
  ablaufVon(n: NachweisZeile): string {
    return this.ablauf(n.zeitraumBis ?? n.ausstellungsdatum) ?? '9999-12-31';
  }
}

function lieferungKnoten(l: LieferungZeile, a: Anteil | null): LieferungKnoten {
  return {
    typ: l.art, nr: l.nr, datum: l.datum, status: l.status, storniert: l.storniert, menge: q(l.menge), einheit: l.einheit,
    biogehalt: l.biogehalt, produktgruppe: l.produktgruppe, partnerNr: l.partnerNr, partnerName: l.partnerName,
    standortNr: l.standortNr, standortName: l.standortName, produktNr: l.produktNr, produktName: l.produktName,
    abholungNr: l.art === 'einlieferung' ? l.abholungNr : null,
    bioMenge: l.art === 'ablieferung' ? bioVon(l) : null,
    anteil: a, kinder: [],
  };
}

const bioVon = (l: LieferungZeile, nach: Einheit = l.einheit) =>
  bioMenge({ menge: l.menge, einheit: l.einheit, biogehalt: l.biogehalt, gruppe: l.produktgruppe }, nach);

function abholungKnoten(ab: AbholungZeile, einlieferungen: LieferungZeile[], a: Anteil | null): AbholungKnoten {
  const eingeliefert = einlieferungen.reduce((s, e) => s + milli(umrechnen(e.menge, e.einheit, ab.einheit, ab.produktgruppe)), 0n);
  return {
    typ: 'abholung', nr: ab.nr, lieferdatum: ab.lieferdatum, lieferstelleNr: ab.lieferstelleNr, lieferant: ab.lieferant,
    produktgruppe: ab.produktgruppe, kraftstoffmenge: q(ab.kraftstoffmenge), einheit: ab.einheit, eingeliefert: ausMilli(eingeliefert),
    anteil: a, kinder: [],
  };
}

/** An Einlieferung's share of its collection's fuel. */
const anteilAnAbholung = (e: LieferungZeile, ab: AbholungZeile) =>
  anteil(umrechnen(e.menge, e.einheit, ab.einheit, ab.produktgruppe), ab.einheit, ab.kraftstoffmenge, 'abholung', ab.nr);

function nachweisKnoten(b: Baum, n: NachweisZeile, a: Anteil | null): NachweisKnoten {
  return {
    typ: 'nachweis', nr: n.nr, teilVon: n.referenzNachweisNr, standortNr: n.standortNr, produktgruppe: n.produktgruppe, rohstoff: n.rohstoff,
    menge: q(n.menge), mengeVerbleibend: q(n.mengeVerbleibend), verwendet: ausMilli(milli(n.menge) - milli(n.mengeVerbleibend)), einheit: n.einheit,
    thg: n.thg, einsparung: n.einsparung, vorlaeufig: n.vorlaeufig, storniert: n.storniert, zeitraumBis: n.zeitraumBis,
    ablauf: b.ablauf(n.zeitraumBis ?? n.ausstellungsdatum), lieferant: n.lieferant, lieferantZertifikatNr: n.lieferantZertifikatNr,
    status: b.nachweisStatus(n), anteil: a, kinder: [],
  };
}

function bescheinigungKnoten(b: Baum, z: BescheinigungZeile, a: Anteil | null): BescheinigungKnoten {
  return {
    typ: 'nachweisbescheinigung', nr: z.nr, nachweisNr: z.nachweisNr, teilVon: z.referenzNachweisNr, ablieferungNr: z.ablieferungNr,
    standortNr: z.standortNr, lieferdatum: z.lieferdatum, volumen: q(z.volumen), volumenVerbleibend: q(z.volumenVerbleibend), einheit: z.einheit, thg: z.thgEmission,
    status: b.bescheinigungStatus(z), anteil: a, kinder: [],
  };
}

/** A part's quantity in its parent's unit, as a share of the parent. */
const anteilAnStamm = (teil: { menge: string; einheit: Einheit; gruppe: Produktgruppe }, stamm: { nr: string; menge: string; einheit: Einheit }, von: AnteilVon) =>
  anteil(umrechnen(teil.menge, teil.einheit, stamm.einheit, teil.gruppe), stamm.einheit, stamm.menge, von, stamm.nr);

// ---------------------------------------------------------------------------------------------------------
// Backwards from an Ablieferung

async function rueckwaerts(scope: TenantScope, a: LieferungZeile, heute: string): Promise<Verfolgung> {
  const zuGelesen = await repo.zuordnungen(scope, a.nr);
  const nachweiseGelesen = await repo.nachweiseKette(scope, zuGelesen.zeilen.map((z) => z.nachweisNr), 'hoch');
  const nachweisNrs = nachweiseGelesen.zeilen.map((n) => n.nr);
  const [abGelesen, offen, ablauf] = await Promise.all([
    repo.abholungenMit(scope, nachweisNrs),
    repo.offeneLieferungen(scope, nachweisNrs, zuGelesen.zeilen.map((z) => z.nr)),
    nachweisAblaufTabelle(scope.knex),
  ]);
  const einGelesen = await repo.einlieferungenVon(scope, abGelesen.zeilen.map((x) => x.nr));

  const b = new Baum(heute, ablauf, offen, new Map(nachweiseGelesen.zeilen.map((n) => [n.nr, n])));
  const zu = b.gelesen(zuGelesen);
  b.gelesen(nachweiseGelesen);
  const abholungen = b.gelesen(abGelesen);
  const einlieferungen = b.gelesen(einGelesen);

  const root = lieferungKnoten(a, null);
  b.platz();
  const bio = root.bioMenge!;
  const inLieferEinheit = (z: BescheinigungZeile) => umrechnen(z.volumen, z.einheit, a.einheit, BIOKOMPONENTE[a.produktgruppe]);
  root.zugeordnet = ausMilli(zu.reduce((s, z) => s + milli(inLieferEinheit(z)), 0n));
  root.zertifikatStatus = zertifikatStatus(bio, zu.map((z) => ({ volumen: inLieferEinheit(z), vorlaeufig: b.nachweise.get(z.nachweisNr)?.vorlaeufig ?? false })));

  /** A certificate with where it came from: the collections carrying it, then its parent or its supplier. */
  const herkunft = (nr: string, a2: Anteil | null, weg: Set<string>): NachweisKnoten | null => {
    const n = b.nachweise.get(nr);
    if (!n || weg.has(nr) || !b.platz()) return null;
    const knoten = nachweisKnoten(b, n, a2);
    const pfad = new Set(weg).add(nr);
    for (const ab of abholungen.filter((x) => x.nachweisNrs.includes(nr))) {
      if (!b.platz()) break;
      const ein = einlieferungen.filter((e) => e.abholungNr === ab.nr);
      const abKnoten = abholungKnoten(ab, ein, null);
      for (const e of ein) if (b.platz()) abKnoten.kinder.push(lieferungKnoten(e, anteilAnAbholung(e, ab)));
      knoten.kinder.push(abKnoten);
    }
    const stamm = n.referenzNachweisNr ? b.nachweise.get(n.referenzNachweisNr) : undefined;
    if (stamm) {
      const parent = herkunft(stamm.nr, anteilAnStamm({ menge: n.menge, einheit: n.einheit, gruppe: n.produktgruppe }, stamm, 'nachweis'), pfad);
      if (parent) knoten.kinder.push(parent);
    } else if (!n.referenzNachweisNr && (n.lieferant || n.lieferantZertifikatNr) && b.platz()) {
      knoten.kinder.push({ typ: 'lieferantenzertifikat', nr: n.lieferantZertifikatNr, lieferant: n.lieferant, anteil: null, kinder: [] });
    }
    return knoten;
  };

  for (const z of zu) {
    if (!b.platz()) break;
    const nb = bescheinigungKnoten(b, z, anteil(z.volumen, z.einheit, bioVon(a, z.einheit), 'bioMenge', a.nr));
    const n = b.nachweise.get(z.nachweisNr);
    const zert = herkunft(z.nachweisNr, n ? anteil(umrechnen(z.volumen, z.einheit, n.einheit, n.produktgruppe), n.einheit, n.menge, 'nachweis', n.nr) : null, new Set());
    if (zert) nb.kinder.push(zert);
    root.kinder.push(nb);
  }
  const nachweiseVorhanden = zu.length > 0;
  return {
    art: 'ablieferung', nr: a.nr, richtung: 'rueckwaerts', nachweiseVorhanden, grund: nachweiseVorhanden ? null : 'keine_zuordnung',
    hinweise: [...b.hinweise], knoten: root,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Forwards from an Einlieferung

async function vorwaerts(scope: TenantScope, e: LieferungZeile, heute: string): Promise<Verfolgung> {
  const abGelesen = await repo.abholungen(scope, e.abholungNr ? [e.abholungNr] : []);
  const ab = abGelesen.zeilen[0] ?? null;
  const [nachweiseGelesen, einGelesen] = await Promise.all([
    repo.nachweiseKette(scope, ab?.nachweisNrs ?? [], 'runter'),
    repo.einlieferungenVon(scope, ab ? [ab.nr] : []),
  ]);
  const nachweisNrs = nachweiseGelesen.zeilen.map((n) => n.nr);
  const nbGelesen = await repo.bescheinigungenAus(scope, nachweisNrs);
  const [abGeliefert, offen, ablauf] = await Promise.all([
    repo.lieferungen(scope, 'ablieferung', nbGelesen.zeilen.flatMap((x) => (x.ablieferungNr ? [x.ablieferungNr] : []))),
    repo.offeneLieferungen(scope, nachweisNrs, nbGelesen.zeilen.map((x) => x.nr)),
    nachweisAblaufTabelle(scope.knex),
  ]);

  const b = new Baum(heute, ablauf, offen, new Map(nachweiseGelesen.zeilen.map((n) => [n.nr, n])));
  b.gelesen(abGelesen);
  b.gelesen(nachweiseGelesen);
  const einlieferungen = b.gelesen(einGelesen);
  const nbs = b.gelesen(nbGelesen);
  const ablieferungen = new Map(b.gelesen(abGeliefert).map((x) => [x.nr, x]));
  const nbNrs = new Set(nbs.map((x) => x.nr));

  const root = lieferungKnoten(e, null);
  b.platz();

  /** A proof with where it went: the Ablieferung it was issued for, and the parts split off it. */
  const verbleib = (z: BescheinigungZeile, a2: Anteil | null, weg: Set<string>): BescheinigungKnoten | null => {
    if (weg.has(z.nr) || !b.platz()) return null;
    const knoten = bescheinigungKnoten(b, z, a2);
    const pfad = new Set(weg).add(z.nr);
    const ziel = z.ablieferungNr ? ablieferungen.get(z.ablieferungNr) : undefined;
    if (ziel && b.platz()) knoten.kinder.push(lieferungKnoten(ziel, anteil(z.volumen, z.einheit, bioVon(ziel, z.einheit), 'bioMenge', ziel.nr)));
    for (const teil of nbs.filter((x) => x.referenzNachweisNr === z.nr)) {
      const k = verbleib(teil, anteil(teil.volumen, z.einheit, z.volumen, 'bescheinigung', z.nr), pfad);
      if (k) knoten.kinder.push(k);
    }
    return knoten;
  };

  /** A certificate with where it went: its parts, and the proofs made from it. */
  const verwendung = (n: NachweisZeile, a2: Anteil | null, weg: Set<string>): NachweisKnoten | null => {
    if (weg.has(n.nr) || !b.platz()) return null;
    const knoten = nachweisKnoten(b, n, a2);
    const pfad = new Set(weg).add(n.nr);
    let verteilt = 0n;
    for (const teil of nachweiseGelesen.zeilen.filter((x) => x.referenzNachweisNr === n.nr)) {
      const a3 = anteilAnStamm({ menge: teil.menge, einheit: teil.einheit, gruppe: teil.produktgruppe }, n, 'nachweis');
      const k = verwendung(teil, a3, pfad);
      if (k) {
        verteilt += milli(a3.menge);
        knoten.kinder.push(k);
      }
    }
    // Proofs made from it directly; a part split off a proof comes below that proof.
    for (const z of nbs.filter((x) => x.nachweisNr === n.nr && !(x.referenzNachweisNr && nbNrs.has(x.referenzNachweisNr)))) {
      const a3 = anteilAnStamm({ menge: z.volumen, einheit: z.einheit, gruppe: z.produktgruppe }, n, 'nachweis');
      const k = verbleib(z, a3, pfad);
      if (k) {
        verteilt += milli(a3.menge);
        knoten.kinder.push(k);
      }
    }
    knoten.verteilt = ausMilli(verteilt);
    return knoten;
  };

  if (ab && b.platz()) {
    const abKnoten = abholungKnoten(ab, einlieferungen, anteilAnAbholung(e, ab));
    for (const nr of ab.nachweisNrs) {
      const n = b.nachweise.get(nr);
      const k = n ? verwendung(n, null, new Set()) : null;
      if (k) abKnoten.kinder.push(k);
    }
    root.kinder.push(abKnoten);
  }
  const nachweiseVorhanden = Boolean(ab?.nachweisNrs.some((nr) => b.nachweise.has(nr)));
  const grund = nachweiseVorhanden ? null : ab ? 'abholung_ohne_nachweise' : 'keine_abholung';
  return { art: 'einlieferung', nr: e.nr, richtung: 'vorwaerts', nachweiseVorhanden, grund, hinweise: [...b.hinweise], knoten: root };
}

// ---------------------------------------------------------------------------------------------------------

/** The kinds of delivery that have this number at the scope's locations (both, when the numbers coincide). */
export function artenMitNr(scope: TenantScope, nr: string): Promise<Art[]> {
  return repo.artenMitNr(scope, nr);
}

/**
 * The trace of a delivery: backwards from an Ablieferung, forwards from an Einlieferung. Null when the scope
 * has no such delivery (none, another tenant's, or at a location it may not see).
 */
export async function verfolge(scope: TenantScope, art: Art, nr: string, heute: string): Promise<Verfolgung | null> {
  const lieferung = (await repo.lieferungen(scope, art, [nr])).zeilen[0];
  if (!lieferung) return null;
  return art === 'ablieferung' ? rueckwaerts(scope, lieferung, heute) : vorwaerts(scope, lieferung, heute);
}
