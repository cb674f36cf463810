import { describe, expect, it } from 'vitest';
import {
  aequivalentfaktorenAus, basiswertAus, gesetzeswerteAus, GesetzeswertFehlt, gueltigeZeilen, isIsoDate, isTagImJahr, nachweisAblaufAus, ohneNachkommaNullen, quoteAus,
  schwelleFuer, type GesetzeswertZeile,
} from './gesetzeswerte.js';

// The seed's rows as the database returns them (numeric(12,4)), plus changes a later law might bring.
const SEED: GesetzeswertZeile[] = [
  { art: 'fossiler_vergleichswert', bezug: '', gueltigAb: '2015-01-01', wert: '94.0000' },
  { art: 'basiswert', bezug: '', gueltigAb: '2015-01-01', wert: '94.1000' },
  { art: 'schwelle', bezug: '0001-01-01', gueltigAb: '2015-01-01', wert: '50.0000' },
  { art: 'schwelle', bezug: '2015-10-06', gueltigAb: '2015-01-01', wert: '60.0000' },
  { art: 'schwelle', bezug: '2021-01-01', gueltigAb: '2015-01-01', wert: '65.0000' },
  { art: 'quote', bezug: '2024', gueltigAb: '2015-01-01', wert: '9.2500' },
  { art: 'quote', bezug: '2027', gueltigAb: '2015-01-01', wert: '14.5000' },
  { art: 'nachweis_ablauf', bezug: '', gueltigAb: '2015-01-01', wert: '04-15' },
];
const REFORM: GesetzeswertZeile[] = [
  ...SEED,
  { art: 'fossiler_vergleichswert', bezug: '', gueltigAb: '2027-01-01', wert: '93.5000' },
  { art: 'schwelle', bezug: '2030-01-01', gueltigAb: '2029-01-01', wert: '70.0000' },
  { art: 'quote', bezug: '2027', gueltigAb: '2026-07-01', wert: '15.0000' },
  { art: 'nachweis_ablauf', bezug: '', gueltigAb: '2028-01-01', wert: '03-31' },
];

describe('the values valid on a date', () => {
  it('gives the seed as exact decimals without trailing zeros, thresholds ascending by plant date', () => {
    expect(gesetzeswerteAus(SEED, '2026-06-01')).toEqual({
      fossilerVergleichswert: '94',
      basiswert: '94.1',
      schwellen: [{ anlageAb: '0001-01-01', prozent: '50' }, { anlageAb: '2015-10-06', prozent: '60' }, { anlageAb: '2021-01-01', prozent: '65' }],
    });
  });

  it.each([
    // date, fossil comparator: a later row takes over on its valid-from day, not before
    ['2026-06-01', '94'],
    ['2026-12-31', '94'],
    ['2027-01-01', '93.5'],
    ['2027-02-01', '93.5'],
  ])('on %s the fossil comparator is %s', (datum, ef) => {
    expect(gesetzeswerteAus(REFORM, datum).fossilerVergleichswert).toBe(ef);
  });

  it('reads a date before every row as the first valid-from date of its kind', () => {
    expect(gesetzeswerteAus(REFORM, '2010-03-01')).toEqual(gesetzeswerteAus(REFORM, '2015-01-01'));
    expect(gesetzeswerteAus(SEED, '0001-01-01').basiswert).toBe('94.1');
  });

  it('does not carry a plant band back before the law that brought it', () => {
    expect(gesetzeswerteAus(REFORM, '2028-12-31').schwellen.map((s) => s.anlageAb)).toEqual(['0001-01-01', '2015-10-06', '2021-01-01']);
    expect(gesetzeswerteAus(REFORM, '2029-01-01').schwellen).toContainEqual({ anlageAb: '2030-01-01', prozent: '70' });
  });

  it('keeps one row per kind and reference', () => {
    const rows = gueltigeZeilen(REFORM, '2027-06-01');
    expect(rows.filter((r) => r.art === 'fossiler_vergleichswert')).toEqual([REFORM[8]]);
    expect(rows.filter((r) => r.art === 'quote').map((r) => [r.bezug, r.wert])).toEqual([['2024', '9.2500'], ['2027', '15.0000']]);
  });

  it('gives the Basiswert of a date alone, as gesetzeswerteAus does', () => {
    const neu = [...SEED, { art: 'basiswert' as const, bezug: '', gueltigAb: '2028-01-01', wert: '95.0000' }];
    expect(basiswertAus(neu, '2027-12-31')).toBe('94.1');
    expect(basiswertAus(neu, '2028-01-01')).toBe('95');
    expect(basiswertAus(neu, '2010-01-01')).toBe(gesetzeswerteAus(neu, '2010-01-01').basiswert);
    expect(() => basiswertAus(SEED.filter((r) => r.art !== 'basiswert'), '2026-01-01')).toThrow(GesetzeswertFehlt);
  });

  it('names the missing kind instead of computing with nothing', () => {
    expect(() => gesetzeswerteAus(SEED.filter((r) => r.art !== 'basiswert'), '2026-01-01')).toThrow(GesetzeswertFehlt);
    expect(() => gesetzeswerteAus(SEED, '2026-02-30')).toThrow(RangeError);
  });
});

