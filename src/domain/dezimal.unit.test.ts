import { describe, expect, it } from 'vitest';
import { alsKurztext, alsText, dez, gerundet, isDec, quotient } from './dezimal.js';

describe('exact decimals', () => {
  it.each(['1', '-2.50', '+3', '.5', '0.000', ' 7 '])('reads %j', (text) => {
    expect(isDec(text)).toBe(true);
    expect(() => dez(text)).not.toThrow();
  });

  it.each(['', '.', '-', '1e3', '1,5', '1.2.3', 'abc', 'NaN'])('refuses %j: no exponent, no comma, nothing half-typed', (text) => {
    expect(isDec(text)).toBe(false);
    expect(() => dez(text)).toThrow(RangeError);
  });

  it.each([
    ['2.345', 2, '2.35'],
    ['-2.345', 2, '-2.35'], // half away from zero, as PostgreSQL's round() on NUMERIC
    ['2.3449', 2, '2.34'],
    ['-0.004', 2, '0.00'],
    ['7', 2, '7.00'],
  ] as const)('rounds %s to %i places: %s', (wert, stellen, ergebnis) => {
    expect(alsText(gerundet(dez(wert), stellen))).toBe(ergebnis);
  });

  it('divides with rounding only at the end', () => {
    expect(alsText(quotient(dez('2'), dez('3'), 4))).toBe('0.6667');
    expect(alsText(quotient(dez('-2'), dez('3'), 4))).toBe('-0.6667');
    expect(alsText(quotient(dez('1'), dez('-8'), 2))).toBe('-0.13');
    expect(() => quotient(dez('1'), dez('0.00'), 2)).toThrow(RangeError);
  });

  it('writes a rounded value with its places, an exact one without trailing zeros', () => {
    expect(alsText(dez('65.00'))).toBe('65.00');
    expect(alsKurztext(dez('27.753000'))).toBe('27.753');
    expect(alsKurztext(dez('330000.000'))).toBe('330000');
    expect(alsKurztext(dez('-0.50'))).toBe('-0.5');
    expect(alsText(dez('-.5'))).toBe('-0.5');
  });
});
