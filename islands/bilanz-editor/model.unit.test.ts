import { describe, expect, it } from 'vitest';
import type { BilanzPosition } from '../../src/features/bilanzen/detail';
import {
  ansicht, datum, eingabe, ersterTeil, fill, filtere, jePosition, menge, mitLaufsumme, naechsteSortierung, parseZahl, sortiere, summen, vorschauZeilen, zahl, zeitpunkt,
  type Vorschau, type Zeile,
} from './model';

// The worked example of certificates-and-balances.md section 4: TP001 priority 1 at 100 %, TP002 priority 2 capped
// at 8,000 L; certificates N-1 (E 12), N-2 (E 20), N-3 (E 8); deliveries A-1..A-4. Allocated: six lines.
const positionen: BilanzPosition[] = [
  { id: 1, partnerNr: 'TP001', partnerName: 'Partner 1', prioritaet: 1, biogehalt: '100', bioMenge: null, status: 'offen', zugeordnet: '30000' },
  { id: 2, partnerNr: 'TP002', partnerName: 'Partner 2', prioritaet: 2, biogehalt: null, bioMenge: '8000', status: 'offen', zugeordnet: '8000' },
];
const zeile = (nr: number, positionId: number, ablieferungNr: string, lieferdatum: string, nachweisNr: string, m: string, thg: string, t: string): Zeile => ({
  nr, positionId, ablieferungNr, lieferdatum, partnerNr: positionId === 1 ? 'TP001' : 'TP002', nachweisNr, menge: m, thg, thgMinderungT: t, vorlaeufig: false,
  begruendung: `Priorität ${positionId} für Partner ${positionId === 1 ? 'TP001' : 'TP002'}; Zertifikat ${nachweisNr}`, nachweisbescheinigungNr: null,
});
const zeilen: Zeile[] = [
  zeile(1, 1, 'A-2', '2026-01-25', 'N-1', '18000', '12', '48.7674'),
  zeile(2, 1, 'A-3', '2026-02-15', 'N-1', '2000', '12', '5.4186'),
  zeile(3, 1, 'A-3', '2026-02-15', 'N-2', '10000', '20', '24.453'),
  zeile(4, 2, 'A-1', '2026-01-20', 'N-2', '5000', '20', '12.2265'),
  zeile(5, 2, 'A-1', '2026-01-20', 'N-3', '1000', '8', '2.8413'),
  zeile(6, 2, 'A-4', '2026-03-10', 'N-3', '2000', '8', '5.6826'),
];
const nrs = (z: Zeile[]) => z.map((x) => x.nr);

