// Who may link an Einlieferung to a collection (a table of cases), and how a collection's certificates are read
// from a body (numbers, objects, the form's one select), without a database.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nachweiseField } from './store.js';
import { darfVerknuepfen, type Orte, type VerknuepfungsRechte } from './verknuepfung.js';

const orte = (standorte: 'all' | string[]): Orte => ({ allowsStandort: (nr) => standorte === 'all' || (nr != null && standorte.includes(nr)) });
const rechte = (r: { eView?: 'all' | string[]; eEdit?: 'all' | string[]; aView?: 'all' | string[]; aEdit?: 'all' | string[] }): VerknuepfungsRechte<Orte> => ({
  einlieferungen: { view: orte(r.eView ?? r.eEdit ?? []), edit: orte(r.eEdit ?? []) },
  abholungen: { view: orte(r.aView ?? r.aEdit ?? []), edit: orte(r.aEdit ?? []) },
});

describe('darfVerknuepfen', () => {
  it.each([
    ['edits deliveries, sees collections', { eEdit: 'all', aView: 'all' }, '1001', '1001', true],
    ['edits collections, sees deliveries', { eView: 'all', aEdit: 'all' }, '1001', '1002', true],
    ['reads both only', { eView: 'all', aView: 'all' }, '1001', '1001', false],
    ['edits deliveries, sees no collections', { eEdit: 'all' }, '1001', '1001', false],
    ['edits collections, sees no deliveries', { aEdit: 'all' }, '1001', '1001', false],
    ['edits deliveries at 1001 only: a delivery at 1002', { eEdit: ['1001'], aView: 'all' }, '1002', '1001', false],
    ['edits deliveries at 1001: its delivery, a collection elsewhere it sees', { eEdit: ['1001'], aView: 'all' }, '1001', '1002', true],
    ['edits collections at 1001, sees deliveries at 1001: a collection at 1002', { eView: ['1001'], aEdit: ['1001'] }, '1001', '1002', false],
    ['edits both at 1001: both there', { eEdit: ['1001'], aEdit: ['1001'] }, '1001', '1001', true],
  ] as const)('%s → %s', (_name, r, e, a, expected) => {
    expect(darfVerknuepfen(rechte(r as Parameters<typeof rechte>[0]), e, a)).toBe(expected);
  });

  it('never allows what the user cannot see, whatever the edit rights', () => {
    const scope = fc.oneof(fc.constant('all' as const), fc.subarray(['1001', '1002', '1003']));
    fc.assert(fc.property(scope, scope, scope, scope, fc.constantFrom('1001', '1002', '1003'), fc.constantFrom('1001', '1002', '1003'), (eView, eEdit, aView, aEdit, e, a) => {
      const r = rechte({ eView, eEdit, aView, aEdit });
      if (darfVerknuepfen(r, e, a)) {
        expect(r.einlieferungen.view.allowsStandort(e) && r.abholungen.view.allowsStandort(a)).toBe(true);
        expect(r.einlieferungen.edit.allowsStandort(e) || r.abholungen.edit.allowsStandort(a)).toBe(true);
      }
    }));
  });
});

describe('nachweiseField', () => {
  const parse = (v: unknown) => nachweiseField().safeParse(v);

  it('takes numbers, objects with nachweisNr and the form\'s single value, trimmed and in order', () => {
    expect(parse(['N-2', ' N-1 ']).data).toEqual(['N-2', 'N-1']);
    expect(parse([{ nachweisNr: 'N-1' }, { nachweisNr: 'N-2', volumen: 5 }]).data).toEqual(['N-1', 'N-2']);
    expect(parse('N-1').data).toEqual(['N-1']);
  });

  it('leaves an absent list absent (an edit keeps the stored one)', () => {
    for (const v of [undefined, null, '']) expect(parse(v)).toMatchObject({ success: true, data: undefined });
  });

  it.each([
    [[], 'abholungen:errors.mindestensEinNachweis'],
    [['N-1', 'N-1'], 'abholungen:errors.nachweisDoppelt'],
    [[{ nr: 'N-1' }], 'abholungen:errors.nachweisNrUngueltig'],
    [['N 1'], 'abholungen:errors.nachweisNrUngueltig'],
    [[''], 'abholungen:errors.nachweisNrUngueltig'],
    [[42], 'abholungen:errors.nachweisNrUngueltig'],
    [{ nachweisNr: 'N-1' }, 'validation.invalidType'],
    [Array.from({ length: 201 }, (_, i) => `N-${i}`), 'abholungen:errors.zuVieleNachweise'],
  ])('refuses %j', (v, message) => {
    const res = parse(v);
    expect(res.success).toBe(false);
    expect(res.error!.issues[0]).toMatchObject({ message, path: [] });
  });
});
