// The Quotenbericht with hand-computed numbers (§37a BImSchG: reduction against the reference value), and its invariants.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alsKurztext, dez, minus, vergleiche } from './dezimal.js';
import { lieferungEnergie, quotenbericht, type Lieferenergie } from './quotenbericht.js';
import type { Einsparposten } from './thg-anzeige.js';

const QUOTEN: Record<number, string> = { 2025: '10.5', 2026: '12' };
const quote = (jahr: number) => QUOTEN[jahr] ?? null;

describe('lieferungEnergie', () => {
  it('10,000 L of B7 hold 9,300 L diesel × 36 + 700 L FAME × 33 = 357,900 MJ', () => {
    expect(lieferungEnergie({ menge: '10000', einheit: 'L', produktgruppe: 'diesel', biogehalt: '7', lcv: null, lcvEinheit: null })).toBe('357900');
  });
  it('10,000 L of FAME hold 330,000 MJ (the worked example); petrol E10 mixes petrol and ethanol', () => {
    expect(lieferungEnergie({ menge: '10000', einheit: 'L', produktgruppe: 'biodiesel', biogehalt: null, lcv: null, lcvEinheit: null })).toBe('330000');
    expect(lieferungEnergie({ menge: '1000', einheit: 'L', produktgruppe: 'benzin', biogehalt: '10', lcv: null, lcvEinheit: null })).toBe('30900');
  });
  it('a product\'s own LCV wins, converted with the group\'s density when the units differ', () => {
    expect(lieferungEnergie({ menge: '1000', einheit: 'L', produktgruppe: 'diesel', biogehalt: '7', lcv: '35.5', lcvEinheit: 'MJ/L' })).toBe('35500');
    expect(lieferungEnergie({ menge: '1000', einheit: 'L', produktgruppe: 'diesel', biogehalt: null, lcv: '43', lcvEinheit: 'MJ/kg' })).toBe('35991');
    expect(lieferungEnergie({ menge: '1000', einheit: 'kg', produktgruppe: 'diesel', biogehalt: '0', lcv: null, lcvEinheit: null })).toBe('43000');
  });
});

const lieferung = (datum: string, energieMJ: string, basiswert = '94.1'): Lieferenergie => ({ datum, energieMJ, basiswert });
const posten = (datum: string, menge: string, e = '10'): Einsparposten => ({ datum, menge, lcv: '33', e, basiswert: '94.1' });

describe('quotenbericht: a hand-computed year', () => {
  it('100,000 L B7 (3,579,000 MJ) with 7,000 L FAME of E 10 in 2026 at 12 %: 40.414 t owed, 19.427 t achieved, 48.07 %', () => {
    const { zeilen, summe } = quotenbericht([lieferung('2026-03-10', '3579000')], [posten('2026-03-10', '7000')], quote, '2026-01-01', '2026-12-31');
    // Referenzwert 3,579,000 MJ × 94.1 / 10⁶ = 336.7839 t; Verpflichtung 12 % of it = 40.414068 t;
    // Minderung 7,000 × 33 × (94.1 − 10) / 10⁶ = 19.4271 t; Saldo −20.986968 t.
    expect(zeilen).toEqual([{
      jahr: 2026, von: '2026-01-01', bis: '2026-12-31', quote: '12',
      energieMJ: '3579000.000', bioEnergieMJ: '231000.000', referenzT: '336.784', pflichtT: '40.414',
      einsparungT: '19.427', erfuellungProzent: '48.07', saldoT: '-20.987',
    }]);
    expect(summe).toMatchObject({ pflichtT: '40.414', einsparungT: '19.427', erfuellungProzent: '48.07', saldoT: '-20.987' });
  });

  it('the worked example alone, 330,000 MJ of FAME saving 27.753 t, more than fulfils 12 % (3.726 t owed)', () => {
    const { zeilen } = quotenbericht([lieferung('2026-06-01', '330000')], [posten('2026-06-01', '10000')], quote, '2026-01-01', '2026-12-31');
    expect(zeilen[0]).toMatchObject({ referenzT: '31.053', pflichtT: '3.726', einsparungT: '27.753', erfuellungProzent: '744.78', saldoT: '24.027' });
  });

  it('one row per calendar year, clipped to the period, each with its own quota; a year without a quota has no obligation', () => {
    const { zeilen, summe } = quotenbericht(
      [lieferung('2025-12-31', '1000000'), lieferung('2026-01-01', '1000000'), lieferung('2027-02-01', '1000000'), lieferung('2027-03-01', '5')],
      [], quote, '2025-07-01', '2027-02-28',
    );
    expect(zeilen.map((z) => [z.jahr, z.von, z.bis, z.quote, z.pflichtT])).toEqual([
      [2025, '2025-07-01', '2025-12-31', '10.5', '9.881'],
      [2026, '2026-01-01', '2026-12-31', '12', '11.292'],
      [2027, '2027-01-01', '2027-02-28', null, null],
    ]);
    expect(summe).toMatchObject({ energieMJ: '3000000.000', pflichtT: null, erfuellungProzent: null, saldoT: null });
  });

  it('no deliveries: nothing owed, fulfilment undefined', () => {
    const { zeilen } = quotenbericht([], [], quote, '2026-01-01', '2026-12-31');
    expect(zeilen[0]).toMatchObject({ energieMJ: '0.000', pflichtT: '0.000', einsparungT: '0.000', erfuellungProzent: null, saldoT: '0.000' });
  });
});

