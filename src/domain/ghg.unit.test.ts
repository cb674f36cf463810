import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WERTE_2026 } from './gesetzeswerte.fixture.js';
import { alsKurztext, dez, plus, vergleiche } from './dezimal.js';
import {
  berechneNachweis, eAusTeilen, einsparung, energie, erfuellt, lcvUmrechnen, schwelle, summeWeichtAb, thg, thgMinderungT,
  type Gesetzeswerte, type NachweisEingabe,
} from './ghg.js';

const WERTE = WERTE_2026;

/** Exact sum of two decimals, without trailing zeros (as the engine writes exact results). */
const summe = (a: string, b: string) => alsKurztext(plus(dez(a), dez(b)));

const FAME: NachweisEingabe = {
  menge: '10000', einheit: 'L', lcv: null, biogehalt: null, produktgruppe: 'biodiesel',
  anlageInbetriebnahme: '2022-03-01', gesamtStandardwert: null,
};

describe('the worked example of domain-notes.md: 10,000 L FAME with E = 10', () => {
  it.each([
    ['from the parts', { eec: '4.5', ep: '3.2', etd: '1.8', eu: '0.5' }],
    ['from the parts with a credit', { eec: '8', el: '0', ep: '3', etd: '1.5', eu: '0', esca: '2.5', eccs: '0', eccr: '0' }],
    ['from the total default value only', { gesamtStandardwert: '10' }],
  ])('%s: 330,000 MJ, S = 89.36 percent, 27.753 t against the Basiswert', (_, werte) => {
    const r = berechneNachweis({ ...FAME, ...werte }, WERTE);
    expect(r.thg).toBe('10.00');
    expect(r.energiegehalt).toBe('330000');
    expect(r.lcv).toBe('33');
    expect(r.lcvAusReferenz).toBe(true);
    expect(r.einsparung).toBe('89.36');
    expect(r.thgMinderungT).toBe('27.753');
    expect(r.schwelle).toBe('65');
    expect(r.schwelleErfuellt).toBe(true);
    expect(r.summeWeichtAb).toBe(false);
  });

  it('says where E came from, and keeps E from the parts apart for the mismatch display', () => {
    expect(berechneNachweis({ ...FAME, eec: '10' }, WERTE)).toMatchObject({ thgQuelle: 'teile', eTeile: '10.00' });
    expect(berechneNachweis({ ...FAME, gesamtStandardwert: '10' }, WERTE)).toMatchObject({ thgQuelle: 'standardwert', eTeile: null });
    expect(berechneNachweis(FAME, WERTE)).toMatchObject({
      thg: null, thgQuelle: null, einsparung: null, schwelleErfuellt: null, thgMinderungT: null, energiegehalt: '330000',
    });
  });

  it('prefers the parts to the total and flags a mismatch beyond 0.1', () => {
    const r = berechneNachweis({ ...FAME, eec: '10', gesamtStandardwert: '12' }, WERTE);
    expect(r).toMatchObject({ thg: '10.00', thgQuelle: 'teile', summeWeichtAb: true, eTeile: '10.00' });
  });
});

describe('E from the parts (RED II Annex V part C)', () => {
  it.each([
    [{ eec: '10' }, '10.00'],
    [{ eec: '20.5', el: '1', ep: '5.25', etd: '2.1', eu: '0.3', esca: '3', eccs: '1.05', eccr: '0.1' }, '25.00'],
    [{ eec: '1.005' }, '1.01'], // half away from zero
    [{ eec: '1.004' }, '1.00'],
    [{ esca: '1.005' }, '-1.01'],
    [{ el: '-5', ep: '2' }, '-3.00'],
    [{ eec: '0.1', ep: '0.2' }, '0.30'], // where doubles give 0.30000000000000004
    [{ eec: '0' }, '0.00'], // a given zero is a part
    [{ eec: '', ep: null, etd: undefined }, null], // empty form fields are not
    [{}, null],
  ])('%o → %s', (teile, e) => {
    expect(eAusTeilen(teile)).toBe(e);
  });

  it('takes the total default value, rounded, when no part is given', () => {
    expect(thg({}, '25.456')).toEqual({ wert: '25.46', quelle: 'standardwert' });
    expect(thg({ eec: '' }, '')).toEqual({ wert: null, quelle: null });
    expect(thg({ ep: '3' }, '25')).toEqual({ wert: '3.00', quelle: 'teile' });
  });

  it.each([
    ['10.1', false], // 0.1 exactly is rounding, not a mismatch
    ['9.9', false],
    ['10.11', true],
    ['9.89', true],
    ['10', false],
  ])('parts 10, total %s: mismatch %s', (gesamt, abweichend) => {
    expect(summeWeichtAb({ eec: '6', ep: '4' }, gesamt)).toBe(abweichend);
  });

  it('needs both for a mismatch', () => {
    expect(summeWeichtAb({}, '50')).toBe(false);
    expect(summeWeichtAb({ eec: '50' }, null)).toBe(false);
  });
});

