// The public THG display's figures with the worked numbers of domain-notes.md and section 6, and their invariants.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aequivalente, einsparungen, einsparungT, zeitraeume, type Aequivalentfaktor, type Einsparposten } from './thg-anzeige.js';

const FAKTOREN: Aequivalentfaktor[] = [
  { einheit: 'auto_100km', kgCo2e: '21', quelle: 'Kraftstoffbasiert' },
  { einheit: 'flug_500km', kgCo2e: '107', quelle: 'UBA 2019' },
  { einheit: 'schwein_kg', kgCo2e: '12', quelle: 'Poore & Nemecek 2018' },
];
const post = (datum: string, menge = '10000', e = '10'): Einsparposten => ({ datum, menge, lcv: '33', e, basiswert: '94.1' });

describe('einsparungT', () => {
  it('10,000 L FAME with E = 10 saves 10,000 × 33 × 84.1 / 10⁶ = 27.753 t', () => {
    expect(einsparungT(post('2026-11-26'))).toBe('27.753');
  });
  it('a certificate above the Basiswert saves less than nothing', () => {
    expect(einsparungT(post('2026-11-26', '1000', '100'))).toBe('-0.1947');
  });
});

describe('einsparungen: today, this month, this year', () => {
  it('each post counts in every period it falls in; later or earlier years do not count', () => {
    const r = einsparungen([post('2026-11-26'), post('2026-11-02'), post('2026-01-01'), post('2025-12-31'), post('2026-11-27')], '2026-11-26');
    expect(r).toEqual({ heute: '27.753', monat: '55.506', jahr: '83.259' });
  });
  it('nothing delivered is zero', () => {
    expect(einsparungen([], '2026-11-26')).toEqual({ heute: '0', monat: '0', jahr: '0' });
  });
  it('periods start on the first of the month and of the year', () => {
    expect(zeitraeume('2026-02-14')).toEqual({ heute: '2026-02-14', monatAb: '2026-02-01', jahrAb: '2026-01-01' });
  });
});

describe('aequivalente', () => {
  it('99.3894 t ≈ 4,733 car trips, ≈ 929 flights, ≈ 8,282 kg of pork (section 6)', () => {
    expect(aequivalente('99.3894', FAKTOREN)).toEqual([
      { einheit: 'auto_100km', anzahl: 4733, quelle: 'Kraftstoffbasiert' },
      { einheit: 'flug_500km', anzahl: 929, quelle: 'UBA 2019' },
      { einheit: 'schwein_kg', anzahl: 8282, quelle: 'Poore & Nemecek 2018' },
    ]);
  });
  it('no saving is no equivalent', () => {
    expect(aequivalente('-3', FAKTOREN).map((a) => a.anzahl)).toEqual([0, 0, 0]);
  });
  it('refuses a factor of zero', () => {
    expect(() => aequivalente('1', [{ einheit: 'rind_kg', kgCo2e: '0', quelle: '' }])).toThrow(RangeError);
  });
});

describe('invariants', () => {
  const datum = fc.integer({ min: 0, max: 400 }).map((d) => new Date(Date.UTC(2025, 11, 1) + d * 86_400_000).toISOString().slice(0, 10));
  const posten = fc.array(fc.record({
    datum,
    menge: fc.integer({ min: 1, max: 50_000_000 }).map((n) => (n / 1000).toString()),
    lcv: fc.constantFrom('33', '27', '21', '34.4'),
    e: fc.integer({ min: 0, max: 9000 }).map((n) => (n / 100).toString()),
    basiswert: fc.constant('94.1'),
  }), { maxLength: 30 });

  it('today ≤ month ≤ year when nothing saves less than nothing, and the order of the posts does not matter', () => {
    fc.assert(fc.property(posten, datum, (ps, heute) => {
      const r = einsparungen(ps, heute);
      expect(Number(r.heute)).toBeLessThanOrEqual(Number(r.monat));
      expect(Number(r.monat)).toBeLessThanOrEqual(Number(r.jahr));
      expect(einsparungen([...ps].reverse(), heute)).toEqual(r);
    }));
  });

  it('more saving never means fewer equivalents', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: 1_000_000 }), (a, d) => {
      const lo = aequivalente((a / 1000).toString(), FAKTOREN);
      const hi = aequivalente(((a + d) / 1000).toString(), FAKTOREN);
      lo.forEach((x, i) => expect(hi[i].anzahl).toBeGreaterThanOrEqual(x.anzahl));
    }));
  });
});