describe('the allocation lines of the worked example', () => {
  it('run up to the 38,000 L assigned in the engine\'s order, 99.3894 t CO2eq in all', () => {
    expect(mitLaufsumme(zeilen).map((z) => z.laufsumme)).toEqual(['18000', '20000', '30000', '35000', '36000', '38000']);
    expect(summen(zeilen)).toEqual({ menge: '38000', thgMinderungT: '99.3894' });
  });

  it('give each position what its lines hold: TP001 30,000 L, TP002 its cap of 8,000 L', () => {
    expect(jePosition(zeilen)).toEqual(new Map([[1, '30000'], [2, '8000']]));
    expect(jePosition([])).toEqual(new Map());
  });

  it('sort by a column, ties in the engine\'s order, and the running total follows the order shown', () => {
    expect(nrs(sortiere(zeilen, { spalte: 'menge', richtung: 'desc' }))).toEqual([1, 3, 4, 2, 6, 5]);
    expect(nrs(sortiere(zeilen, { spalte: 'menge', richtung: 'asc' }))).toEqual([5, 2, 6, 4, 3, 1]);
    // Dates: A-1 is older than A-2 but was served after it (priority); sorted by date it comes first.
    expect(nrs(sortiere(zeilen, { spalte: 'lieferdatum', richtung: 'asc' }))).toEqual([4, 5, 1, 2, 3, 6]);
    expect(nrs(sortiere(zeilen, { spalte: 'nachweisNr', richtung: 'desc' }))).toEqual([5, 6, 3, 4, 1, 2]);
    expect(nrs(sortiere(zeilen, { spalte: 'thg', richtung: 'asc' }))).toEqual([5, 6, 1, 2, 3, 4]);
    expect(nrs(sortiere(zeilen, { spalte: 'nr', richtung: 'desc' }))).toEqual([6, 5, 4, 3, 2, 1]);
    expect(nrs(sortiere([...zeilen].reverse(), null))).toEqual([1, 2, 3, 4, 5, 6]);
    const v = ansicht(zeilen, { spalte: 'menge', richtung: 'desc' }, '');
    expect(v.zeilen.map((z) => z.laufsumme)).toEqual(['18000', '28000', '33000', '35000', '37000', '38000']);
    expect(v.gefiltert).toBe(false);
  });

  it('puts empty values last in either direction (a line without POC, a preview line without date)', () => {
    const mitPoc = zeilen.map((z) => (z.nr === 4 ? { ...z, nachweisbescheinigungNr: 'NB-7' } : z));
    expect(nrs(sortiere(mitPoc, { spalte: 'nachweisbescheinigungNr', richtung: 'asc' }))[0]).toBe(4);
    expect(nrs(sortiere(mitPoc, { spalte: 'nachweisbescheinigungNr', richtung: 'desc' }))[0]).toBe(4);
  });

  it('cycles a column ascending, descending, then back to the engine\'s order', () => {
    let s = naechsteSortierung(null, 'menge');
    expect(s).toEqual({ spalte: 'menge', richtung: 'asc' });
    s = naechsteSortierung(s, 'menge');
    expect(s).toEqual({ spalte: 'menge', richtung: 'desc' });
    expect(naechsteSortierung(s, 'menge')).toBeNull();
    expect(naechsteSortierung(s, 'thg')).toEqual({ spalte: 'thg', richtung: 'asc' });
  });

  it('filters by delivery, certificate, partner or reason in any case, and sums what is shown', () => {
    expect(nrs(filtere(zeilen, 'n-3'))).toEqual([5, 6]);
    expect(nrs(filtere(zeilen, ' A-3 '))).toEqual([2, 3]);
    expect(nrs(filtere(zeilen, 'tp002'))).toEqual([4, 5, 6]);
    expect(nrs(filtere(zeilen, 'Priorität 1'))).toEqual([1, 2, 3]);
    expect(nrs(filtere(zeilen, ''))).toEqual([1, 2, 3, 4, 5, 6]);
    const v = ansicht(zeilen, null, 'N-3');
    expect(v.zeilen.map((z) => z.laufsumme)).toEqual(['1000', '3000']);
    expect(v.summen).toEqual({ menge: '3000', thgMinderungT: '8.5239' });
    expect(v.gefiltert).toBe(true);
  });

  it('numbers a preview\'s lines in the engine\'s order and names their partner from the position', () => {
    const vorschau: Vorschau = {
      mengeGesamt: '41000', bioMenge: '45000', zugeordnet: '38000', restBioMenge: '7000', biogehalt: '92.68', thgMinderungT: '99.3894',
      zuordnungen: zeilen.map(({ nr: _n, lieferdatum: _l, partnerNr: _p, nachweisbescheinigungNr: _b, ...z }) => z),
      nichtGedeckt: [{ ablieferungNr: 'A-4', positionId: 2, offen: '3000' }],
    };
    const v = vorschauZeilen(vorschau, positionen);
    expect(v.map((z) => [z.nr, z.partnerNr, z.lieferdatum, z.nachweisbescheinigungNr])).toEqual([
      [1, 'TP001', null, null], [2, 'TP001', null, null], [3, 'TP001', null, null], [4, 'TP002', null, null], [5, 'TP002', null, null], [6, 'TP002', null, null],
    ]);
    expect(summen(v).menge).toBe(vorschau.zugeordnet);
  });
});

