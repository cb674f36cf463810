import { describe, expect, it } from 'vitest';
import { chooseTenant, normaliseTenantList } from './tenants';

describe('tenant list rules', () => {
  it.each([
    ['not an array', { mandant: 'DEMO' }, null],
    ['an empty array', [], null],
    ['only invalid entries', [{ mandant: 7 }, null, 'DEMO', {}], null],
    ['valid and invalid entries', [{ mandant: 'demo', adminKz: true }, { mandant: 42 }, { name: 'x' }], [{ mandant: 'DEMO', adminKz: true }]],
    ['the same tenant twice in different case', [{ mandant: 'Nord' }, { mandant: 'NORD' }], [{ mandant: 'NORD', adminKz: false }]],
  ])('%s', (_label, input, expected) => {
    expect(normaliseTenantList(input)).toEqual(expected);
  });

  it('chooses the only tenant at once', () => {
    expect(chooseTenant([{ mandant: 'DEMO', adminKz: false }])).toBe('DEMO');
  });

  it('accepts the current tenant only if it is in the list, case-insensitively', () => {
    const list = [{ mandant: 'DEMO', adminKz: false }, { mandant: 'NORD', adminKz: false }];
    expect(chooseTenant(list)).toBeNull();
    expect(chooseTenant(list, 'nord')).toBe('NORD');
    expect(chooseTenant(list, 'SUED')).toBeNull();
  });
});
