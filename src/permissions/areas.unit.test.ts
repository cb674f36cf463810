import { describe, expect, it } from 'vitest';
import { permissionsFromRoles, PERMISSION_AREAS, rolesFromPermissions } from './areas.js';

describe('permission areas ↔ role types', () => {
  it('covers every role type 1–25 except none', () => {
    const types = new Set(PERMISSION_AREAS.flatMap((a) => [a.read, a.write]).filter((t) => t != null));
    expect([...types].sort((a, b) => a! - b!)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
  });

  it('reads write as read-and-write and keeps location scopes apart', () => {
    const perms = permissionsFromRoles([
      { typ: 10, standortNr: null },
      { typ: 1, standortNr: '1001' },
      { typ: 2, standortNr: '1002' },
    ]);
    expect(perms).toEqual(
      expect.arrayContaining([
        { area: 'einlieferungen', canRead: true, canWrite: true, standortNr: null },
        { area: 'produkte', canRead: true, canWrite: false, standortNr: '1001' },
        { area: 'produkte', canRead: true, canWrite: true, standortNr: '1002' },
      ]),
    );
    expect(perms).toHaveLength(3);
  });

  it('round-trips: roles → permissions → roles', () => {
    const roles = [
      { typ: 9, standortNr: null }, { typ: 3, standortNr: '1001' }, { typ: 4, standortNr: '1001' }, { typ: 15, standortNr: null },
      { typ: 25, standortNr: '1002' },
    ];
    const back = rolesFromPermissions(permissionsFromRoles(roles));
    expect(back).toEqual(expect.arrayContaining(roles));
    expect(back).toHaveLength(roles.length);
  });

  it('grants the read role with write, and nothing for unknown areas', () => {
    expect(rolesFromPermissions([{ area: 'bestaende', canRead: false, canWrite: true, standortNr: null }])).toEqual(
      expect.arrayContaining([{ typ: 14, standortNr: null }, { typ: 13, standortNr: null }]),
    );
    expect(rolesFromPermissions([{ area: 'gibt-es-nicht', canRead: true, canWrite: true, standortNr: null }])).toEqual([]);
  });
});
