import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ANSICHTEN, ansichtUrlVorab, basisUrl, bisZurAktualisierung, gleich, INTERVALL_MS, lieferketteProdukt, lieferketteUrl, menge, mitAnsicht, mitStandort,
  idTeil, planen, plural, prozent, query, seitenUrl, stufe, uhrzeit, wert, zapfsaeulenUrl, zustandAus, type Zustand,
} from './model';

describe('the page state and its query', () => {
  it('reads location, view and product as the server\'s page does', () => {
    expect(zustandAus('?standort=S001&ansicht=zapfsaeulen')).toEqual({ standortNr: 'S001', ansicht: 'zapfsaeulen', produktNr: null });
    expect(zustandAus('?standort=S001&ansicht=lieferkette&produkt=P013')).toEqual({ standortNr: 'S001', ansicht: 'lieferkette', produktNr: 'P013' });
    // No query: the user's first location (the server decides), the tanks.
    expect(zustandAus('')).toEqual({ standortNr: null, ansicht: 'tanks', produktNr: null });
    // An unknown view is the tank view; a product only counts for the supply chain; blanks are none.
    expect(zustandAus('?ansicht=bogus&produkt=P1')).toEqual({ standortNr: null, ansicht: 'tanks', produktNr: null });
    expect(zustandAus('?standort=%20&ansicht=lieferkette&produkt=')).toEqual({ standortNr: null, ansicht: 'lieferkette', produktNr: null });
  });

  it('writes the same parameters back, the product only for the supply chain', () => {
    expect(query({ standortNr: 'S001', ansicht: 'tanks', produktNr: null })).toBe('?standort=S001&ansicht=tanks');
    expect(query({ standortNr: 'S001', ansicht: 'zapfsaeulen', produktNr: 'P013' })).toBe('?standort=S001&ansicht=zapfsaeulen');
    expect(query({ standortNr: 'S 1&2', ansicht: 'lieferkette', produktNr: 'P013' })).toBe('?standort=S+1%262&ansicht=lieferkette&produkt=P013');
    expect(query({ standortNr: null, ansicht: 'tanks', produktNr: null })).toBe('?ansicht=tanks');
  });

  it('keeps the rest of the address when it writes the state into it', () => {
    const z: Zustand = { standortNr: 'S002', ansicht: 'lieferkette', produktNr: 'P001' };
    expect(seitenUrl('/de/bewegungsdaten/tankstelle-bestand?standort=S001&ansicht=tanks&x=1#inhalt', z)).toBe('/de/bewegungsdaten/tankstelle-bestand?x=1&standort=S002&ansicht=lieferkette&produkt=P001#inhalt');
    expect(seitenUrl('/en/bewegungsdaten/tankstelle-bestand?ansicht=lieferkette&produkt=P001', { ...z, ansicht: 'tanks' })).toBe('/en/bewegungsdaten/tankstelle-bestand?standort=S002&ansicht=tanks');
  });

  it('reads back every state it writes (property)', () => {
    const nr = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() === s && s.length > 0);
    fc.assert(
      fc.property(fc.option(nr, { nil: null }), fc.constantFrom(...ANSICHTEN), fc.option(nr, { nil: null }), (standortNr, ansicht, produktNr) => {
        const z: Zustand = { standortNr, ansicht, produktNr: ansicht === 'lieferkette' ? produktNr : null };
        expect(zustandAus(query(z))).toEqual(z);
        expect(gleich(zustandAus(new URL(seitenUrl(`/p${query(z)}`, z), 'http://x').search), z)).toBe(true);
      }),
    );
  });

  it('switches location keeping the view, and view keeping the location, the product as the server\'s links do', () => {
    const z: Zustand = { standortNr: 'S001', ansicht: 'lieferkette', produktNr: 'P013' };
    // The location form sends no product: the new location's first tank.
    expect(mitStandort(z, 'S002')).toEqual({ standortNr: 'S002', ansicht: 'lieferkette', produktNr: null });
    expect(mitAnsicht(z, 'zapfsaeulen')).toEqual({ standortNr: 'S001', ansicht: 'zapfsaeulen', produktNr: null });
    // The chain's tab keeps the product shown; from another view it names none (the first tank).
    expect(mitAnsicht(z, 'lieferkette')).toEqual(z);
    expect(mitAnsicht({ ...z, ansicht: 'tanks', produktNr: null }, 'lieferkette')).toEqual({ standortNr: 'S001', ansicht: 'lieferkette', produktNr: null });
    // A tank's supply-chain link names its product.
    expect(mitAnsicht({ ...z, ansicht: 'tanks', produktNr: null }, 'lieferkette', 'P001')).toEqual({ standortNr: 'S001', ansicht: 'lieferkette', produktNr: 'P001' });
    expect(gleich(z, { ...z, produktNr: 'P001' })).toBe(false);
    expect(gleich({ ...z, ansicht: 'tanks' }, { ...z, ansicht: 'tanks', produktNr: 'P001' })).toBe(true);
  });
});