describe('numbers in the page\'s language', () => {
  it('formats quantities as the server\'s page does: 38.000 L, 2.500,5 L, 38,000 L', () => {
    expect(menge('38000', 'L', 'de')).toBe('38.000\u00a0L');
    expect(menge('2500.5', 'L', 'de')).toBe('2.500,5\u00a0L');
    expect(menge('7000.000', 'L', 'de')).toBe('7.000\u00a0L');
    expect(menge('38000', 'L', 'en')).toBe('38,000\u00a0L');
    expect(menge(null, 'L', 'de')).toBe('–');
    expect(zahl('99.3894', 'de', 4)).toBe('99,3894');
    expect(zahl('99.3894', 'de', 2)).toBe('99,39');
    expect(zahl('92.68', 'en', 2)).toBe('92.68');
  });

  it('reads typed numbers in German and English into the API\'s form', () => {
    for (const s of ['2.500,5', '2500,5', '2500,50', '2 500,5', '2500.5']) expect(parseZahl(s, 'de'), s).toBe('2500.5');
    for (const s of ['2,500.5', '2500.5', '2500,5']) expect(parseZahl(s, 'en'), s).toBe('2500.5');
    expect(parseZahl('2.500', 'de')).toBe('2500');
    expect(parseZahl('1.000.000', 'de')).toBe('1000000');
    expect(parseZahl('2,500', 'en')).toBe('2500');
    expect(parseZahl('0,5', 'de')).toBe('0.5');
    expect(parseZahl(',5', 'de')).toBe('0.5');
    expect(parseZahl('007', 'de')).toBe('7');
    expect(parseZahl('12,34567', 'de')).toBe('12.34567');
    expect(parseZahl('  ', 'de')).toBeNull();
    for (const s of ['abc', '1,2,3', '1.2.3', '1e5', '2.500,5,0', ',']) expect(parseZahl(s, 'de'), s).toBeUndefined();
  });

  it('shows a stored value for editing without grouping, with the language\'s decimal mark', () => {
    expect(eingabe('2500.500', 'de')).toBe('2500,5');
    expect(eingabe('8000', 'de')).toBe('8000');
    expect(eingabe('2500.5', 'en')).toBe('2500.5');
    expect(eingabe(null, 'de')).toBe('');
    expect(parseZahl(eingabe('2500.500', 'de'), 'de')).toBe('2500.5');
  });
});

describe('the split\'s first part', () => {
  it('is what the position holds minus the new part, and nothing when the new part takes it all', () => {
    expect(ersterTeil('8000', '3000')).toBe('5000');
    expect(ersterTeil('8000', '2500.5')).toBe('5499.5');
    expect(ersterTeil('8000', '8000')).toBeNull();
    expect(ersterTeil('8000', '9000')).toBeNull();
    expect(ersterTeil('8000', '0')).toBeNull();
    expect(ersterTeil('8000', 'x')).toBeNull();
  });
});

describe('dates and texts', () => {
  it('writes days and instants in the user\'s format and time zone', () => {
    expect(datum('2026-01-25', 'dd.MM.yyyy')).toBe('25.01.2026');
    expect(datum('2026-01-25', 'yyyy-MM-dd')).toBe('2026-01-25');
    expect(datum('2026-01-25', 'MM/dd/yyyy')).toBe('01/25/2026');
    expect(datum(null, 'dd.MM.yyyy')).toBe('–');
    expect(zeitpunkt('2026-03-31T22:30:00.000Z', 'dd.MM.yyyy', 'Europe/Berlin')).toBe('01.04.2026 00:30');
  });

  it('fills the server\'s templates', () => {
    expect(fill('{feld} ({partner}, Position {position})', { feld: 'Priorität', partner: 'TP001', position: 1 })).toBe('Priorität (TP001, Position 1)');
    expect(fill('{unbekannt}', {})).toBe('{unbekannt}');
  });
});
