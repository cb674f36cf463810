// The product groups and their reference energy content and density. Pure data and arithmetic, no I/O.
//
// Source: Directive (EU) 2018/2001 (RED II), Annex III "Energy content of fuels" (lower calorific values by
// weight and by volume; the density is what the two imply). These are reference data that change when the
// annex does: this table is the only place in the code that holds them.
export const PRODUKTGRUPPEN = ['diesel', 'benzin', 'biodiesel', 'bioethanol', 'hvo', 'pflanzenoel'] as const;
export type Produktgruppe = (typeof PRODUKTGRUPPEN)[number];

export const LCV_EINHEITEN = ['MJ/kg', 'MJ/L'] as const;
export type LcvEinheit = (typeof LCV_EINHEITEN)[number];

export interface Referenzwerte {
  /** Lower calorific value by weight, MJ/kg. */
  mjProKg: number;
  /** Lower calorific value by volume, MJ/L. */
  mjProL: number;
  /** Density, kg/L. */
  kgProL: number;
}

/** RED II Annex III, per product group (biodiesel = FAME, hvo = hydrotreated vegetable oil). */
export const REFERENZWERTE: Readonly<Record<Produktgruppe, Readonly<Referenzwerte>>> = {
  diesel: { mjProKg: 43, mjProL: 36, kgProL: 0.837 },
  benzin: { mjProKg: 43, mjProL: 32, kgProL: 0.744 },
  biodiesel: { mjProKg: 37, mjProL: 33, kgProL: 0.892 },
  hvo: { mjProKg: 44, mjProL: 34, kgProL: 0.773 },
  bioethanol: { mjProKg: 27, mjProL: 21, kgProL: 0.778 },
  pflanzenoel: { mjProKg: 37, mjProL: 34, kgProL: 0.919 },
};

/** A stored LCV more than this many percent away from its group's reference earns a warning. */
export const LCV_TOLERANZ_PROZENT = 10;

export function isProduktgruppe(value: unknown): value is Produktgruppe {
  return typeof value === 'string' && (PRODUKTGRUPPEN as readonly string[]).includes(value);
}

export function isLcvEinheit(value: unknown): value is LcvEinheit {
  return typeof value === 'string' && (LCV_EINHEITEN as readonly string[]).includes(value);
}

/** The reference LCV of a group in the given unit. */
export function referenzLcv(gruppe: Produktgruppe, einheit: LcvEinheit): number {
  const ref = REFERENZWERTE[gruppe];
  return einheit === 'MJ/kg' ? ref.mjProKg : ref.mjProL;
}

// Decimals are compared in ten-thousandths (the scale of a stored LCV), as integers: 39.6 against 36 is
// exactly 10 % and must not warn, which floating-point division would get wrong.
const SCALE = 10_000;
const scaled = (value: number | string) => Math.round(Number(value) * SCALE);

/** Relative deviation of an LCV from its group's reference (0.1 = 10 % above, −0.1 = 10 % below). */
export function lcvAbweichung(lcv: number | string, gruppe: Produktgruppe, einheit: LcvEinheit): number {
  const ref = referenzLcv(gruppe, einheit);
  return (scaled(lcv) - scaled(ref)) / scaled(ref);
}

/** Does the LCV lie more than LCV_TOLERANZ_PROZENT away from the reference of its group in that unit? */
export function lcvAusserhalbToleranz(lcv: number | string, gruppe: Produktgruppe, einheit: LcvEinheit): boolean {
  const ref = scaled(referenzLcv(gruppe, einheit));
  // |lcv − ref| > 10 % of ref, in integers: 100 · |lcv − ref| > 10 · ref.
  return Math.abs(scaled(lcv) - ref) * 100 > ref * LCV_TOLERANZ_PROZENT;
}
