// Exact decimal arithmetic for the GHG engine: a value is a BigInt `n` with a scale `s` (value = n / 10^s).
// Sums, products and shifts by powers of ten are exact; only a division rounds, and only where the caller
// says to how many places. Floating point would get the law's boundaries wrong: (94 − 32.9) / 94 × 100 is
// 64.99999999999999 as a double, and the saving at exactly the threshold must pass.
//
// Values come in and go out as strings (`Dec`), as PostgreSQL's NUMERIC does (src/db/knex.ts keeps them
// strings), so nothing between the database and this code turns them into doubles.

/** A decimal number as text: "12", "-0.5", "33.0000". */
export type Dec = string;

export interface Dez {
  readonly n: bigint;
  readonly s: number;
}

const DEC = /^([+-]?)(\d*)(?:\.(\d*))?$/;

/** Is the text a plain decimal ("1", "-2.50", ".5")? No exponent, no thousands separator. */
export function isDec(value: unknown): value is Dec {
  if (typeof value !== 'string') return false;
  const m = DEC.exec(value.trim());
  return m !== null && (m[2] !== '' || (m[3] ?? '') !== '');
}

export function dez(value: Dec): Dez {
  const m = DEC.exec(value.trim());
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) throw new RangeError(`not a decimal: ${value}`);
  const [, sign, int, frac = ''] = m;
  const n = BigInt((int || '0') + frac);
  return { n: sign === '-' ? -n : n, s: frac.length };
}

const pow10 = (k: number) => 10n ** BigInt(k);

/** The same value at a larger scale (exact). */
function auf(a: Dez, s: number): bigint {
  return a.n * pow10(s - a.s);
}

export function plus(a: Dez, b: Dez): Dez {
  const s = Math.max(a.s, b.s);
  return { n: auf(a, s) + auf(b, s), s };
}

export function minus(a: Dez, b: Dez): Dez {
  const s = Math.max(a.s, b.s);
  return { n: auf(a, s) - auf(b, s), s };
}

export function mal(a: Dez, b: Dez): Dez {
  return { n: a.n * b.n, s: a.s + b.s };
}

/** a · 10^−k, exact: dividing by 100 or 10⁶ only moves the decimal point. */
export function verschoben(a: Dez, k: number): Dez {
  return k >= 0 ? { n: a.n, s: a.s + k } : { n: a.n * pow10(-k), s: a.s };
}

export function betrag(a: Dez): Dez {
  return a.n < 0n ? { n: -a.n, s: a.s } : a;
}

export function vergleiche(a: Dez, b: Dez): -1 | 0 | 1 {
  const s = Math.max(a.s, b.s);
  const d = auf(a, s) - auf(b, s);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

/** num / den rounded half away from zero (the rounding of a PoS and of PostgreSQL's round()). */
function geteilt(num: bigint, den: bigint): bigint {
  if (den < 0n) return geteilt(-num, -den);
  const q = (num < 0n ? -num : num) * 2n + den;
  const r = q / (2n * den);
  return num < 0n ? -r : r;
}

/** a rounded to `stellen` places, half away from zero. */
export function gerundet(a: Dez, stellen: number): Dez {
  if (a.s <= stellen) return { n: auf(a, stellen), s: stellen };
  return { n: geteilt(a.n, pow10(a.s - stellen)), s: stellen };
}

/** a / b rounded to `stellen` places, half away from zero. */
export function quotient(a: Dez, b: Dez, stellen: number): Dez {
  if (b.n === 0n) throw new RangeError('division by zero');
  // a/b = (a.n / 10^a.s) / (b.n / 10^b.s); scaled by 10^stellen.
  return { n: geteilt(a.n * pow10(b.s + stellen), b.n * pow10(a.s)), s: stellen };
}

/** Text with exactly the value's scale: a rounded result keeps its places ("65.00"), as NUMERIC(…, 2) does. */
export function alsText(a: Dez): Dec {
  const neg = a.n < 0n;
  const digits = (neg ? -a.n : a.n).toString().padStart(a.s + 1, '0');
  const int = digits.slice(0, digits.length - a.s);
  const frac = digits.slice(digits.length - a.s);
  return `${neg ? '-' : ''}${int}${a.s ? `.${frac}` : ''}`;
}

/** Text without trailing zeros: an exact result has no natural scale ("27.753", "330000"). */
export function alsKurztext(a: Dez): Dec {
  const text = alsText(a);
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}
