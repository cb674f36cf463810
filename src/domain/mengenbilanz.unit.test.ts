// The Mengenbilanz: worked numbers, and its invariants over random deliveries.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alsText, dez, gerundet, minus, plus } from './dezimal.js';
import { PRODUKTGRUPPEN } from './fuels.js';
import { inLiter, mengenbilanz, vortag, type Bewegung } from './mengenbilanz.js';

const L = (menge: string, richtung: Bewegung['richtung'] = 'zugang', storniert = false): Bewegung => ({ richtung, menge, einheit: 'L', gruppe: 'diesel', storniert });

describe('mengenbilanz', () => {
  it('works out the balance of a period by hand', () => {
    // Opening stock 10,000 L. In: 5,000 L and 837 kg of diesel (837 / 0.837 = 1,000 L), 2,000 L cancelled.
    // Out: 3,000 L. Computed closing = 10,000 + 6,000 − 3,000 = 13,000 L; recorded 12,950 L → difference −50 L.
    const b = mengenbilanz({
      anfangsbestand: '10000.000',
      bewegungen: [L('5000'), { richtung: 'zugang', menge: '837', einheit: 'kg', gruppe: 'diesel', storniert: false }, L('2000', 'zugang', true), L('3000', 'abgang')],
      endbestandErfasst: '12950',
    });
    expect(b).toEqual({
      anfangsbestand: '10000.000', zugang: '6000.000', zugaengeAnzahl: 2, abgang: '3000.000', abgaengeAnzahl: 1,
      stornierteAnzahl: 1, stornierteMenge: '2000.000', endbestandBerechnet: '13000.000', endbestandErfasst: '12950.000', differenz: '-50.000',
    });
  });

  it('converts kilograms of biodiesel with its density, to three decimals', () => {
    // 1,000 kg FAME / 0.892 kg/L = 1,121.0762… L → 1,121.076 L.
    expect(alsText(inLiter({ menge: '1000', einheit: 'kg', gruppe: 'biodiesel' }))).toBe('1121.076');
  });

  it('starts at 0 without a recorded opening stock and has no difference without a recorded closing stock', () => {
    const b = mengenbilanz({ anfangsbestand: null, bewegungen: [L('700'), L('200', 'abgang')], endbestandErfasst: null });
    expect(b).toMatchObject({ anfangsbestand: '0.000', endbestandBerechnet: '500.000', endbestandErfasst: null, differenz: null });
  });

  it('counts sums of several deliveries with their number', () => {
    const b = mengenbilanz({ anfangsbestand: '0', bewegungen: [{ ...L('1500'), anzahl: 3 }, { ...L('100', 'abgang', true), anzahl: 2 }], endbestandErfasst: '1500' });
    expect(b).toMatchObject({ zugaengeAnzahl: 3, stornierteAnzahl: 2, differenz: '0.000' });
  });

  it('takes the opening stock from the day before the start', () => {
    expect(vortag('2025-03-01')).toBe('2025-02-28');
    expect(vortag('2024-03-01')).toBe('2024-02-29');
    expect(vortag('2025-01-01')).toBe('2024-12-31');
  });
});

const menge = fc.integer({ min: 1, max: 10_000_000 }).map((n) => (n / 1000).toFixed(3));
const bewegung: fc.Arbitrary<Bewegung> = fc.record({
  richtung: fc.constantFrom('zugang' as const, 'abgang' as const),
  menge,
  einheit: fc.constantFrom('L' as const, 'kg' as const),
  gruppe: fc.constantFrom(...PRODUKTGRUPPEN),
  storniert: fc.boolean(),
});
const bestand = fc.option(fc.integer({ min: 0, max: 100_000_000 }).map((n) => (n / 1000).toFixed(3)), { nil: null });

describe('mengenbilanz, properties', () => {
  it('closing = opening + in − out, and difference = recorded − closing', () => {
    fc.assert(
      fc.property(bestand, fc.array(bewegung, { maxLength: 30 }), bestand, (anfang, bewegungen, ende) => {
        const b = mengenbilanz({ anfangsbestand: anfang, bewegungen, endbestandErfasst: ende });
        expect(b.endbestandBerechnet).toBe(alsText(gerundet(minus(plus(dez(b.anfangsbestand), dez(b.zugang)), dez(b.abgang)), 3)));
        if (ende == null) expect(b.differenz).toBeNull();
        else expect(b.differenz).toBe(alsText(gerundet(minus(dez(ende), dez(b.endbestandBerechnet)), 3)));
        expect(b.zugaengeAnzahl + b.abgaengeAnzahl + b.stornierteAnzahl).toBe(bewegungen.length);
      }),
    );
  });

  it('a cancelled delivery never changes the balance', () => {
    fc.assert(
      fc.property(bestand, fc.array(bewegung, { maxLength: 20 }), bewegung, bestand, (anfang, bewegungen, extra, ende) => {
        const ohne = mengenbilanz({ anfangsbestand: anfang, bewegungen, endbestandErfasst: ende });
        const mit = mengenbilanz({ anfangsbestand: anfang, bewegungen: [...bewegungen, { ...extra, storniert: true }], endbestandErfasst: ende });
        expect({ ...mit, stornierteAnzahl: 0, stornierteMenge: '' }).toEqual({ ...ohne, stornierteAnzahl: 0, stornierteMenge: '' });
        expect(mit.stornierteAnzahl).toBe(ohne.stornierteAnzahl + 1);
      }),
    );
  });

  it('the order of the deliveries does not matter', () => {
    fc.assert(
      fc.property(fc.array(bewegung, { maxLength: 20 }), (bewegungen) => {
        const vor = mengenbilanz({ anfangsbestand: '0', bewegungen, endbestandErfasst: null });
        const rueck = mengenbilanz({ anfangsbestand: '0', bewegungen: [...bewegungen].reverse(), endbestandErfasst: null });
        expect(rueck).toEqual(vor);
      }),
    );
  });
});