describe('threshold by the plant start (RED II Art. 29(10))', () => {
  const werte = gesetzeswerteAus(SEED, '2026-06-01');
  it.each([
    ['1990-01-01', '50'],
    ['2015-10-05', '50'],
    ['2015-10-06', '60'],
    ['2020-12-31', '60'],
    ['2021-01-01', '65'],
    ['2026-05-01', '65'],
  ])('a plant in operation since %s needs %s %%', (anlage, prozent) => {
    expect(schwelleFuer(werte, anlage)).toBe(prozent);
  });
});

describe('quota and expiry', () => {
  it('takes the quota of a year as the law stands at its end, unless another date is asked for', () => {
    expect(quoteAus(SEED, 2024)).toBe('9.25');
    expect(quoteAus(REFORM, 2027)).toBe('15');
    expect(quoteAus(REFORM, 2027, '2026-06-30')).toBe('14.5');
    expect(quoteAus(SEED, 2031)).toBeNull();
  });

  it('lets a certificate expire on the set day of the year after its period', () => {
    expect(nachweisAblaufAus(SEED, '2026-03-31')).toBe('2027-04-15');
    expect(nachweisAblaufAus(SEED, '2026-12-31')).toBe('2027-04-15');
    expect(nachweisAblaufAus(REFORM, '2027-12-31')).toBe('2028-04-15');
    expect(nachweisAblaufAus(REFORM, '2028-01-01')).toBe('2029-03-31');
  });
});

describe('dates and decimals', () => {
  it.each([
    ['2024-02-29', true], ['2023-02-29', false], ['2000-02-29', true], ['1900-02-29', false], ['0001-01-01', true],
    ['2025-13-01', false], ['2025-1-01', false], ['0000-01-01', false], ['31.12.2025', false],
  ])('%s is a date: %s', (value, ok) => {
    expect(isIsoDate(value)).toBe(ok);
  });

  it('knows the days of a year that exist every year', () => {
    expect(['04-15', '01-01', '12-31', '02-28'].every(isTagImJahr)).toBe(true);
    expect(['02-29', '04-31', '13-01', '4-15', '2025-04-15'].some(isTagImJahr)).toBe(false);
  });

  it.each([['94.0000', '94'], ['94.1000', '94.1'], ['9.2500', '9.25'], ['0.0000', '0'], ['100', '100'], ['10.0500', '10.05']])('%s → %s', (stored, shown) => {
    expect(ohneNachkommaNullen(stored)).toBe(shown);
  });
});

describe('the equivalents of the THG display', () => {
  const FAKTOREN = [
    ...SEED,
    { art: 'aequivalent' as const, bezug: 'rind_kg', gueltigAb: '2015-01-01', wert: '99.5000', kommentar: 'Poore & Nemecek 2018, Rindfleisch' },
    { art: 'aequivalent' as const, bezug: 'auto_100km', gueltigAb: '2015-01-01', wert: '21.0000', kommentar: 'Kraftstoffbasiert' },
    { art: 'aequivalent' as const, bezug: 'schwein_kg', gueltigAb: '2015-01-01', wert: '12.0000', kommentar: 'Poore & Nemecek 2018, Schweinefleisch' },
    { art: 'aequivalent' as const, bezug: 'flug_500km', gueltigAb: '2015-01-01', wert: '107.0000', kommentar: 'UBA 2019' },
    { art: 'aequivalent' as const, bezug: 'auto_100km', gueltigAb: '2027-01-01', wert: '19.5000', kommentar: 'UBA 2026 (Test)' },
  ];

  it('gives the factors valid on a date in the display order, with the comment as the source', () => {
    expect(aequivalentfaktorenAus(FAKTOREN, '2026-11-26')).toEqual([
      { einheit: 'auto_100km', kgCo2e: '21', quelle: 'Kraftstoffbasiert' },
      { einheit: 'flug_500km', kgCo2e: '107', quelle: 'UBA 2019' },
      { einheit: 'schwein_kg', kgCo2e: '12', quelle: 'Poore & Nemecek 2018, Schweinefleisch' },
      { einheit: 'rind_kg', kgCo2e: '99.5', quelle: 'Poore & Nemecek 2018, Rindfleisch' },
    ]);
  });

  it('a newer factor applies from its valid-from date on, the older one before', () => {
    expect(aequivalentfaktorenAus(FAKTOREN, '2026-12-31')[0]).toEqual({ einheit: 'auto_100km', kgCo2e: '21', quelle: 'Kraftstoffbasiert' });
    expect(aequivalentfaktorenAus(FAKTOREN, '2027-01-01')[0]).toEqual({ einheit: 'auto_100km', kgCo2e: '19.5', quelle: 'UBA 2026 (Test)' });
  });

  it('leaves a unit without a row out, and does not change the values of the GHG computation', () => {
    expect(aequivalentfaktorenAus(SEED, '2026-11-26')).toEqual([]);
    expect(gesetzeswerteAus(FAKTOREN, '2026-11-26')).toEqual(gesetzeswerteAus(SEED, '2026-11-26'));
  });
});
