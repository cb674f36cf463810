import { describe, expect, it } from 'vitest';
import { LCV_EINHEITEN, PRODUKTGRUPPEN, REFERENZWERTE, isProduktgruppe, lcvAbweichung, lcvAusserhalbToleranz, referenzLcv } from './fuels.js';

describe('reference values of RED II Annex III', () => {
  it.each([
    ['diesel', 43, 36, 0.837],
    ['benzin', 43, 32, 0.744],
    ['biodiesel', 37, 33, 0.892],
    ['hvo', 44, 34, 0.773],
    ['bioethanol', 27, 21, 0.778],
    ['pflanzenoel', 37, 34, 0.919],
  ] as const)('%s: %d MJ/kg, %d MJ/L, %d kg/L', (gruppe, kg, l, dichte) => {
    expect(REFERENZWERTE[gruppe]).toEqual({ mjProKg: kg, mjProL: l, kgProL: dichte });
    expect(referenzLcv(gruppe, 'MJ/kg')).toBe(kg);
    expect(referenzLcv(gruppe, 'MJ/L')).toBe(l);
  });

  it('covers every product group, and the three columns agree: MJ/kg × kg/L ≈ MJ/L (within 0.5 %)', () => {
    expect(Object.keys(REFERENZWERTE).sort()).toEqual([...PRODUKTGRUPPEN].sort());
    for (const g of PRODUKTGRUPPEN) {
      const r = REFERENZWERTE[g];
      expect(Math.abs(r.mjProKg * r.kgProL - r.mjProL) / r.mjProL).toBeLessThan(0.005);
    }
  });

  it('knows the groups and nothing else', () => {
    expect(isProduktgruppe('hvo')).toBe(true);
    expect(isProduktgruppe('kerosin')).toBe(false);
    expect(isProduktgruppe(undefined)).toBe(false);
  });
});

describe('LCV deviation from the reference', () => {
  it.each([
    // value, group, unit, outside 10 %?
    ['36', 'diesel', 'MJ/L', false],
    ['39.6', 'diesel', 'MJ/L', false], // exactly +10 %: still inside
    ['39.6001', 'diesel', 'MJ/L', true],
    ['32.4', 'diesel', 'MJ/L', false], // exactly −10 %
    ['32.3999', 'diesel', 'MJ/L', true],
    ['43', 'diesel', 'MJ/L', true], // the MJ/kg value in the MJ/L unit: a typical mistake
    ['43', 'diesel', 'MJ/kg', false],
    ['21', 'bioethanol', 'MJ/kg', true],
    [26.5, 'bioethanol', 'MJ/kg', false],
  ] as const)('%s in %s %s: outside = %s', (lcv, gruppe, einheit, outside) => {
    expect(lcvAusserhalbToleranz(lcv, gruppe, einheit)).toBe(outside);
  });

  it('gives the signed relative deviation', () => {
    expect(lcvAbweichung('40', 'benzin', 'MJ/L')).toBeCloseTo(0.25, 10);
    expect(lcvAbweichung('29.7', 'biodiesel', 'MJ/L')).toBeCloseTo(-0.1, 10);
    for (const g of PRODUKTGRUPPEN) for (const u of LCV_EINHEITEN) expect(lcvAbweichung(referenzLcv(g, u), g, u)).toBe(0);
  });
});