describe('saving and threshold', () => {
  it.each([
    ['10', '89.36'],
    ['12', '87.23'],
    ['20', '78.72'],
    ['8', '91.49'],
    ['32.90', '65.00'],
    ['32.91', '64.99'],
    ['94', '0.00'],
    ['100', '-6.38'],
    ['0', '100.00'],
    ['-5', '105.32'],
  ])('E %s → S %s percent', (e, s) => {
    expect(einsparung(e, WERTE.fossilerVergleichswert)).toBe(s);
  });

  it('passes exactly at the threshold, rounded before it compares', () => {
    expect(erfuellt(einsparung('32.90', '94'), '65')).toBe(true);
    expect(erfuellt(einsparung('32.91', '94'), '65')).toBe(false);
    // 32.904 gives 64.9957… %, which rounds to 65.00 and passes.
    expect(erfuellt(einsparung('32.904', '94'), '65')).toBe(true);
    expect(erfuellt('60', '60')).toBe(true);
    expect(erfuellt('59.99', '60')).toBe(false);
  });

  it.each([
    ['2015-10-05', '50', true],
    ['2015-10-06', '60', true],
    ['2020-12-31', '60', true],
    ['2021-01-01', '65', true],
    ['1990-01-01', '50', true],
    [null, '65', false],
    ['', '65', false],
  ])('plant from %s: %s percent', (datum, prozent, anlageBekannt) => {
    expect(schwelle(datum, WERTE)).toEqual({ prozent, anlageBekannt });
  });

  it('reads the thresholds from the law values, in any order, and takes the strictest for an uncovered date', () => {
    const spaeter: Gesetzeswerte = { ...WERTE, schwellen: [{ anlageAb: '2030-01-01', prozent: '80' }, { anlageAb: '2010-01-01', prozent: '55' }] };
    expect(schwelle('2031-05-01', spaeter)).toEqual({ prozent: '80', anlageBekannt: true });
    expect(schwelle('2020-05-01', spaeter)).toEqual({ prozent: '55', anlageBekannt: true });
    expect(schwelle('2009-12-31', spaeter)).toEqual({ prozent: '80', anlageBekannt: true });
    expect(schwelle(null, spaeter)).toEqual({ prozent: '80', anlageBekannt: false });
  });

  it('the result names the threshold that applied', () => {
    expect(berechneNachweis({ ...FAME, anlageInbetriebnahme: '2015-01-01', eec: '40' }, WERTE)).toMatchObject({
      einsparung: '57.45', schwelle: '50', anlageBekannt: true, schwelleErfuellt: true,
    });
    expect(berechneNachweis({ ...FAME, anlageInbetriebnahme: null, eec: '40' }, WERTE)).toMatchObject({
      schwelle: '65', anlageBekannt: false, schwelleErfuellt: false,
    });
  });
});

describe('energy and tonnes saved (certificates-and-balances.md §4, B100 at 33 MJ/L)', () => {
  it.each([
    ['18000', '12', '87.23', '48.7674'],
    ['2000', '12', '87.23', '5.4186'],
    ['10000', '20', '78.72', '24.453'],
    ['5000', '20', '78.72', '12.2265'],
    ['1000', '8', '91.49', '2.8413'],
    ['2000', '8', '91.49', '5.6826'],
  ])('%s L with E %s: S %s percent, %s t', (menge, e, s, t) => {
    expect(einsparung(e, WERTE.fossilerVergleichswert)).toBe(s);
    expect(thgMinderungT(energie(menge, '33'), e, WERTE.basiswert)).toBe(t);
    expect(berechneNachweis({ ...FAME, menge, gesamtStandardwert: e }, WERTE).thgMinderungT).toBe(t);
  });

  it('sums the six lines to the period total of 99.3894 t', () => {
    const zeilen: [string, string][] = [['18000', '12'], ['2000', '12'], ['10000', '20'], ['5000', '20'], ['1000', '8'], ['2000', '8']];
    const gesamt = zeilen.reduce((acc, [menge, e]) => summe(acc, thgMinderungT(energie(menge, '33'), e, WERTE.basiswert)), '0');
    expect(gesamt).toBe('99.3894');
  });

  it('counts only the bio component of a blend: 10,000 L of B7 hold 700 L of FAME at 33 MJ/L', () => {
    expect(energie('10000', '33', '7')).toBe('23100');
    const b7 = berechneNachweis({ ...FAME, produktgruppe: 'diesel', biogehalt: '7', gesamtStandardwert: '10' }, WERTE);
    expect(b7).toMatchObject({ lcv: '33', lcvAusReferenz: true, energiegehalt: '23100', thgMinderungT: '1.94271' });
    const e10 = berechneNachweis({ ...FAME, produktgruppe: 'benzin', biogehalt: '10', gesamtStandardwert: '30' }, WERTE);
    expect(e10).toMatchObject({ lcv: '21', energiegehalt: '21000' });
  });

  it('uses a given LCV and the reference in the unit of the quantity', () => {
    expect(berechneNachweis({ ...FAME, lcv: '32.8', eec: '10' }, WERTE)).toMatchObject({ lcv: '32.8', lcvAusReferenz: false, energiegehalt: '328000' });
    expect(berechneNachweis({ ...FAME, einheit: 'kg', menge: '8920', eec: '10' }, WERTE)).toMatchObject({ lcv: '37', energiegehalt: '330040' });
    expect(berechneNachweis({ ...FAME, produktgruppe: 'hvo', eec: '10' }, WERTE)).toMatchObject({ lcv: '34' });
  });

  it('is negative when E is above the Basiswert', () => {
    expect(thgMinderungT('1000000', '100', '94.1')).toBe('-5.9');
  });

  it.each([
    ['37', 'MJ/kg', 'MJ/L', '0.892', '33.0040'],
    ['33', 'MJ/L', 'MJ/kg', '0.892', '36.9955'],
    ['21', 'MJ/L', 'MJ/kg', '0.778', '26.9923'],
    ['43', 'MJ/kg', 'MJ/L', '0.837', '35.9910'],
    ['33', 'MJ/L', 'MJ/L', '0.892', '33.0000'],
  ] as const)('LCV %s %s in %s at %s kg/L = %s', (lcv, von, nach, dichte, ergebnis) => {
    expect(lcvUmrechnen(lcv, von, nach, dichte)).toBe(ergebnis);
  });
});

