// Quantities and their units: litres (L) and kilograms (kg), converted with the density of the product group
// (RED II Annex III, REFERENZWERTE in fuels.ts). Arithmetic is exact decimal (BigInt in thousandths of a
// unit, the scale of a stored quantity), never floating point, so that sums agree with the database to the
// litre. The same conversion in SQL (for list totals) is built from the same table by `inLiterSql`.
import { PRODUKTGRUPPEN, REFERENZWERTE, type Produktgruppe } from './fuels.js';

export const EINHEITEN = ['L', 'kg'] as const;
export type Einheit = (typeof EINHEITEN)[number];

export function isEinheit(value: unknown): value is Einheit {
  return typeof value === 'string' && (EINHEITEN as readonly string[]).includes(value);
}

/** Stored quantities have three decimals. */
const SCALE = 3;
const FACTOR = 10n ** BigInt(SCALE);

/** "1234.5" → 1234500n (thousandths); more than three decimals are rounded half away from zero. */
function toMilli(value: string | number): bigint {
  const s = typeof value === 'number' ? value.toFixed(6) : value.trim();
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(s);
  if (!match) throw new RangeError(`not a decimal: ${value}`);
  const [, sign, int, frac = ''] = match;
  const digits = BigInt(int + frac.padEnd(SCALE + 1, '0').slice(0, SCALE + 1));
  const rounded = (digits + 5n) / 10n;
  return sign ? -rounded : rounded;
}

function fromMilli(value: bigint): string {
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  const int = abs / FACTOR;
  const frac = (abs % FACTOR).toString().padStart(SCALE, '0').replace(/0+$/, '');
  return `${sign}${int}${frac ? `.${frac}` : ''}`;
}

/** Density (kg/L) as a fraction of integers: 0.837 → 837/1000. */
function density(gruppe: Produktgruppe): { num: bigint; den: bigint } {
  return { num: toMilli(REFERENZWERTE[gruppe].kgProL), den: FACTOR };
}

/** a · num / den, rounded half away from zero. */
function mulDiv(a: bigint, num: bigint, den: bigint): bigint {
  const product = a * num;
  const half = den / 2n;
  return product >= 0n ? (product + half) / den : -((-product + half) / den);
}

/** A quantity in the other unit: kg = L · density, L = kg / density; exact to three decimals. */
export function umrechnen(menge: string | number, von: Einheit, nach: Einheit, gruppe: Produktgruppe): string {
  const milli = toMilli(menge);
  if (von === nach) return fromMilli(milli);
  const d = density(gruppe);
  return fromMilli(von === 'L' ? mulDiv(milli, d.num, d.den) : mulDiv(milli, d.den, d.num));
}

/** The sum of quantities in one unit, converting each as `umrechnen` does. */
export function summe(mengen: { menge: string | number; einheit: Einheit; gruppe: Produktgruppe }[], nach: Einheit): string {
  return fromMilli(mengen.reduce((sum, m) => sum + toMilli(umrechnen(m.menge, m.einheit, nach, m.gruppe)), 0n));
}

/**
 * SQL: the quantity in litres or kilograms, from columns holding quantity, unit and product group. The
 * density comes from the same table as `umrechnen`; each row is rounded to three decimals as there.
 */
export function inEinheitSql(nach: Einheit, cols: { menge: string; einheit: string; gruppe: string }): string {
  const dichte = `(case ${cols.gruppe} ${PRODUKTGRUPPEN.map((g) => `when '${g}' then ${REFERENZWERTE[g].kgProL}`).join(' ')} end)`;
  const umgerechnet = nach === 'kg' ? `${cols.menge} * ${dichte}` : `${cols.menge} / ${dichte}`;
  return `(case when ${cols.einheit} = '${nach}' then ${cols.menge} else round(${umgerechnet}, ${SCALE}) end)`;
}
