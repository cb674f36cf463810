import { describe, expect, it } from 'vitest';
import { fill, fromPermissions, grantOf, toPermissions, toggle, withoutScope, type AreaDef } from './matrix';

const einlieferungen: AreaDef = { area: 'einlieferungen', label: 'Einlieferungen', read: true, write: true };
const nachweise: AreaDef = { area: 'nachweise', label: 'Nachweise', read: false, write: true };
const cockpit: AreaDef = { area: 'cockpit', label: 'Cockpit', read: true, write: false };
const areas = [einlieferungen, nachweise, cockpit];

describe('permission matrix rules', () => {
  it('ticks read with write, and unticks write with read', () => {
    let g = toggle({}, einlieferungen, null, 'write', true);
    expect(grantOf(g, 'einlieferungen', null)).toEqual({ canRead: true, canWrite: true });
    g = toggle(g, einlieferungen, null, 'write', false);
    expect(grantOf(g, 'einlieferungen', null)).toEqual({ canRead: true, canWrite: false });
    g = toggle(toggle(g, einlieferungen, null, 'write', true), einlieferungen, null, 'read', false);
    expect(grantOf(g, 'einlieferungen', null)).toEqual({ canRead: false, canWrite: false });
  });

  it('keeps scopes apart and ignores boxes the area does not have', () => {
    let g = toggle({}, einlieferungen, '1001', 'read', true);
    expect(grantOf(g, 'einlieferungen', null).canRead).toBe(false);
    g = toggle(g, cockpit, null, 'write', true);
    g = toggle(g, nachweise, null, 'read', true);
    expect(grantOf(g, 'cockpit', null)).toEqual({ canRead: false, canWrite: false });
    expect(grantOf(g, 'nachweise', null)).toEqual({ canRead: false, canWrite: false });
    g = toggle(g, nachweise, null, 'write', true);
    g = toggle(g, nachweise, null, 'write', false);
    expect(grantOf(g, 'nachweise', null)).toEqual({ canRead: false, canWrite: false });
  });

  it('builds the PUT body from the shown scopes only', () => {
    let g = fromPermissions([{ area: 'einlieferungen', canRead: true, canWrite: false, standortNr: '1002' }]);
    g = toggle(g, nachweise, null, 'write', true);
    g = toggle(g, cockpit, '1001', 'read', true);
    expect(toPermissions(g, areas, [null, '1001'])).toEqual([
      { area: 'nachweise', canRead: true, canWrite: true, standortNr: null },
      { area: 'cockpit', canRead: true, canWrite: false, standortNr: '1001' },
    ]);
    expect(toPermissions(withoutScope(g, '1001'), areas, [null, '1001', '1002'])).toEqual([
      { area: 'nachweise', canRead: true, canWrite: true, standortNr: null },
      { area: 'einlieferungen', canRead: true, canWrite: false, standortNr: '1002' },
    ]);
  });

  it('fills the translated label templates', () => {
    expect(fill('{area} – {action} – {scope}', { area: 'Einlieferungen', action: 'lesen', scope: 'Alle Standorte' })).toBe(
      'Einlieferungen – lesen – Alle Standorte',
    );
  });
});