describe('properties', () => {
  // A decimal with three places in [-200, 200], as text, and its value in thousandths.
  const wert = fc.integer({ min: -200_000, max: 200_000 }).map((milli) => ({ milli, text: (milli / 1000).toFixed(3) }));
  const teil = fc.option(wert, { nil: undefined });

  it('E is the sum of the parts, credits subtracted, rounded half away from zero', () => {
    fc.assert(
      fc.property(fc.tuple(teil, teil, teil, teil, teil, teil, teil, teil), (werte) => {
        const namen = ['eec', 'el', 'ep', 'etd', 'eu', 'esca', 'eccs', 'eccr'] as const;
        const teile = Object.fromEntries(namen.flatMap((name, i) => (werte[i] ? [[name, werte[i].text]] : [])));
        const summe = werte.reduce((acc, w, i) => acc + (w ? (i < 5 ? w.milli : -w.milli) : 0), 0);
        const e = eAusTeilen(teile);
        if (werte.every((w) => w === undefined)) return e === null;
        // thousandths to hundredths, half away from zero
        const hundertstel = Math.sign(summe) * Math.floor((Math.abs(summe) + 5) / 10);
        return e !== null && vergleiche(dez(e), { n: BigInt(hundertstel), s: 2 }) === 0;
      }),
    );
  });

  const e2 = fc.integer({ min: -20_000, max: 20_000 }).map((h) => (h / 100).toFixed(2));

  it('the saving falls as E rises', () => {
    fc.assert(
      fc.property(e2, e2, (a, b) => {
        const [klein, gross] = vergleiche(dez(a), dez(b)) <= 0 ? [a, b] : [b, a];
        return vergleiche(dez(einsparung(klein, '94')), dez(einsparung(gross, '94'))) >= 0;
      }),
    );
  });

  it('for each threshold, E at or below the boundary passes and every E above it fails', () => {
    // The boundary E for 65 % is 32.90 (32.90 → 65.00, 32.91 → 64.99); for 60 %: 37.60; for 50 %: 47.00.
    const grenzen: [string, string][] = [['65', '32.90'], ['60', '37.60'], ['50', '47.00']];
    for (const [prozent, grenze] of grenzen) {
      expect(erfuellt(einsparung(grenze, '94'), prozent)).toBe(true);
      fc.assert(
        fc.property(e2, (e) => erfuellt(einsparung(e, '94'), prozent) === (vergleiche(dez(e), dez(grenze)) <= 0)),
      );
    }
  });

  const menge = fc.integer({ min: 0, max: 5_000_000_000 }).chain((l) => fc.integer({ min: 0, max: 999 }).map((m) => `${l}.${String(m).padStart(3, '0')}`));
  const lcv = fc.integer({ min: 1, max: 500_000 }).map((x) => (x / 10_000).toFixed(4));
  const bio = fc.option(fc.integer({ min: 0, max: 10_000 }).map((x) => (x / 100).toFixed(2)), { nil: null });

  it('energy is linear in the quantity', () => {
    fc.assert(fc.property(menge, menge, lcv, bio, (a, b, l, g) => summe(energie(a, l, g), energie(b, l, g)) === energie(summe(a, b), l, g)));
  });

  it('splitting a quantity never changes its tonnes saved: t(a) + t(b) = t(a + b), exactly', () => {
    fc.assert(
      fc.property(menge, menge, lcv, bio, e2, (a, b, l, g, e) => {
        const t = (m: string) => thgMinderungT(energie(m, l, g), e, WERTE.basiswert);
        return summe(t(a), t(b)) === t(summe(a, b));
      }),
    );
  });
});