const jahre = ['2025-02-01', '2025-11-30', '2026-01-01', '2026-08-15', '2026-12-31'];
const arbitraryLieferungen = fc.array(fc.record({ datum: fc.constantFrom(...jahre), energieMJ: fc.integer({ min: 1, max: 1e9 }).map(String), basiswert: fc.constantFrom('94.1', '95') }), { maxLength: 20 });
const arbitraryPosten = fc.array(fc.record({ datum: fc.constantFrom(...jahre), menge: fc.integer({ min: 1, max: 1e7 }).map(String), lcv: fc.constant('33'), e: fc.integer({ min: 0, max: 9000 }).map((v) => alsKurztext({ n: BigInt(v), s: 2 })), basiswert: fc.constant('94.1') }), { maxLength: 20 });

describe('quotenbericht: invariants', () => {
  it('saldo = Minderung − Verpflichtung; Verpflichtung = quota × Referenzwert; fulfilled exactly when saldo ≥ 0', () => {
    fc.assert(fc.property(arbitraryLieferungen, arbitraryPosten, (ls, ps) => {
      const { zeilen } = quotenbericht(ls, ps, quote, '2025-01-01', '2026-12-31');
      expect(zeilen.map((z) => z.jahr)).toEqual([2025, 2026]);
      for (const z of zeilen) {
        const diff = minus(minus(dez(z.einsparungT), dez(z.pflichtT!)), dez(z.saldoT!));
        expect(vergleiche(diff, dez('0.001')) <= 0 && vergleiche(diff, dez('-0.001')) >= 0).toBe(true);
        if (z.erfuellungProzent !== null && vergleiche(dez(z.saldoT!), dez('0.001')) > 0) expect(Number(z.erfuellungProzent)).toBeGreaterThanOrEqual(100);
        if (z.erfuellungProzent !== null && vergleiche(dez(z.saldoT!), dez('-0.001')) < 0) expect(Number(z.erfuellungProzent)).toBeLessThanOrEqual(100);
      }
    }));
  });

  it('years add up: the totals equal one report over each year separately', () => {
    fc.assert(fc.property(arbitraryLieferungen, arbitraryPosten, (ls, ps) => {
      const beide = quotenbericht(ls, ps, quote, '2025-01-01', '2026-12-31');
      const a = quotenbericht(ls, ps, quote, '2025-01-01', '2025-12-31').zeilen[0];
      const b = quotenbericht(ls, ps, quote, '2026-01-01', '2026-12-31').zeilen[0];
      expect(beide.zeilen).toEqual([a, b]);
    }));
  });
});
