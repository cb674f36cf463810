// The import-code parser (shared by server and editor island): what it accepts, and that every problem names
// its line and what is wrong, with a text in German and in English.
import { describe, expect, it } from 'vitest';
import { loadResources } from '../../http/i18n.js';
import { defaultCode } from './defaults.js';
import { applyRule, fieldsOf, missingColumns, parseDatePattern, parseMapping, rowMapper, type MappingError } from './mapping.js';

const GOOD = `# Einlieferungen aus dem Warenwirtschaftssystem
nr             = Spalte "Lieferschein"
entladedatum   = Spalte "Datum" | datum TT.MM.JJJJ
entladeneMenge = Spalte "Menge" | dezimalkomma
unitOfMeasure  = Spalte "ME" | einheit Liter=L Kilogramm=kg
partnerNr      = Spalte "Lieferant"
standortNr     = Spalte Standort
produktNr      = Spalte „Produkt“
status         = "open"   # fester Wert
`;

const codes = (errors: MappingError[]) => errors.map((e) => [e.line, e.code]);

describe('parseMapping', () => {
  it('reads columns, fixed values, conversions and comments', () => {
    const { mapping, errors } = parseMapping(GOOD, 'einlieferungen');
    expect(errors).toEqual([]);
    expect(mapping.rules.map((r) => [r.field, r.line, r.source])).toEqual([
      ['nr', 2, { column: 'Lieferschein' }],
      ['entladedatum', 3, { column: 'Datum' }],
      ['entladeneMenge', 4, { column: 'Menge' }],
      ['unitOfMeasure', 5, { column: 'ME' }],
      ['partnerNr', 6, { column: 'Lieferant' }],
      ['standortNr', 7, { column: 'Standort' }],
      ['produktNr', 8, { column: 'Produkt' }],
      ['status', 9, { value: 'open' }],
    ]);
    expect(mapping.rules[1].date?.text).toBe('TT.MM.JJJJ');
    expect(mapping.rules[2].decimal).toBe('comma');
    expect([...mapping.rules[3].values!]).toEqual([['liter', 'L'], ['kilogramm', 'kg']]);
  });

  it('accepts English keywords, aliases and any case', () => {
    const text = [
      'NUMBER = column "Lieferung note"',
      'date = COLUMN "Date" | date YYYY-MM-DD',
      'quantity = column "Qty" | decimalpoint',
      'unit = "L"',
      'Partner = column "Supplier"',
      'location = column "Site"',
      'product = column "Product" ',
      'kommentar = column "Note" | values x=Express',
    ].join('\n');
    const { mapping, errors } = parseMapping(text, 'ablieferungen');
    expect(errors).toEqual([]);
    expect(mapping.rules.map((r) => r.field)).toEqual(['nr', 'lieferdatum', 'menge', 'uomMenge', 'partnerNr', 'standortNr', 'produktNr', 'kommentar']);
  });

  it('names the line and the problem of each faulty line', () => {
    const text = [
      'nr = Spalte "Nr"', // 1
      'entladedatum = Spalte "Datum" | datum TT.QQ.JJJJ', // 2 bad date pattern
      'mengee = Spalte "Menge"', // 3 unknown field with a suggestion
      'farbe = "blau"', // 4 unknown field
      'nr = Spalte "Nummer"', // 5 duplicate
      'entladeneMenge = Spalte "Menge" | runden', // 6 unknown conversion
      'unitOfMeasure = Spalte "ME" | dezimalkomma', // 7 conversion does not fit the field
      'partnerNr Spalte "Lieferant"', // 8 no "="
      'standortNr = Standort', // 9 a bare word: column or fixed value?
      'produktNr = Spalte "Produkt', // 10 unclosed quote
      'status = Spalte "Status" | werte offen=offen', // 11 value target not a status
      'typ = ', // 12 no source
    ].join('\n');
    const { errors } = parseMapping(text, 'einlieferungen');
    expect(codes(errors)).toEqual([
      [2, 'badDatePattern'],
      [3, 'unknownFieldSuggest'],
      [4, 'unknownField'],
      [5, 'duplicateField'],
      [6, 'unknownConversion'],
      [7, 'conversionNotForField'],
      [8, 'missingEquals'],
      [9, 'bareWord'],
      [10, 'unclosedQuote'],
      [11, 'badValueTarget'],
      [12, 'missingSource'],
    ]);
    expect(errors[1].params).toMatchObject({ field: 'mengee', suggestion: 'entladeneMenge' });
    expect(errors[3].params).toEqual({ field: 'nr', first: 1 });
  });

  it('names each missing required field (number, date, quantity, unit, partner, location, product)', () => {
    const { errors } = parseMapping('# leer\nkommentar = Spalte "Bemerkung"\n\n', 'ablieferungen');
    expect(errors.map((e) => [e.line, e.code, e.params.field])).toEqual(
      ['nr', 'lieferdatum', 'menge', 'uomMenge', 'partnerNr', 'standortNr', 'produktNr'].map((f) => [2, 'missingRequired', f]),
    );
  });

  it('refuses bad unit tables and stray arguments', () => {
    const base = GOOD.replace(/^unitOfMeasure.*$/m, '%');
    const at = (line: string) => codes(parseMapping(base.replace('%', line), 'einlieferungen').errors);
    expect(at('unitOfMeasure = Spalte "ME" | einheit Liter=Gallone')).toEqual([[5, 'badUnitTarget']]);
    expect(at('unitOfMeasure = Spalte "ME" | einheit Liter')).toEqual([[5, 'badPairs']]);
    expect(at('unitOfMeasure = Spalte "ME" | einheit')).toEqual([[5, 'missingPairs']]);
    expect(at('unitOfMeasure = Spalte "ME" | einheit Liter=L | einheit kg=kg')).toEqual([[5, 'duplicateConversion']]);
    expect(at('unitOfMeasure = Spalte "ME" |')).toEqual([[5, 'emptyConversion']]);
    expect(at('unitOfMeasure = Spalte')).toEqual([[5, 'missingColumnName']]);
    expect(at('unitOfMeasure = "L" | dezimalkomma 2')).toEqual([[5, 'conversionNotForField']]);
    expect(at('= "L"')).toEqual([[5, 'missingField'], [9, 'missingRequired']]);
  });

  it('has a German and an English text for every error code, naming what the code names', () => {
    const resources = loadResources();
    const texts = (lang: string) => (resources[lang]['bewegungsdaten-import'] as { code: { errors: Record<string, string> } }).code.errors;
    const samples = [
      parseMapping('x', 'einlieferungen'), parseMapping('nr = Spalte "A" | foo', 'einlieferungen'),
      parseMapping('"x" = 1\n= 2\nnr =\nnr = Spalte\nnr = Spalte ""\nnr = A B\nnr = "A\nnr = A\n', 'einlieferungen'),
      parseMapping('x'.repeat(30_000), 'einlieferungen'),
    ];
    const used = new Set(samples.flatMap((s) => s.errors.map((e) => e.code)));
    const all = ['tooLong', 'unclosedQuote', 'expectedField', 'missingField', 'missingEquals', 'unknownField', 'unknownFieldSuggest', 'duplicateField',
      'missingSource', 'missingColumnName', 'emptyColumnName', 'badSource', 'bareWord', 'emptyConversion', 'unknownConversion', 'conversionNotForField',
      'duplicateConversion', 'missingDatePattern', 'badDatePattern', 'noArguments', 'missingPairs', 'badPairs', 'badUnitTarget', 'badValueTarget',
      'missingRequired'];
    for (const code of used) expect(all).toContain(code);
    for (const lang of ['de', 'en']) {
      for (const code of all) expect(texts(lang)[code], `${lang} ${code}`).toBeTruthy();
      // Placeholders in the texts are ones the parser fills.
      for (const code of all) for (const [, name] of texts(lang)[code].matchAll(/\{\{(\w+)/g)) expect(['field', 'suggestion', 'first', 'conversion', 'pattern', 'text', 'value', 'allowed', 'word', 'max', 'typ']).toContain(name);
    }
  });

  it('takes the default codes as they are shipped, in both languages', () => {
    for (const typ of ['einlieferungen', 'ablieferungen'] as const) {
      for (const lang of ['de', 'en'] as const) expect(parseMapping(defaultCode(typ, lang, ['Kommentar']), typ).errors, `${typ} ${lang}`).toEqual([]);
    }
  });
});

describe('date patterns', () => {
  it('reads day, month and year in any order, with or without separators', () => {
    expect(parseDatePattern('TT.MM.JJJJ')?.order).toEqual(['d', 'm', 'y']);
    expect(parseDatePattern('mm/dd/yyyy')?.order).toEqual(['m', 'd', 'y']);
    expect(parseDatePattern('JJJJMMTT')?.regex.test('20251103')).toBe(true);
    for (const bad of ['TT.MM', 'TT.MM.JJJJ.JJ', 'Datum', 'TT.MM.JJJ', '']) expect(parseDatePattern(bad), bad).toBeNull();
  });
});

describe('applying a mapping', () => {
  const { mapping } = parseMapping(GOOD, 'einlieferungen');
  const rule = (field: string) => mapping.rules.find((r) => r.field === field)!;

  it('converts dates, decimal commas and units; passes a spreadsheet number or date as it is (a date number as its day)', () => {
    expect(applyRule(rule('entladedatum'), '3.11.2025')).toEqual({ value: '2025-11-03' });
    expect(applyRule(rule('entladedatum'), '2025-11-03', 'date')).toEqual({ value: '2025-11-03' });
    expect(applyRule(rule('entladedatum'), '45964', 'number')).toEqual({ value: '2025-11-03' });
    expect(applyRule(rule('entladedatum'), '11/03/2025')).toMatchObject({ problem: { field: 'entladedatum', code: 'dateFormat' } });
    expect(applyRule(rule('entladeneMenge'), '12.500,75')).toEqual({ value: '12500.75' });
    expect(applyRule(rule('entladeneMenge'), '1 234,5')).toEqual({ value: '1234.5' });
    expect(applyRule(rule('entladeneMenge'), '12500.75', 'number')).toEqual({ value: '12500.75' });
    expect(applyRule(rule('entladeneMenge'), '12.5')).toMatchObject({ problem: { code: 'decimalComma', params: { value: '12.5' } } });
    expect(applyRule(rule('unitOfMeasure'), ' kilogramm ')).toEqual({ value: 'kg' });
    expect(applyRule(rule('unitOfMeasure'), 'L')).toEqual({ value: 'L' });
    expect(applyRule(rule('unitOfMeasure'), 'Gallonen')).toMatchObject({ problem: { code: 'notMapped', params: { value: 'Gallonen', known: 'liter, kilogramm' } } });
  });

  it('finds columns regardless of case and spacing, and names the ones a file lacks', () => {
    expect(missingColumns(mapping, ['lieferschein', 'DATUM', 'Menge ', 'Lieferant', 'Standort', 'Produkt'])).toEqual(['ME']);
    const mapper = rowMapper(mapping, ['Lieferschein', 'Datum', 'Menge', 'ME', 'Lieferant', 'Standort', 'Produkt']);
    expect(mapper.read(['EL-1', '03.11.2025', '1.000', 'Liter', 'TP001', '1001', 'P001'])).toEqual({
      input: { nr: 'EL-1', entladedatum: '2025-11-03', entladeneMenge: '1000', unitOfMeasure: 'L', partnerNr: 'TP001', standortNr: '1001', produktNr: 'P001', status: 'open' },
      problems: [],
    });
    expect(mapper.headerOf('entladeneMenge')).toBe('Menge');
    expect(mapper.headerOf('status')).toBeNull();
  });

  it('lists the same fields for both types but for the spec names of quantity, unit and date', () => {
    const names = (typ: 'einlieferungen' | 'ablieferungen') => fieldsOf(typ).map((f) => f.name);
    expect(names('einlieferungen').slice(1, 4)).toEqual(['entladedatum', 'entladeneMenge', 'unitOfMeasure']);
    expect(names('ablieferungen').slice(1, 4)).toEqual(['lieferdatum', 'menge', 'uomMenge']);
  });
});
