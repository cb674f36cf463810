import { describe, expect, it } from 'vitest';
import { REFERENZWERTE, PRODUKTGRUPPEN } from './fuels.js';
import { inEinheitSql, summe, umrechnen } from './units.js';

describe('Umrechnung L ↔ kg with the density of the product group (RED II Annex III)', () => {
  it.each([
    // group, litres, kilograms
    ['diesel', '1000', '837'],
    ['benzin', '1000', '744'],
    ['biodiesel', '1000', '892'],
    ['hvo', '1000', '773'],
    ['bioethanol', '1000', '778'],
    ['pflanzenoel', '1000', '919'],
    ['biodiesel', '10000', '8920'],
    ['diesel', '0.001', '0.001'],
    ['diesel', '12345.678', '10333.332'],
  ] as const)('%s: %s L = %s kg', (gruppe, liter, kg) => {
    expect(umrechnen(liter, 'L', 'kg', gruppe)).toBe(kg);
  });

  it.each([
    ['biodiesel', '1000', '1121.076'],
    ['diesel', '837', '1000'],
    ['bioethanol', '7.78', '10'],
    ['hvo', '1', '1.294'],
  ] as const)('%s: %s kg = %s L, rounded to the millilitre', (gruppe, kg, liter) => {
    expect(umrechnen(kg, 'kg', 'L', gruppe)).toBe(liter);
  });

  it('leaves a quantity in its own unit as it is, exactly', () => {
    expect(umrechnen('123456789012.345', 'L', 'L', 'diesel')).toBe('123456789012.345');
  });

  it('sums exactly where floating point would not: 0.1 + 0.2 L is 0.3 L', () => {
    expect(summe([{ menge: '0.1', einheit: 'L', gruppe: 'diesel' }, { menge: '0.2', einheit: 'L', gruppe: 'diesel' }], 'L')).toBe('0.3');
    expect(summe([{ menge: '1000', einheit: 'kg', gruppe: 'biodiesel' }, { menge: '878.924', einheit: 'L', gruppe: 'biodiesel' }], 'L')).toBe('2000');
  });

  it('builds the SQL conversion from the same table of densities', () => {
    const sql = inEinheitSql('L', { menge: 'm', einheit: 'e', gruppe: 'g' });
    for (const g of PRODUKTGRUPPEN) expect(sql).toContain(`when '${g}' then ${REFERENZWERTE[g].kgProL}`);
  });
});