describe('what a state loads', () => {
  it('the base call (tanks, locations, latest deliveries) with or without a location', () => {
    expect(basisUrl('S001')).toBe('/tankstelle?standortNr=S001');
    expect(basisUrl(null)).toBe('/tankstelle');
    expect(zapfsaeulenUrl('S 1')).toBe('/tankstelle/zapfsaeulen?standortNr=S+1');
    expect(lieferketteUrl('S001', 'P013')).toBe('/tankstelle/lieferkette?standortNr=S001&produktNr=P013');
  });

  it('starts the view\'s own call with the base call when it needs nothing from it', () => {
    expect(ansichtUrlVorab({ standortNr: 'S001', ansicht: 'tanks', produktNr: null })).toBeNull();
    expect(ansichtUrlVorab({ standortNr: 'S001', ansicht: 'zapfsaeulen', produktNr: null })).toBe('/tankstelle/zapfsaeulen?standortNr=S001');
    expect(ansichtUrlVorab({ standortNr: 'S001', ansicht: 'lieferkette', produktNr: 'P013' })).toBe('/tankstelle/lieferkette?standortNr=S001&produktNr=P013');
    // Which product, or which location, only the base answer tells.
    expect(ansichtUrlVorab({ standortNr: 'S001', ansicht: 'lieferkette', produktNr: null })).toBeNull();
    expect(ansichtUrlVorab({ standortNr: null, ansicht: 'zapfsaeulen', produktNr: null })).toBeNull();
  });

  it('shows the supply chain of the product asked for if the location has that tank, else of its first tank', () => {
    const tanks = [{ produktNr: 'P001' }, { produktNr: 'P013' }];
    expect(lieferketteProdukt('P013', tanks)).toBe('P013');
    expect(lieferketteProdukt('P099', tanks)).toBe('P001');
    expect(lieferketteProdukt(null, tanks)).toBe('P001');
    expect(lieferketteProdukt('P013', [])).toBeNull();
  });
});

describe('the minute refresh', () => {
  const t0 = 1_800_000_000_000;
  it('falls due a minute after the last load', () => {
    expect(INTERVALL_MS).toBe(60_000);
    expect(bisZurAktualisierung(t0, t0)).toBe(60_000);
    expect(bisZurAktualisierung(t0, t0 + 45_000)).toBe(15_000);
    expect(bisZurAktualisierung(t0, t0 + 60_000)).toBe(0);
    expect(bisZurAktualisierung(t0, t0 + 10 * 60_000)).toBe(0);
    expect(bisZurAktualisierung(null, t0)).toBe(0);
    // A clock set back never delays it by more than a minute.
    expect(bisZurAktualisierung(t0, t0 - 3_600_000)).toBe(60_000);
  });

  it('pauses while the page is hidden; on return loads at once if a refresh fell due, else waits the rest', () => {
    expect(planen(false, t0, t0 + 120_000)).toEqual({ art: 'pause' });
    expect(planen(true, t0, t0 + 120_000)).toEqual({ art: 'jetzt' });
    expect(planen(true, t0, t0 + 60_000)).toEqual({ art: 'jetzt' });
    expect(planen(true, t0, t0 + 20_000)).toEqual({ art: 'warten', ms: 40_000 });
  });

  it('never waits longer than a minute, nor loads twice within one while visible (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e12 }), fc.integer({ min: -1e7, max: 1e7 }), (letzte, dt) => {
        const p = planen(true, letzte, letzte + dt);
        if (p.art === 'warten') {
          expect(p.ms).toBeGreaterThan(0);
          expect(p.ms).toBeLessThanOrEqual(INTERVALL_MS);
        } else {
          expect(p).toEqual({ art: 'jetzt' });
          expect(dt).toBeGreaterThanOrEqual(INTERVALL_MS);
        }
      }),
    );
  });
});

describe('numbers as the server\'s page writes them', () => {
  it('quantities and figures with the decimals they need (at most three), percentages likewise', () => {
    expect(menge('31000', 'de')).toBe('31.000\u00a0L');
    expect(menge('31000', 'en')).toBe('31,000\u00a0L');
    expect(menge('2170.5', 'de')).toBe('2.170,5\u00a0L');
    expect(menge('120.500', 'en')).toBe('120.5\u00a0L');
    expect(menge('1000', 'de', 'kg')).toBe('1.000\u00a0kg');
    expect(menge(null, 'de')).toBe('–');
    expect(prozent('82.9', 'de')).toBe('82,9\u00a0%');
    expect(prozent('62', 'en')).toBe('62\u00a0%');
    expect(prozent(null, 'de')).toBe('–');
    expect(wert(12, 'de')).toBe('12');
    expect(wert('1234.25', 'de')).toBe('1.234,25');
  });

  it('the gauge\'s height in whole percent from 0 to 100', () => {
    expect(stufe('62.5')).toBe(63);
    expect(stufe('0.4')).toBe(0);
    expect(stufe('104')).toBe(100);
    expect(stufe(null)).toBeNull();
  });

  it('a count of days in the plural form the language needs', () => {
    const tage = { one: '{count} Tag', other: '{count} Tage' };
    expect(plural(tage, 1, 'de')).toBe('1 Tag');
    expect(plural(tage, 0, 'de')).toBe('0 Tage');
    expect(plural(tage, 14, 'de')).toBe('14 Tage');
    expect(plural({ one: '{count} day', other: '{count} days' }, 1, 'en')).toBe('1 day');
  });

  it('ids from numbers as the server\'s views make them', () => {
    expect(idTeil('P-013')).toBe('P-013');
    expect(idTeil('P 1/2')).toBe('P_1_2');
  });
});

describe('the time of the last load', () => {
  it('in the user\'s time zone, hours and minutes', () => {
    const t = Date.UTC(2026, 10, 26, 13, 5, 59);
    expect(uhrzeit(t, 'Europe/Berlin')).toBe('14:05');
    expect(uhrzeit(t, 'Europe/London')).toBe('13:05');
    expect(uhrzeit(t, 'America/New_York')).toBe('08:05');
  });
});
