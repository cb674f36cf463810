// The tank traffic light (certificates-and-balances.md section 5; docs/decisions.md "Tank traffic light"): for
// one tank (a location and a product) on one day, how long the certificates behind its content last. Pure,
// exact (thousandths of a litre as BigInt), over what the tank view's query collected.
//
// - Cover C: the rest of the certificates linked (through their collection) to the tank's inbound deliveries.
// - Daily use U: the outbound bio quantity of the last `verbrauchTage` days / `verbrauchTage`.
// - Active delivery: the oldest inbound delivery whose certificates have rest; reach D = its rest / U (∞ when
//   U = 0). Only the active delivery counts, so that a successor does not hide a low tank.
// - Successor: what takes over when the active delivery's certificates are used up: a later inbound delivery
//   with certificate rest, an inbound delivery not yet completed, or a certificate for the tank not yet linked.
//
// The states, in the order they are tested (the first that applies wins).
import { ausMilli, milli } from './lieferkette.js';

export const TANK_AMPELN = [
  'keine_lieferungen',
  'keine_aktive_lieferung',
  'vorlaeufiges_zertifikat',
  'ausreichend',
  'ausreichend_mit_nachfolger',
  'niedrig_mit_nachfolger',
  'niedrig_ohne_nachfolger',
] as const;
export type TankAmpel = (typeof TANK_AMPELN)[number];

/** Colour and icon of each state (section 5: never colour alone; the text comes from the locales). */
export const AMPEL_DARSTELLUNG: Readonly<Record<TankAmpel, { farbe: 'gruen' | 'gelb' | 'rot' | 'grau' | 'blau'; icon: string }>> = {
  ausreichend: { farbe: 'gruen', icon: 'check' },
  ausreichend_mit_nachfolger: { farbe: 'gruen', icon: 'arrow-right' },
  niedrig_mit_nachfolger: { farbe: 'gelb', icon: 'alert' },
  niedrig_ohne_nachfolger: { farbe: 'rot', icon: 'x' },
  keine_aktive_lieferung: { farbe: 'grau', icon: 'minus' },
  keine_lieferungen: { farbe: 'grau', icon: 'circle' },
  vorlaeufiges_zertifikat: { farbe: 'blau', icon: 'clock' },
};

/** The defaults of the tenant settings (mandanten.tank_reichweite_tage, tank_verbrauch_tage). */
export const REICHWEITE_TAGE = 14;
export const VERBRAUCH_TAGE = 14;

export interface TankEinlieferung {
  nr: string;
  /** ISO date of the delivery. */
  datum: string;
  /**
   * Completed: its status is not one of the tracing's open statuses (OFFENE_STATUS: open, inProgress), so a
   * locked delivery counts as completed too; an open or in-progress one is a delivery still under way.
   */
  abgeschlossen: boolean;
  /** Rest of the certificates linked to it, in litres (each certificate counted once, at one delivery). */
  rest: string;
  /** The part of `rest` on provisional certificates. */
  restVorlaeufig: string;
}

export interface TankEingabe {
  /** Every inbound delivery of the tank that is not cancelled. */
  einlieferungen: readonly TankEinlieferung[];
  /** Certificates for the tank (location and the product's certificate group) with rest, not linked to any of its deliveries. */
  unverknuepfteZertifikate: number;
  /** Outbound bio quantity of the last `verbrauchTage` days, litres. */
  abgabeBio: string;
  verbrauchTage: number;
  reichweiteTage: number;
}

export interface TankErgebnis {
  ampel: TankAmpel;
  /** C: all certificate rest of the tank's deliveries, litres. */
  deckung: string;
  /** The active delivery and its rest, or null. */
  aktiv: { nr: string; rest: string } | null;
  /** U in litres per day (three decimals), or '0'. */
  verbrauchProTag: string;
  /** D in whole days rounded down; null for ∞ (no use) or when there is no active delivery. */
  reichweiteTage: number | null;
  nachfolger: boolean;
}

const alter = (a: TankEinlieferung, b: TankEinlieferung) => (a.datum === b.datum ? (a.nr < b.nr ? -1 : a.nr > b.nr ? 1 : 0) : a.datum < b.datum ? -1 : 1);

export function tankAmpel(e: TankEingabe): TankErgebnis {
  if (!(e.verbrauchTage >= 1) || !(e.reichweiteTage >= 1)) throw new RangeError('verbrauchTage and reichweiteTage must be at least 1');
  const lieferungen = [...e.einlieferungen].sort(alter);
  const deckung = lieferungen.reduce((s, l) => s + milli(l.rest), 0n);
  const vorlaeufig = lieferungen.reduce((s, l) => s + milli(l.restVorlaeufig), 0n);
  const abgabe = milli(e.abgabeBio);
  const tage = BigInt(e.verbrauchTage);
  const verbrauchProTag = ausMilli(abgabe > 0n ? (abgabe + tage / 2n) / tage : 0n);
  const aktivIndex = lieferungen.findIndex((l) => milli(l.rest) > 0n);
  const aktivLieferung = aktivIndex < 0 ? null : lieferungen[aktivIndex];
  const aktiv = aktivLieferung ? { nr: aktivLieferung.nr, rest: ausMilli(milli(aktivLieferung.rest)) } : null;
  const nachfolger = e.unverknuepfteZertifikate > 0
    || lieferungen.some((l) => !l.abgeschlossen && l !== aktivLieferung)
    || lieferungen.some((l, i) => i > aktivIndex && aktivIndex >= 0 && milli(l.rest) > 0n);
  const aktivRest = aktiv ? milli(aktiv.rest) : 0n;
  // D = rest / (abgabe / tage) = rest × tage / abgabe, in whole days.
  const reichweiteTage = !aktiv || abgabe <= 0n ? null : Number((aktivRest * tage) / abgabe);
  const ergebnis = (ampel: TankAmpel): TankErgebnis => ({ ampel, deckung: ausMilli(deckung), aktiv, verbrauchProTag, reichweiteTage, nachfolger });

  if (!lieferungen.length) return ergebnis('keine_lieferungen');
  if (!aktiv) return ergebnis('keine_aktive_lieferung');
  if (vorlaeufig > 0n) return ergebnis('vorlaeufiges_zertifikat');
  // D ≥ threshold ⇔ rest × tage ≥ threshold × abgabe (exact; ∞ when nothing went out).
  const reicht = abgabe <= 0n || aktivRest * tage >= BigInt(e.reichweiteTage) * abgabe;
  if (reicht) return ergebnis(nachfolger ? 'ausreichend_mit_nachfolger' : 'ausreichend');
  return ergebnis(nachfolger ? 'niedrig_mit_nachfolger' : 'niedrig_ohne_nachfolger');
}
