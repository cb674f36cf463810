// The THG-Bericht's figures with the worked numbers of domain-notes.md, and their invariants.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dez, minus, plus, vergleiche, alsKurztext } from './dezimal.js';
import { einsparungT } from './thg-anzeige.js';
import { thgBericht, type ThgPosten } from './thg-bericht.js';

const post = (over: Partial<ThgPosten> = {}): ThgPosten => ({
  datum: '2026-03-10', produktgruppe: 'biodiesel', menge: '10000', lcv: '33', e: '10', basiswert: '94.1', vergleichswert: '94', ...over,
});

describe('thgBericht: the worked example', () => {
  it('10,000 L FAME with E = 10 → 330,000 MJ, 3.3 t emitted, 27.753 t saved, 89.36 %', () => {
    const { zeilen, summe } = thgBericht([post()]);
    expect(zeilen).toEqual([{ monat: '2026-03', produktgruppe: 'biodiesel', energieMJ: '330000.000', emissionenT: '3.300', einsparungT: '27.753', einsparungProzent: '89.36' }]);
    expect(summe).toEqual({ energieMJ: '330000.000', emissionenT: '3.300', einsparungT: '27.753', einsparungProzent: '89.36' });
  });

  it('the Bilanz example of section 4 saves 99.3894 t in total (shown to the kilogram: 99.389 t)', () => {
    const lines = [['18000', '12'], ['2000', '12'], ['10000', '20'], ['5000', '20'], ['1000', '8'], ['2000', '8']];
    const { summe } = thgBericht(lines.map(([menge, e]) => post({ menge, e })));
    expect(summe.einsparungT).toBe('99.389');
    expect(summe.energieMJ).toBe('1254000.000');
    // Weighted by energy: (20,000 × 82 + 15,000 × 74 + 3,000 × 86) / (94 × 38,000) = 3,008,000 / 3,572,000.
    expect(summe.einsparungProzent).toBe('84.21');
  });

  it('splits by month and product group, months first, each group on its own row', () => {
    const { zeilen } = thgBericht([post({ datum: '2026-04-01', produktgruppe: 'hvo', lcv: '34', e: '15' }), post({ datum: '2026-03-31' }), post({ datum: '2026-04-30' })]);
    expect(zeilen.map((z) => `${z.monat} ${z.produktgruppe}`)).toEqual(['2026-03 biodiesel', '2026-04 biodiesel', '2026-04 hvo']);
    expect(zeilen[2]).toMatchObject({ energieMJ: '340000.000', emissionenT: '5.100', einsparungT: '26.894' });
  });

  it('a later Basiswert applies to the posts of its dates only', () => {
    const { zeilen } = thgBericht([post({ datum: '2027-01-05', basiswert: '95' })]);
    expect(zeilen[0].einsparungT).toBe('28.050');
  });

  it('nothing delivered: no rows, zero sums, no percentage', () => {
    expect(thgBericht([])).toEqual({ zeilen: [], summe: { energieMJ: '0.000', emissionenT: '0.000', einsparungT: '0.000', einsparungProzent: null } });
  });
});

const menge = fc.integer({ min: 1, max: 50_000_000 }).map((m) => alsKurztext({ n: BigInt(m), s: 3 }));
const e = fc.integer({ min: -2000, max: 12000 }).map((v) => alsKurztext({ n: BigInt(v), s: 2 }));
const posten = fc.array(
  fc.record({
    datum: fc.constantFrom('2026-01-15', '2026-02-01', '2026-02-28', '2026-12-31'),
    produktgruppe: fc.constantFrom('biodiesel', 'hvo', 'bioethanol'),
    menge,
    lcv: fc.constantFrom('33', '34', '21', '37.5'),
    e,
    basiswert: fc.constantFrom('94.1', '95'),
    vergleichswert: fc.constant('94'),
  }),
  { maxLength: 25 },
);

describe('thgBericht: invariants', () => {
  it('emissions + saving = energy × Basiswert / 10⁶ per post; the saving equals the public display\'s', () => {
    fc.assert(fc.property(posten, (ps) => {
      const { summe } = thgBericht(ps);
      let display = dez('0');
      for (const p of ps) display = plus(display, dez(einsparungT(p)));
      // Rounded to three places from the same exact sum.
      expect(vergleiche(minus(dez(summe.einsparungT), display), dez('0.0005')) <= 0).toBe(true);
      expect(vergleiche(minus(display, dez(summe.einsparungT)), dez('0.0005')) <= 0).toBe(true);
    }));
  });

  it('the rows add up to the totals (each within rounding), and every post lands in exactly one row', () => {
    fc.assert(fc.property(posten, (ps) => {
      const { zeilen, summe } = thgBericht(ps);
      const keys = new Set(ps.map((p) => `${p.datum.slice(0, 7)}|${p.produktgruppe}`));
      expect(zeilen.length).toBe(keys.size);
      let mj = dez('0');
      for (const z of zeilen) mj = plus(mj, dez(z.energieMJ));
      // Each row is rounded from its exact sum: at most half a thousandth per row away from the total.
      const grenze = { n: BigInt(5 * zeilen.length), s: 4 };
      expect(vergleiche(minus(mj, dez(summe.energieMJ)), grenze) <= 0 && vergleiche(minus(dez(summe.energieMJ), mj), grenze) <= 0).toBe(true);
      if (ps.length) expect(summe.einsparungProzent).not.toBeNull();
    }));
  });

  it('saving in % lies between the posts\' lowest and highest saving', () => {
    fc.assert(fc.property(posten.filter((p) => p.length > 0), (ps) => {
      const { summe } = thgBericht(ps);
      const s = ps.map((p) => (94 - Number(p.e)) / 94 * 100);
      expect(Number(summe.einsparungProzent)).toBeGreaterThanOrEqual(Math.min(...s) - 0.006);
      expect(Number(summe.einsparungProzent)).toBeLessThanOrEqual(Math.max(...s) + 0.006);
    }));
  });
});
