// The certificate account statement with a hand-computed history, and its invariants.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alsKurztext, dez, minus, plus, vergleiche } from './dezimal.js';
import { kontoauszug, KontoUngueltig, type Bewegung, type Konto } from './kontoauszug.js';

const konto = (nr: string, zugangAm: string, menge: string, einheit: 'L' | 'kg' = 'L'): Konto => ({ nr, zugangAm, menge, einheit, kgProL: '0.892' });
const b = (nachweisNr: string, art: Bewegung['art'], datum: string, menge: string, referenz: string): Bewegung => ({ nachweisNr, art, datum, menge, referenz });

// N-1 10,000 L received 5 Jan; split 4,000 (TN-1) on 10 Jan and 1,000 (TN-2) on 3 Feb; 2,000 assigned to A-1 on
// 15 Feb; TN-1's 4,000 assigned to A-2 on 1 Mar.
const KONTEN = [konto('N-1', '2026-01-05', '10000'), konto('TN-1', '2026-01-10', '4000'), konto('TN-2', '2026-02-03', '1000')];
const BEWEGUNGEN = [
  b('N-1', 'teilung', '2026-01-10', '4000', 'TN-1'),
  b('N-1', 'teilung', '2026-02-03', '1000', 'TN-2'),
  b('N-1', 'zuordnung', '2026-02-15', '2000', 'A-1'),
  b('TN-1', 'zuordnung', '2026-03-01', '4000', 'A-2'),
];

describe('kontoauszug: a hand-computed history', () => {
  it('February: N-1 opens with 6,000, gives 1,000 to TN-2 and 2,000 to A-1, closes with 3,000; TN-1 holds its 4,000; TN-2 arrives', () => {
    const { zeilen, summe } = kontoauszug(KONTEN, BEWEGUNGEN, '2026-02-01', '2026-02-28');
    expect(zeilen).toEqual([
      { nr: 'N-1', anfangsbestand: '6000.000', zugang: '0.000', geteilt: '1000.000', zugeordnet: '2000.000', endbestand: '3000.000', teile: ['TN-2'], zuordnungen: ['A-1'] },
      { nr: 'TN-1', anfangsbestand: '4000.000', zugang: '0.000', geteilt: '0.000', zugeordnet: '0.000', endbestand: '4000.000', teile: [], zuordnungen: [] },
      { nr: 'TN-2', anfangsbestand: '0.000', zugang: '1000.000', geteilt: '0.000', zugeordnet: '0.000', endbestand: '1000.000', teile: [], zuordnungen: [] },
    ]);
    expect(summe).toEqual({ anfangsbestand: '10000.000', zugang: '1000.000', geteilt: '1000.000', zugeordnet: '2000.000', endbestand: '8000.000' });
  });

  it('the first quarter: received − split − assigned = remaining for a certificate received in the period', () => {
    const { zeilen } = kontoauszug(KONTEN, BEWEGUNGEN, '2026-01-01', '2026-03-31');
    expect(zeilen[0]).toMatchObject({ anfangsbestand: '0.000', zugang: '10000.000', geteilt: '5000.000', zugeordnet: '2000.000', endbestand: '3000.000', teile: ['TN-1', 'TN-2'] });
    expect(zeilen[1]).toMatchObject({ zugang: '4000.000', zugeordnet: '4000.000', endbestand: '0.000', zuordnungen: ['A-2'] });
  });

  it('a certificate used up before the period (TN-1), or received after it (N-9), is not listed', () => {
    const { zeilen } = kontoauszug([...KONTEN, konto('N-9', '2026-05-01', '1')], BEWEGUNGEN, '2026-04-01', '2026-04-30');
    expect(zeilen.map((z) => z.nr)).toEqual(['N-1', 'TN-2']);
    expect(zeilen[0]).toMatchObject({ anfangsbestand: '3000.000', endbestand: '3000.000' });
  });

  it('a movement back-dated before the receipt counts on the day of the receipt', () => {
    const { zeilen } = kontoauszug([konto('N-2', '2026-02-10', '500')], [b('N-2', 'zuordnung', '2026-02-01', '500', 'A-3')], '2026-02-05', '2026-02-28');
    expect(zeilen[0]).toMatchObject({ anfangsbestand: '0.000', zugang: '500.000', zugeordnet: '500.000', endbestand: '0.000' });
  });

  it('sums are litres: a certificate in kg is converted with its density', () => {
    const { summe } = kontoauszug([konto('N-kg', '2026-01-01', '892', 'kg'), konto('N-L', '2026-01-01', '100')], [], '2026-01-01', '2026-01-31');
    expect(summe).toMatchObject({ zugang: '1100.000', endbestand: '1100.000' });
  });

  it('more taken from a certificate than it held is refused', () => {
    expect(() => kontoauszug([konto('N-3', '2026-01-01', '10')], [b('N-3', 'zuordnung', '2026-01-02', '10.001', 'A-4')], '2026-01-01', '2026-01-31')).toThrow(KontoUngueltig);
  });
});

