import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PRODUKTGRUPPEN } from './fuels.js';
import { milli } from './lieferkette.js';
import { anteil, bioDerLieferung, gedeckt, hoechstens, lieferungZertifikatStatus, offen, passt, type Belegung, type ZuLieferung } from './zuordnung.js';

// 12,500 L of B30 biodiesel: 3,750 L of it bio.
const b30: ZuLieferung = { menge: '12500', einheit: 'L', biogehalt: '30', gruppe: 'biodiesel' };

describe('certificates on an outbound delivery: worked examples', () => {
  it('measures the bio quantity, what is covered and what is open in the delivery unit', () => {
    expect(bioDerLieferung(b30)).toBe('3750');
    const belegt: Belegung[] = [{ volumen: '1000', einheit: 'L' }, { volumen: '892', einheit: 'kg' }];
    // 892 kg of biodiesel are 1,000 L.
    expect(gedeckt(b30, belegt)).toBe('2000');
    expect(offen(b30, belegt)).toBe('1750');
    expect(offen(b30, [{ volumen: '3750', einheit: 'L' }])).toBe('0');
  });

  it('takes the whole quantity as bio when the delivery names no bio content', () => {
    expect(bioDerLieferung({ ...b30, biogehalt: null })).toBe('12500');
  });

  it('lets in what fits and not a thousandth more', () => {
    expect(passt(b30, [{ volumen: '3000', einheit: 'L' }], { volumen: '750', einheit: 'L' })).toBe(true);
    expect(passt(b30, [{ volumen: '3000', einheit: 'L' }], { volumen: '750.001', einheit: 'L' })).toBe(false);
    // 750 L of biodiesel weigh 669 kg.
    expect(passt(b30, [{ volumen: '3000', einheit: 'L' }], { volumen: '669', einheit: 'kg' })).toBe(true);
    expect(passt(b30, [{ volumen: '3000', einheit: 'L' }], { volumen: '669.001', einheit: 'kg' })).toBe(false);
  });

  it('offers the rest of a certificate or what is still open, whichever is less', () => {
    expect(hoechstens(b30, [], '10000', 'L')).toBe('3750');
    expect(hoechstens(b30, [], '1200.5', 'L')).toBe('1200.5');
    expect(hoechstens(b30, [{ volumen: '3750', einheit: 'L' }], '500', 'L')).toBe('0');
    expect(hoechstens(b30, [], '10000', 'kg')).toBe('3345');
  });

  it('gives each assignment its share of the bio quantity to two decimals', () => {
    expect(anteil(b30, '1250', 'L')).toBe('33.33');
    expect(anteil(b30, '3750', 'L')).toBe('100.00');
    expect(anteil(b30, '892', 'kg')).toBe('26.67');
    expect(anteil({ ...b30, biogehalt: '0' }, '1', 'L')).toBeNull();
  });

  it('says keine, ohne_endgueltige (provisional or partly covered) and mit_endgueltigen (fully covered, all final)', () => {
    expect(lieferungZertifikatStatus(b30, [])).toBe('keine');
    expect(lieferungZertifikatStatus(b30, [{ volumen: '3000', einheit: 'L' }])).toBe('ohne_endgueltige');
    expect(lieferungZertifikatStatus(b30, [{ volumen: '3750', einheit: 'L', vorlaeufig: true }])).toBe('ohne_endgueltige');
    expect(lieferungZertifikatStatus(b30, [{ volumen: '3000', einheit: 'L' }, { volumen: '750', einheit: 'L' }])).toBe('mit_endgueltigen');
  });
});

const einheit = fc.constantFrom<'L' | 'kg'>('L', 'kg');
const menge = fc.integer({ min: 1, max: 50_000_000 }).map((m) => (m / 1000).toFixed(3));
const lieferung = fc.record({
  menge,
  einheit,
  biogehalt: fc.option(fc.integer({ min: 0, max: 1_000_000 }).map((b) => (b / 10_000).toFixed(4)), { nil: null }),
  gruppe: fc.constantFrom(...PRODUKTGRUPPEN),
});

describe('certificates on an outbound delivery: invariants', () => {
  it('never assigns more than the bio quantity, whatever the units, when each assignment takes at most what is offered', () => {
    fc.assert(fc.property(lieferung, fc.array(fc.record({ rest: menge, einheit, teil: fc.integer({ min: 1, max: 100 }) }), { maxLength: 6 }), (l, zertifikate) => {
      const belegt: Belegung[] = [];
      for (const z of zertifikate) {
        const max = hoechstens(l, belegt, z.rest, z.einheit);
        if (milli(max) <= 0n) continue;
        expect(milli(max)).toBeLessThanOrEqual(milli(z.rest));
        expect(passt(l, belegt, { volumen: max, einheit: z.einheit })).toBe(true);
        // Take a part of what is offered (all of it at 100).
        const v = (milli(max) * BigInt(z.teil)) / 100n;
        if (v > 0n) belegt.push({ volumen: (Number(v) / 1000).toFixed(3), einheit: z.einheit });
        expect(milli(gedeckt(l, belegt))).toBeLessThanOrEqual(milli(bioDerLieferung(l)));
      }
    }));
  });

  it('counts a delivery covered as far as the units allow as covered by final certificates', () => {
    fc.assert(fc.property(lieferung, fc.array(fc.record({ rest: fc.constant('999999999'), einheit }), { minLength: 1, maxLength: 4 }), (l, zertifikate) => {
      fc.pre(milli(bioDerLieferung(l)) > 0n);
      const belegt: Belegung[] = [];
      for (const z of zertifikate) {
        const max = hoechstens(l, belegt, z.rest, z.einheit);
        if (milli(max) > 0n) belegt.push({ volumen: max, einheit: z.einheit });
      }
      expect(lieferungZertifikatStatus(l, belegt)).toBe('mit_endgueltigen');
    }));
  });
});
