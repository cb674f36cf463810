import { describe, expect, it } from 'vitest';
import { decimal, parseDecimal } from './fields.js';

describe('decimal input', () => {
  it.each([
    ['12,5', '12.5'], ['12.5', '12.5'], ['1.234,56', '1234.56'], ['1,234.56', '1234.56'], [' 007 ', '7'], [12.5, '12.5'],
    ['-3,25', '-3.25'], ['1.234', '1.234'],
  ])('reads %j as %s', (input, expected) => {
    expect(parseDecimal(input)).toBe(expected);
  });

  it.each(['abc', '1,2,3', '1.2.3', '12,5 L', '', '1e5', 'NaN', Infinity])('refuses %j', (input) => {
    expect(parseDecimal(input)).toBeNull();
  });

  it('checks range and scale', () => {
    const pct = decimal({ min: 0, max: 100, scale: 2 });
    expect(pct.safeParse('99,99').data).toBe('99.99');
    expect(pct.safeParse('100,01').success).toBe(false);
    expect(pct.safeParse('1,234').success).toBe(false);
    expect(decimal({ required: true }).safeParse('').success).toBe(false);
    expect(decimal().safeParse('').data).toBeNull();
  });
});
