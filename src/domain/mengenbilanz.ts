// The Mengenbilanz of one location and product over a period: the physical check an auditor makes first.
//   rechnerischer Endbestand = Anfangsbestand + Zugänge − Abgänge
//   Differenz                = erfasster Endbestand − rechnerischer Endbestand
// Quantities are litres (the unit in which Bestände are recorded); a delivery in kilograms is converted with
// its product group's density (units.ts), exactly to three decimals. Cancelled (storniert) deliveries never
// count; they are only counted, so the report can say how many were left out. Pure: no I/O.
import { alsText, dez, gerundet, minus, plus, type Dec, type Dez } from './dezimal.js';
import type { Produktgruppe } from './fuels.js';
import { umrechnen, type Einheit } from './units.js';

export type Richtung = 'zugang' | 'abgang';

/** One delivery, or several of the same kind already summed (anzahl > 1: e.g. a month's sum from the database). */
export interface Bewegung {
  richtung: Richtung;
  menge: Dec;
  einheit: Einheit;
  /** The product group (its density converts kilograms); not needed for litres. */
  gruppe?: Produktgruppe;
  storniert: boolean;
  /** How many deliveries the quantity sums (1 when absent). */
  anzahl?: number;
}

export interface MengenbilanzEingabe {
  /** The recorded Bestand at the start (litres), null when none was recorded: then the balance starts at 0. */
  anfangsbestand: Dec | null;
  bewegungen: readonly Bewegung[];
  /** The recorded Bestand at the end (litres), null when none was recorded: then there is no difference. */
  endbestandErfasst: Dec | null;
}

export interface Mengenbilanz {
  anfangsbestand: Dec;
  zugang: Dec;
  zugaengeAnzahl: number;
  abgang: Dec;
  abgaengeAnzahl: number;
  /** Cancelled deliveries left out (both directions) and their quantity, for information only. */
  stornierteAnzahl: number;
  stornierteMenge: Dec;
  endbestandBerechnet: Dec;
  endbestandErfasst: Dec | null;
  differenz: Dec | null;
}

const NULL: Dez = { n: 0n, s: 0 };
/** Litres as stored: three decimals. */
const text = (value: Dez): Dec => alsText(gerundet(value, 3));

/** A delivery's quantity in litres (exact to three decimals, as a stored quantity). */
export function inLiter(b: Pick<Bewegung, 'menge' | 'einheit' | 'gruppe'>): Dez {
  if (b.einheit === 'L') return dez(b.menge);
  if (!b.gruppe) throw new RangeError('a quantity in kg needs its product group');
  return dez(umrechnen(b.menge, b.einheit, 'L', b.gruppe));
}

export function mengenbilanz(eingabe: MengenbilanzEingabe): Mengenbilanz {
  let zugang = NULL;
  let abgang = NULL;
  let storniert = NULL;
  let zugaengeAnzahl = 0;
  let abgaengeAnzahl = 0;
  let stornierteAnzahl = 0;
  for (const b of eingabe.bewegungen) {
    const menge = inLiter(b);
    const anzahl = b.anzahl ?? 1;
    if (b.storniert) {
      storniert = plus(storniert, menge);
      stornierteAnzahl += anzahl;
    } else if (b.richtung === 'zugang') {
      zugang = plus(zugang, menge);
      zugaengeAnzahl += anzahl;
    } else {
      abgang = plus(abgang, menge);
      abgaengeAnzahl += anzahl;
    }
  }
  const anfang = eingabe.anfangsbestand == null ? NULL : dez(eingabe.anfangsbestand);
  const berechnet = minus(plus(anfang, zugang), abgang);
  const erfasst = eingabe.endbestandErfasst == null ? null : dez(eingabe.endbestandErfasst);
  return {
    anfangsbestand: text(anfang),
    zugang: text(zugang),
    zugaengeAnzahl,
    abgang: text(abgang),
    abgaengeAnzahl,
    stornierteAnzahl,
    stornierteMenge: text(storniert),
    endbestandBerechnet: text(berechnet),
    endbestandErfasst: erfasst ? text(erfasst) : null,
    differenz: erfasst ? text(minus(erfasst, berechnet)) : null,
  };
}

/** The day before an ISO day ("2025-03-01" → "2025-02-28"): the opening stock is the one recorded on or before it. */
export function vortag(iso: string): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}