const tage = ['2026-01-01', '2026-01-15', '2026-02-01', '2026-02-14', '2026-03-01', '2026-03-31', '2026-04-10'];
/** A history the database allows: each certificate's outflows after its receipt and at most its quantity. */
const geschichte = fc.array(
  fc.record({ zugang: fc.integer({ min: 0, max: tage.length - 1 }), menge: fc.integer({ min: 1, max: 10_000_000 }), kg: fc.boolean(), raus: fc.array(fc.record({ tag: fc.integer({ min: 0, max: tage.length - 1 }), anteil: fc.integer({ min: 0, max: 100 }), teilung: fc.boolean() }), { maxLength: 5 }) }),
  { minLength: 1, maxLength: 8 },
).map((ks) => {
  const konten: Konto[] = [];
  const bewegungen: Bewegung[] = [];
  ks.forEach((k, i) => {
    const nr = `N-${i}`;
    konten.push({ nr, zugangAm: tage[k.zugang], menge: alsKurztext({ n: BigInt(k.menge), s: 3 }), einheit: k.kg ? 'kg' : 'L', kgProL: '0.892' });
    let rest = BigInt(k.menge);
    for (const [j, r] of k.raus.entries()) {
      const m = (rest * BigInt(r.anteil)) / 100n;
      if (m === 0n) continue;
      rest -= m;
      bewegungen.push({ nachweisNr: nr, art: r.teilung ? 'teilung' : 'zuordnung', datum: tage[Math.max(k.zugang, r.tag)], menge: alsKurztext({ n: m, s: 3 }), referenz: `${nr}-${j}` });
    }
  });
  return { konten, bewegungen };
});
const zeitraum = fc.tuple(fc.integer({ min: 0, max: tage.length - 1 }), fc.integer({ min: 0, max: tage.length - 1 })).map(([a, c]) => [tage[Math.min(a, c)], tage[Math.max(a, c)]] as const);

describe('kontoauszug: invariants', () => {
  it('opening + received − split − assigned = closing ≥ 0 per row and in the sums', () => {
    fc.assert(fc.property(geschichte, zeitraum, ({ konten, bewegungen }, [von, bis]) => {
      const { zeilen, summe } = kontoauszug(konten, bewegungen, von, bis);
      for (const z of [...zeilen, summe]) {
        const ende = minus(minus(plus(dez(z.anfangsbestand), dez(z.zugang)), dez(z.geteilt)), dez(z.zugeordnet));
        expect(vergleiche(ende, dez(z.endbestand))).toBe(0);
        for (const v of [z.anfangsbestand, z.zugang, z.geteilt, z.zugeordnet, z.endbestand]) expect(vergleiche(dez(v), dez('0'))).toBeGreaterThanOrEqual(0);
      }
    }));
  });

  it('consecutive periods chain: one period\'s closing balance is the next one\'s opening', () => {
    fc.assert(fc.property(geschichte, ({ konten, bewegungen }) => {
      const jan = kontoauszug(konten, bewegungen, '2026-01-01', '2026-01-31').zeilen;
      const feb = kontoauszug(konten, bewegungen, '2026-02-01', '2026-02-28').zeilen;
      for (const z of feb) expect(z.anfangsbestand).toBe(jan.find((j) => j.nr === z.nr)?.endbestand ?? '0.000');
    }));
  });

  it('over all time the closing balance is the quantity less every movement (the stored rest)', () => {
    fc.assert(fc.property(geschichte, ({ konten, bewegungen }) => {
      const { zeilen } = kontoauszug(konten, bewegungen, '2000-01-01', '2099-12-31');
      for (const k of konten) {
        let rest = dez(k.menge);
        for (const x of bewegungen.filter((y) => y.nachweisNr === k.nr)) rest = minus(rest, dez(x.menge));
        expect(vergleiche(dez(zeilen.find((z) => z.nr === k.nr)!.endbestand), rest)).toBe(0);
      }
    }));
  });
});
