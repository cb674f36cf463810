// The composition of a tank's bio content from its inbound deliveries, newest first: worked numbers and the
// invariants (it adds up exactly, no delivery gives more than it brought, only the newest contribute).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { milli } from './lieferkette.js';
import { neuesteZuerst, tankinhalt, type InhaltLieferung } from './tankinhalt.js';

const l = (nr: string, datum: string, bioMenge: string): InhaltLieferung => ({ nr, datum, bioMenge });

describe('tankinhalt: worked examples', () => {
  it('31,000 L of B7 hold 2,170 L bio: the newest delivery (2,100 L bio) and 70 L of the one before', () => {
    const r = tankinhalt('2170', [l('E-1', '2026-11-01', '1400'), l('E-2', '2026-11-20', '2100'), l('E-0', '2026-10-01', '700')]);
    expect(r.anteile.map((a) => [a.lieferung.nr, a.anteil])).toEqual([['E-2', '2100'], ['E-1', '70']]);
    expect(r).toMatchObject({ ohneHerkunft: '0', summe: '2170' });
  });

  it('more in the tank than the recorded deliveries brought: the rest has no origin', () => {
    const r = tankinhalt('2170.5', [l('E-1', '2026-11-01', '1400'), l('E-2', '2026-11-02', '700.25')]);
    expect(r.anteile.map((a) => a.anteil)).toEqual(['700.25', '1400']);
    expect(r.ohneHerkunft).toBe('70.25');
  });

  it('the same day: the higher number is the newer', () => {
    const r = tankinhalt('100', [l('E-10', '2026-11-05', '80'), l('E-11', '2026-11-05', '80')]);
    expect(r.anteile.map((a) => [a.lieferung.nr, a.anteil])).toEqual([['E-11', '80'], ['E-10', '20']]);
  });

  it('an empty tank, or one without deliveries', () => {
    expect(tankinhalt('0', [l('E-1', '2026-11-01', '500')])).toEqual({ anteile: [], ohneHerkunft: '0', summe: '0' });
    expect(tankinhalt('12.345', [])).toEqual({ anteile: [], ohneHerkunft: '12.345', summe: '12.345' });
  });

  it('a delivery without bio (B0 diesel) explains nothing and is not listed', () => {
    const r = tankinhalt('50', [l('E-2', '2026-11-02', '0'), l('E-1', '2026-11-01', '60')]);
    expect(r.anteile.map((a) => [a.lieferung.nr, a.anteil])).toEqual([['E-1', '50']]);
  });

  it('exact to the thousandth: 0.001 L left over', () => {
    const r = tankinhalt('1000.001', [l('E-1', '2026-11-01', '1000')]);
    expect(r.ohneHerkunft).toBe('0.001');
  });

  it('refuses negative quantities', () => {
    expect(() => tankinhalt('-1', [])).toThrow(RangeError);
    expect(() => tankinhalt('1', [l('E-1', '2026-11-01', '-1')])).toThrow(RangeError);
  });
});

describe('tankinhalt: invariants', () => {
  const menge = fc.integer({ min: 0, max: 50_000_000 }).map((n) => (n / 1000).toString());
  const lieferungen = fc.uniqueArray(fc.record({
    nr: fc.integer({ min: 1, max: 9999 }).map((n) => `E-${String(n).padStart(4, '0')}`),
    datum: fc.integer({ min: 1, max: 28 }).map((d) => `2026-11-${String(d).padStart(2, '0')}`),
    bioMenge: menge,
  }), { maxLength: 12, selector: (x) => x.nr });

  it('Σ anteil + ohneHerkunft = B exactly, and no anteil exceeds its delivery\'s bio quantity', () => {
    fc.assert(fc.property(menge, lieferungen, (b, ls) => {
      const r = tankinhalt(b, ls);
      const summe = r.anteile.reduce((s, a) => s + milli(a.anteil), 0n) + milli(r.ohneHerkunft);
      expect(summe).toBe(milli(b));
      expect(milli(r.summe)).toBe(milli(b));
      for (const a of r.anteile) {
        expect(milli(a.anteil)).toBeGreaterThan(0n);
        expect(milli(a.anteil)).toBeLessThanOrEqual(milli(a.lieferung.bioMenge));
      }
      expect(milli(r.ohneHerkunft)).toBeGreaterThanOrEqual(0n);
    }));
  });

  it('only the newest deliveries contribute, each in full but the last, and something is left without origin only when every delivery is used up', () => {
    fc.assert(fc.property(menge, lieferungen, (b, ls) => {
      const r = tankinhalt(b, ls);
      const mitBio = [...ls].filter((x) => milli(x.bioMenge) > 0n).sort(neuesteZuerst);
      // The contributors are exactly the first ones of the newest-first order.
      expect(r.anteile.map((a) => a.lieferung.nr)).toEqual(mitBio.slice(0, r.anteile.length).map((x) => x.nr));
      r.anteile.slice(0, -1).forEach((a) => expect(milli(a.anteil)).toBe(milli(a.lieferung.bioMenge)));
      if (milli(r.ohneHerkunft) > 0n) expect(r.anteile.length).toBe(mitBio.length);
    }));
  });

  it('the order the deliveries come in does not matter', () => {
    fc.assert(fc.property(menge, lieferungen, (b, ls) => {
      expect(tankinhalt(b, [...ls].reverse())).toEqual(tankinhalt(b, ls));
    }));
  });
});
