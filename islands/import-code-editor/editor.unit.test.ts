import { describe, expect, it } from 'vitest';
import { diagnose, fill, lineCount, lineRange } from './editor';

describe('import-code editor helpers', () => {
  it('fills message templates, dropping format suffixes', () => {
    expect(fill('Zeile {{line}}: {{message}}', { line: 3, message: 'x' })).toBe('Zeile 3: x');
    expect(fill('höchstens {{max, number}}', { max: 5 })).toBe('höchstens 5');
    expect(fill('{{unknown}}', {})).toBe('{{unknown}}');
  });

  it('diagnoses per line with the given texts, as the server does', () => {
    const messages = { unknownFieldSuggest: 'Unbekanntes Feld „{{field}}“. Meinten Sie „{{suggestion}}“?', missingRequired: 'Das Pflichtfeld {{field}} fehlt im Import-Code.' };
    const d = diagnose('nr = Spalte "A"\nmengee = Spalte "B"', 'einlieferungen', messages);
    expect(d[0]).toEqual({ line: 2, message: 'Unbekanntes Feld „mengee“. Meinten Sie „entladeneMenge“?' });
    expect(d.slice(1).every((x) => x.message.startsWith('Das Pflichtfeld'))).toBe(true);
  });

  it('counts lines and finds where a line starts, with any line ending', () => {
    expect(lineCount('a\nb\n')).toBe(3);
    expect(lineRange('ab\ncd\r\nef', 3)).toEqual([7, 9]);
    expect(lineRange('ab\ncd', 2)).toEqual([3, 5]);
    expect(lineRange('ab', 5)).toEqual([0, 2]);
  });
});
