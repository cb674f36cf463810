// What a record's values look like on its page: pure, tested with the values the pages show.
import { describe, expect, it } from 'vitest';
import { formatter } from '../http/format.js';
import type { FormField } from './entity.js';
import { editableDecimal, fieldLabel, formGroups, formValue, historyValue } from './presenter.js';

// A stand-in translation that shows which key (and options) was asked for.
const t = (key: string | string[], options?: Record<string, unknown>) =>
  `«${Array.isArray(key) ? key.join('|') : key}${options?.defaultValue ? `=${options.defaultValue}` : ''}»`;
const de = formatter({ dateFormat: 'dd.MM.yyyy', timezone: 'Europe/Berlin' }, 'de');

const decimal: FormField = { name: 'biogehalt', label: 'p:biogehalt', kind: 'decimal' };
const date: FormField = { name: 'datum', label: 'p:datum', kind: 'date' };
const gruppe: FormField = { name: 'gruppe', label: 'p:gruppe', kind: 'select', options: [{ value: 'hvo', label: 'p:gruppen.hvo' }, { value: 'TP001', label: 'TP001 · Nordöl', raw: true }] };

describe('editableDecimal', () => {
  it.each([
    ['25.000', 'de', '25'],
    ['6.500', 'de', '6,5'],
    ['6.500', 'en', '6.5'],
    ['1234567.125', 'de', '1234567,125'],
    ['12', 'de', '12'],
    ['0.000', 'de', '0'],
  ])('%s in %s is typed as %s (no grouping, so saving it unchanged reads the same number)', (stored, lang, shown) => {
    expect(editableDecimal(stored, lang)).toBe(shown);
  });
});

describe('formValue', () => {
  it('makes a stored decimal editable but shows typed input exactly as typed', () => {
    expect(formValue(decimal, { biogehalt: '6.500' }, { fromRecord: true, lang: 'de' })).toBe('6,5');
    expect(formValue(decimal, { biogehalt: '6.500' }, { fromRecord: false, lang: 'de' })).toBe('6.500');
    expect(formValue(decimal, { biogehalt: null }, { fromRecord: true, lang: 'de' })).toBe('');
    expect(formValue(date, { datum: '2026-11-25' }, { fromRecord: true, lang: 'de' })).toBe('2026-11-25');
  });
});

describe('historyValue', () => {
  const ctx = { fmt: de, t };
  it('shows empty as a dash, choices and yes/no in words, status by its key', () => {
    expect(historyValue('biogehalt', decimal, null, ctx)).toEqual(['–']);
    expect(historyValue('biogehalt', decimal, '', ctx)).toEqual(['–']);
    expect(historyValue('gruppe', gruppe, 'hvo', ctx)).toEqual(['«p:gruppen.hvo»']);
    expect(historyValue('gruppe', gruppe, 'TP001', ctx)).toEqual(['TP001 · Nordöl']);
    expect(historyValue('quota', undefined, true, ctx)).toEqual(['«list.yes»']);
    expect(historyValue('status', undefined, 'inaktiv', ctx)).toEqual(['«records:status.inaktiv»']);
  });

  it('writes dates and decimals as the language does, with the digits the value has', () => {
    expect(historyValue('datum', date, '2026-03-01', ctx)).toEqual(['01.03.2026']);
    expect(historyValue('biogehalt', decimal, '6.500', ctx)).toEqual(['6,5']);
    expect(historyValue('biogehalt', decimal, '25000.000', ctx)).toEqual(['25.000']);
    expect(historyValue('kommentar', undefined, 'frei', ctx)).toEqual(['frei']);
  });

  it("uses the record type's own formatting where it gives one, as lines", () => {
    const own = (field: string, value: unknown) => (field === 'regeln' ? [`A ${value}`, 'B'] : undefined);
    expect(historyValue('regeln', undefined, 1, { ...ctx, own })).toEqual(['A 1', 'B']);
    expect(historyValue('biogehalt', decimal, '7', { ...ctx, own })).toEqual(['7']);
  });
});

describe('fieldLabel', () => {
  it('names number and status generically, a form field by its label, anything else by the type or movement data', () => {
    expect(fieldLabel('nr', undefined, 'produkte', t)).toBe('«records:fields.nr»');
    expect(fieldLabel('status', { name: 'status', label: 'x:status', kind: 'select' }, 'einlieferungen', t)).toBe('«records:fields.status»');
    expect(fieldLabel('biogehalt', decimal, 'produkte', t)).toBe('«p:biogehalt»');
    expect(fieldLabel('partnerVersion', undefined, 'einlieferungen', t)).toBe('«einlieferungen:fields.partnerVersion|bewegungsdaten:fields.partnerVersion=partnerVersion»');
  });
});

describe('formGroups', () => {
  it('keeps the declared order, groups in order of first appearance, ungrouped fields where the first of them stands', () => {
    const f = (name: string, group?: string): FormField => ({ name, label: name, kind: 'text', ...(group ? { group } : {}) });
    const groups = formGroups([f('a', 'g:dokument'), f('b'), f('c', 'g:lieferung'), f('d', 'g:dokument'), f('e')]);
    expect(groups.map((g) => [g.legend, g.fields.map((x) => x.name)])).toEqual([
      ['g:dokument', ['a', 'd']],
      [null, ['b', 'e']],
      ['g:lieferung', ['c']],
    ]);
    expect(formGroups([])).toEqual([]);
  });
});
